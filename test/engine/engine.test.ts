import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../src/engine/list-files.js';
import { locate } from '../../src/engine/locate.js';
import { outline } from '../../src/engine/outline.js';
import { read } from '../../src/engine/read.js';
import { search } from '../../src/engine/search.js';
import { stats } from '../../src/engine/stats.js';
import { SightlineError } from '../../src/errors/index.js';
import { SAMPLE_FILES, useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

describe('search', () => {
  it('finds code by its words and ranks the definition first', () => {
    const e = search(fixture.repo, { query: 'get user name' });
    expect(e.status).toBe('ok');
    expect(e.mode).toBe('hybrid');
    expect(e.results[0]!.path).toBe('src/auth/session.ts');
    expect(e.results[0]!.reasons.some((r) => r.startsWith('bm25'))).toBe(true);
  });

  it('an identifier query matches every spelling and boosts its definition', () => {
    const e = search(fixture.repo, { query: 'getUserName' });
    const top = e.results[0]!;
    expect(top.path).toBe('src/auth/session.ts');
    expect(top.reasons).toContain('symbol:getUserName');
    // tests and docs mention it too, but below the code
    const paths = e.results.map((r) => r.path);
    expect(paths).toContain('test/session.test.ts');
    expect(paths.indexOf('test/session.test.ts')).toBeGreaterThan(0);
  });

  it('returns 1-based inclusive line spans that hold the match', () => {
    const e = search(fixture.repo, { query: 'parse_request_line' });
    const hit = e.results.find((r) => r.path === 'src/server/http_server.py')!;
    const lines = SAMPLE_FILES['src/server/http_server.py']!.split('\n');
    const defLine = lines.findIndex((l) => l.startsWith('def parse_request_line')) + 1;
    expect(hit.start_line).toBeLessThanOrEqual(defLine);
    expect(hit.end_line).toBeGreaterThanOrEqual(defLine);
    expect(hit.snippet).toContain(`${defLine}: def parse_request_line(line):`);
  });

  it('filters by scope, exclude and kind', () => {
    expect(search(fixture.repo, { query: 'session', scope: 'test' }).results.every((r) => r.path.startsWith('test/'))).toBe(true);
    expect(search(fixture.repo, { query: 'session', exclude: ['test/**', 'docs/**'] }).results.every((r) => !/^(test|docs)\//.test(r.path))).toBe(true);
    const docs = search(fixture.repo, { query: 'session', kind: ['doc'] }).results;
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((r) => r.kind === 'doc')).toBe(true);
  });

  it('--files returns distinct files best first', () => {
    const e = search(fixture.repo, { query: 'session user token', files: true, k: 10 });
    const paths = e.results.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths[0]).toBe('src/auth/session.ts');
  });

  it('regex mode matches lines literally', () => {
    const e = search(fixture.repo, { query: 'sha\\d+', regex: true });
    expect(e.results.map((r) => r.path)).toEqual(['src/util/crypto.ts']);
    expect(e.results[0]!.snippet).toMatch(/^4: /);
    expect(() => search(fixture.repo, { query: '(unclosed', regex: true })).toThrow(/invalid regular expression/);
  });

  it('regex mode anchors at each line, finds words at a line\'s edge, and never matches across lines', () => {
    const paths = (query: string) => search(fixture.repo, { query, regex: true, k: 20 }).results.map((r) => `${r.path}:${r.snippet?.split(':')[0]}`);
    // Anchored patterns are tested line by line, also on a line inside a chunk.
    expect(paths('^\\s+return createHash')).toEqual(['src/util/crypto.ts:4']);
    expect(paths('digest\\("hex"\\);$')).toEqual(['src/util/crypto.ts:4']);
    expect(paths('\\Areturn|^import \\{ createHash')).toEqual(['src/util/crypto.ts:1']);
    // Unanchored ones are tried on the whole chunk first; a word boundary at a line's edge still counts.
    expect(paths('\\bhashToken\\(input')).toEqual(['src/util/crypto.ts:3']);
    expect(paths('crypto";\\B').sort()).toEqual(['src/auth/session.ts:1', 'src/util/crypto.ts:1']);
    // A pattern that would match only across a newline matches no line.
    expect(paths('hex"\\);\\s+\\}')).toEqual([]);
  });

  it('refuses an empty or punctuation-only query with a clear error', () => {
    expect(() => search(fixture.repo, { query: '   ' })).toThrow(/empty/);
    expect(() => search(fixture.repo, { query: '?!*&' })).toThrow(/no searchable words/);
  });
});

describe('locate', () => {
  it('puts definitions before references', () => {
    const e = locate(fixture.repo, { query: 'hashToken' });
    expect(e.results[0]).toMatchObject({ path: 'src/util/crypto.ts', kind: 'definition', start_line: 3 });
    const refs = e.results.filter((r) => r.kind === 'reference');
    expect(refs.map((r) => `${r.path}:${r.start_line}`)).toEqual(
      expect.arrayContaining(['src/auth/session.ts:1', 'src/auth/session.ts:8']),
    );
    // the definition line itself is not reported as a reference
    expect(refs.some((r) => r.path === 'src/util/crypto.ts' && r.start_line === 3)).toBe(false);
  });

  it("shows each reference's own line, also once serialised (graph references read theirs when first shown)", () => {
    const refs = locate(fixture.repo, { query: 'hashToken', kind: 'reference' }).results;
    expect(refs.some((r) => r.reasons.some((x) => x.startsWith('graph:')))).toBe(true);
    const lineOf = (r: { path: string; start_line: number }) => `${r.start_line}: ${SAMPLE_FILES[r.path]!.split('\n')[r.start_line - 1]!.trim()}`;
    for (const r of refs) expect(r.snippet).toBe(lineOf(r));
    const sent = JSON.parse(JSON.stringify(refs)) as typeof refs;
    expect(sent.map((r) => r.snippet)).toEqual(refs.map(lineOf));
  });

  it('filters by kind and qualified name', () => {
    expect(locate(fixture.repo, { query: 'getUserName', kind: 'definition' }).results).toHaveLength(1);
    expect(locate(fixture.repo, { query: 'SessionManager.getUserName', kind: 'definition' }).results[0]!.path).toBe('src/auth/session.ts');
    expect(locate(fixture.repo, { query: 'Other.getUserName', kind: 'definition' }).results).toHaveLength(0);
    expect(locate(fixture.repo, { query: 'getUserName', kind: 'reference' }).results.every((r) => r.kind === 'reference')).toBe(true);
  });

  describe('letter case', () => {
    const cased = useIndexedRepo({
      'src/shared/transport.ts': 'export interface Transport {\n  start(): Promise<void>;\n}\n',
      'examples/stdio.ts': 'export const transport = openStdio();\n',
      'examples/http.ts': 'export const transport = openHttp();\n',
      'src/store.ts': 'export class Store {\n  open(): void {}\n}\n',
      'src/flags.ts': 'export const OPEN = 1;\n',
      'src/my-store.ts': 'export class MyStore {\n  open(): void {}\n}\n',
    });
    const definitions = (query: string) => locate(cased.repo, { query, kind: 'definition' }).results.map((r) => r.path);

    it('a name finds the definitions spelled exactly so, and none of another case', () => {
      expect(definitions('Transport')).toEqual(['src/shared/transport.ts']);
      expect(definitions('transport').sort()).toEqual(['examples/http.ts', 'examples/stdio.ts']);
    });

    it('a name no definition spells so finds every case', () => {
      expect(definitions('TRANSPORT').sort()).toEqual(['examples/http.ts', 'examples/stdio.ts', 'src/shared/transport.ts']);
    });

    it('the spelling is judged under the qualifier: another OPEN elsewhere does not hide Store.open', () => {
      expect(definitions('Store.OPEN')).toEqual(['src/store.ts']);
      expect(definitions('OPEN')).toEqual(['src/flags.ts']);
    });

    it('a qualifier ends at a dot, in any case: Store.open is not MyStore.open', () => {
      expect(definitions('Store.open')).toEqual(['src/store.ts']);
      expect(definitions('store.open')).toEqual(['src/store.ts']);
      expect(definitions('MyStore.open')).toEqual(['src/my-store.ts']);
    });
  });
});

describe('outline, read, list-files, stats', () => {
  it('outlines a file with nesting', () => {
    const e = outline(fixture.repo, 'src/server/http_server.py');
    const byName = Object.fromEntries(e.symbols.map((s) => [s.name, s]));
    expect(byName.HTTPServer).toMatchObject({ kind: 'class', depth: 0, start_line: 4 });
    expect(byName.serve_forever).toMatchObject({ kind: 'method', depth: 1 });
    expect(byName.parse_request_line).toMatchObject({ kind: 'function', depth: 0, start_line: 16 });
  });

  it('reads a range widened to its enclosing definition', async () => {
    const e = await read(fixture.repo, { target: 'src/auth/session.ts:9' });
    expect(e.start_line).toBe(7);
    expect(e.end_line).toBe(11);
    expect(e.content.split('\n')[0]).toContain('createSession(userName: string)');
    const exact = await read(fixture.repo, { target: 'src/auth/session.ts:9', expand: false });
    expect([exact.start_line, exact.end_line]).toEqual([9, 9]);
  });

  it('reads a symbol by name and cuts to max_tokens', async () => {
    const e = await read(fixture.repo, { target: 'hashToken' });
    expect(e).toMatchObject({ path: 'src/util/crypto.ts', start_line: 3, end_line: 5 });
    const cut = await read(fixture.repo, { target: 'src/auth/session.ts', maxTokens: 20 });
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(20);
    expect(cut.next_start_line).toBe(cut.end_line + 1);
  });

  it('refuses paths that leave the repository', async () => {
    await expect(read(fixture.repo, { target: '../outside.txt' })).rejects.toThrow(/outside the repository/);
    await expect(read(fixture.repo, { target: '/etc/passwd' })).rejects.toThrow(/outside the repository/);
    fs.symlinkSync('/etc', path.join(fixture.root, 'escape'));
    try {
      await expect(read(fixture.repo, { target: 'escape/hostname' })).rejects.toMatchObject({ code: 'path_escape' });
    } finally {
      fs.unlinkSync(path.join(fixture.root, 'escape'));
    }
    expect(() => outline(fixture.repo, '../../x.ts')).toThrow(SightlineError);
  });

  it('lists files by glob and language, and reports stats', () => {
    expect(listFiles(fixture.repo, { glob: 'src/**/*.ts' }).files.map((f) => f.path)).toEqual(['src/auth/session.ts', 'src/util/crypto.ts']);
    expect(listFiles(fixture.repo, { language: 'python' }).files.map((f) => f.path)).toEqual(['src/server/http_server.py']);
    const s = stats(fixture.repo);
    expect(s.files).toBe(Object.keys(SAMPLE_FILES).length);
    expect(s.symbols).toBeGreaterThan(5);
    expect(s.languages.typescript).toBe(3);
    expect(s.index_path.startsWith(fixture.home)).toBe(true);
  });
});
