/**
 * Issue 21: long single tokens must cost linear time in the token counter,
 * the query reader and the path resolver. Each case below took from seconds
 * to minutes before (quadratic); now each must finish within the test's
 * timeout, and the answers must still be the ones the code meant.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { countTokens, MAX_PIECE_BYTES } from '../../src/budget/tokens.js';
import { readQuery } from '../../src/search/query.js';
import { MAX_PATH_CHARS, PathEscapeError, resolveInside } from '../../src/walk/paths.js';
import { makeRepo, removeDir } from '../helpers/fixture.js';
import { sequence } from './helpers.js';

const { encode } = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { encode: (t: string) => number[] };

describe('token counting is linear on one long piece', () => {
  it('counts a 1 MB run of one letter and a 1 MB sequence (over 120 s before)', () => {
    expect(countTokens('a'.repeat(1_000_000))).toBeGreaterThan(0);
    const fasta = sequence(1_000_000);
    const n = countTokens(fasta);
    // Counted in MAX_PIECE_BYTES chunks, each merged exactly: the count is the sum of the chunks' exact counts.
    let chunked = 0;
    for (let at = 0; at < fasta.length; at += MAX_PIECE_BYTES) chunked += encode(fasta.slice(at, at + MAX_PIECE_BYTES)).length;
    expect(n).toBe(chunked);
  });

  it('stays exact for pieces up to the cap', () => {
    for (const text of [sequence(MAX_PIECE_BYTES), 'x'.repeat(MAX_PIECE_BYTES), 'getUserName(token) {\n  return 42;\n}', ' '.repeat(200)]) {
      expect(countTokens(text)).toBe(encode(text).length);
    }
  });
});

describe('reading a query is linear on hostile text', () => {
  const n = 200_000;
  const hostile: Record<string, string> = {
    letters: 'a'.repeat(n),
    camel: 'aB'.repeat(n / 2),
    at: '@a'.repeat(n / 2),
    moduleVersions: '@1'.repeat(n / 2) + '/x.py',
    slashes: 'a/'.repeat(n / 2),
    backslashes: 'a\\'.repeat(n / 2),
    dots: 'a.'.repeat(n / 2),
    goFrames: 'x.go'.repeat(n / 4),
    newlines: '\n'.repeat(n),
    blankLines: ' \n'.repeat(n / 2),
    unclosedComments: '<!--'.repeat(n / 4),
    codeSpan: '`' + 'a'.repeat(n) + '`',
    hyphens: '-a'.repeat(n / 2),
    trailingDots: 'a' + '.'.repeat(n) + '.ts',
  };
  it.each(Object.keys(hostile))('%s (200,000 characters)', (name) => {
    expect(readQuery(hostile[name]!).terms.length).toBeGreaterThanOrEqual(0);
  }, 20_000);

  it('still reads what the patterns were for', () => {
    const read = readQuery('crash in `parseConfig`\n<!-- template -->\n  at loadFile (src/config/load.ts:12:5)\ngo/pkg/mod/github.com/org/repo@v1.2.3/core/x.go:10 and lib/util.py.\n<!-- unclosed keepme');
    expect(read.paths).toEqual(expect.arrayContaining(['src/config/load.ts', 'core/x.go', 'lib/util.py']));
    expect([...read.identifiers.keys()]).toEqual(expect.arrayContaining(['parseconfig', 'loadfile']));
    expect(read.terms.map((t) => t.term)).toContain('keepme');
    expect(read.terms.map((t) => t.term)).not.toContain('template');
  });
});

describe('resolving a path is bounded', () => {
  it('refuses a path over the length bound at once, and resolves a deep one under it', () => {
    const root = makeRepo({ 'a.txt': 'x' });
    try {
      expect(() => resolveInside(root, 'a/'.repeat(512 * 1024))).toThrow(PathEscapeError);
      expect(() => resolveInside(root, 'a'.repeat(MAX_PATH_CHARS + 1))).toThrow(/over 4096/);
      const deep = 'a/'.repeat(MAX_PATH_CHARS / 2 - 1);
      expect(resolveInside(root, deep)).toBe(deep.slice(0, -1));
    } finally {
      removeDir(root);
    }
  });
});
