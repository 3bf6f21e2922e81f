import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { decodeSource, digest, readSource } from '../../src/walk/index.js';
import { makeTree } from './helpers.js';

describe('decodeSource: binary', () => {
  const isBinary = (b: Uint8Array) => decodeSource(b).binary;
  it('detects a NUL byte within the first 8,000 bytes only', () => {
    const at = (i: number, len = 9000) => {
      const b = Buffer.alloc(len, 0x61);
      b[i] = 0;
      return b;
    };
    expect(isBinary(at(0))).toBe(true);
    expect(isBinary(at(7999))).toBe(true);
    expect(isBinary(at(8000))).toBe(false);
    expect(isBinary(new Uint8Array(0))).toBe(false);
    expect(isBinary(Buffer.from('plain text\n\tünïcødé'))).toBe(false);
    expect(isBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe(true);
  });
});

describe('digest', () => {
  it('is 16 lowercase hex chars, stable, and matches the XXH3-64 reference value', () => {
    const d = digest('hello world');
    expect(d).toMatch(/^[0-9a-f]{16}$/);
    expect(digest('hello world')).toBe(d);
    expect(digest('')).toBe('2d06800538d394c2'); // XXH3_64bits("") reference vector
  });

  it('hashes a string as its UTF-8 bytes', () => {
    expect(digest('héllo → 世界')).toBe(digest(Buffer.from('héllo → 世界', 'utf8')));
    expect(digest(new Uint8Array(Buffer.from('abc')))).toBe(digest('abc'));
  });

  it('changes when the content changes', () => {
    const a = Buffer.from('export const x = 1;\n');
    const b = Buffer.from(a);
    b[17] = 0x32; // 1 -> 2
    expect(digest(a)).not.toBe(digest(b));
    expect(digest('a')).not.toBe(digest('a\n'));
  });

  it('pads short hashes to 16 chars', () => {
    // Any of a few hundred inputs is bound to have a leading zero nibble; all must be 16 chars.
    for (let i = 0; i < 300; i++) expect(digest(String(i))).toHaveLength(16);
  });
});

describe('readSource', () => {
  it('reads valid UTF-8 text with its byte count and raw-byte digest', async () => {
    const text = 'const s = "héllo 世界";\n';
    const root = makeTree({ 'a.ts': text });
    const r = await readSource(path.join(root, 'a.ts'));
    expect(r).toEqual({ ok: true, text, bytes: Buffer.byteLength(text), digest: digest(Buffer.from(text)), encoding: 'utf-8', invalidUtf8: false });
  });

  it('replaces a few invalid UTF-8 sequences in UTF-8 text and flags them, hashing the raw bytes', async () => {
    const raw = Buffer.concat([Buffer.from('héllo wörld ünïcødé '), Buffer.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0x0a])]);
    const root = makeTree({ 'bad.txt': raw });
    const r = await readSource(path.join(root, 'bad.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.invalidUtf8).toBe(true);
    expect(r.encoding).toBe('utf-8');
    expect(r.text).toBe('héllo wörld ünïcødé a\uFFFDb\uFFFD(\n');
    expect(r.bytes).toBe(raw.length);
    expect(r.digest).toBe(digest(raw));
    expect(r.digest).not.toBe(digest(r.text));
  });

  it('drops a UTF-8 BOM from the text but not from bytes/digest', async () => {
    const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x = 1\n')]);
    const root = makeTree({ 'bom.py': raw });
    const r = await readSource(path.join(root, 'bom.py'));
    expect(r).toEqual({ ok: true, text: 'x = 1\n', bytes: 9, digest: digest(raw), encoding: 'utf-8', invalidUtf8: false });
  });

  it('reports binary files', async () => {
    const root = makeTree({ 'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    const r = await readSource(path.join(root, 'img.png'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe('binary');
  });

  it('reports a missing file as vanished', async () => {
    const root = makeTree({});
    const r = await readSource(path.join(root, 'nope.ts'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe('vanished');
      expect(r.detail).toContain('nope.ts');
    }
    const r2 = await readSource(path.join(root, 'no-dir', 'nope.ts'));
    expect(r2.ok === false && r2.reason).toBe('vanished');
  });

  it('reports a directory as unreadable', async () => {
    const root = makeTree({ 'dir/a.ts': 'x' });
    const r = await readSource(path.join(root, 'dir'));
    expect(r.ok === false && r.reason).toBe('unreadable');
  });

  // A chmod 000 file is covered end to end in test/cli/cli.test.ts (run as an unprivileged user when root).

  it('reports a FIFO as unreadable without blocking', async (ctx) => {
    const root = makeTree({});
    const p = path.join(root, 'pipe');
    try {
      execFileSync('mkfifo', [p]);
    } catch {
      ctx.skip('mkfifo is not available on this system');
    }
    const r = await readSource(p);
    expect(r.ok === false && r.reason).toBe('unreadable');
  });

  it('applies the size cap (default 1 MiB) before reading', async () => {
    const root = makeTree({ 'small.txt': '0123456789', 'big.txt': Buffer.alloc(1_048_577, 0x61), 'max.txt': Buffer.alloc(1_048_576, 0x61) });
    const small = await readSource(path.join(root, 'small.txt'), 9);
    expect(small.ok === false && small.reason).toBe('too_large');
    expect((await readSource(path.join(root, 'small.txt'), 10)).ok).toBe(true);
    const big = await readSource(path.join(root, 'big.txt'));
    expect(big.ok === false && big.reason).toBe('too_large');
    const max = await readSource(path.join(root, 'max.txt'));
    expect(max.ok && max.bytes).toBe(1_048_576);
  });

  it('reads an empty file', async () => {
    const root = makeTree({ 'empty.ts': '' });
    expect(await readSource(path.join(root, 'empty.ts'))).toEqual({ ok: true, text: '', bytes: 0, digest: digest(''), encoding: 'utf-8', invalidUtf8: false });
  });
});
