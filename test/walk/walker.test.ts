import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXCLUDES, walk, type WalkResult } from '../../src/walk/index.js';
import { makeTree, tempDir, writeTree } from './helpers.js';

const paths = (r: { files: { path: string }[] }) => r.files.map((f) => f.path);
const skipOf = (r: WalkResult, p: string) => r.skipped.find((s) => s.path === p);

describe('default excludes', () => {
  it('lists the documented directory names', () => {
    expect([...DEFAULT_EXCLUDES]).toEqual(['.git', 'node_modules', 'dist', 'build', 'target', '.venv', 'vendor', '__pycache__']);
  });

  it('skips excluded directory names at any depth and records each once', async () => {
    const root = makeTree({
      'src/a.ts': 'x',
      '.git/HEAD': 'ref',
      'node_modules/p/index.js': 'x',
      'src/vendor/lib.go': 'x',
      'pkg/py/__pycache__/m.pyc': 'x',
      'dist/out.js': 'x',
      'vendored.txt': 'not a dir',
      'build': 'a file named build is kept',
    });
    const r = await walk({ root });
    expect(paths(r)).toEqual(['build', 'src/a.ts', 'vendored.txt']);
    expect(r.skipped).toEqual([
      { path: '.git/', reason: 'default_exclude', rule: '.git' },
      { path: 'dist/', reason: 'default_exclude', rule: 'dist' },
      { path: 'node_modules/', reason: 'default_exclude', rule: 'node_modules' },
      { path: 'pkg/py/__pycache__/', reason: 'default_exclude', rule: '__pycache__' },
      { path: 'src/vendor/', reason: 'default_exclude', rule: 'vendor' },
    ]);
  });

  it('uses excludeDirs instead of the defaults when given', async () => {
    const root = makeTree({ 'node_modules/p/i.js': 'x', 'fixtures/f.txt': 'x', 'a.ts': 'x' });
    expect(paths(await walk({ root, excludeDirs: [] }))).toEqual(['a.ts', 'fixtures/f.txt', 'node_modules/p/i.js']);
    const r = await walk({ root, excludeDirs: ['fixtures'] });
    expect(paths(r)).toEqual(['a.ts', 'node_modules/p/i.js']);
    expect(skipOf(r, 'fixtures/')?.reason).toBe('default_exclude');
  });
});

describe('include / exclude globs', () => {
  const spec = {
    '.gitignore': 'src/gen.ts\n',
    'src/a.ts': 'x',
    'src/a.test.ts': 'x',
    'src/gen.ts': 'x',
    'src/deep/b.ts': 'x',
    'lib/c.ts': 'x',
    'README.md': 'x',
    'docs/guide.md': 'x',
    '.github/ci.md': 'x',
  };

  it('a file must satisfy include, exclude and the ignore rules', async () => {
    const root = makeTree(spec);
    const r = await walk({ root, include: ['src/**', '*.md'], exclude: ['**/*.test.ts'] });
    expect(paths(r)).toEqual(['.github/ci.md', 'README.md', 'docs/guide.md', 'src/a.ts', 'src/deep/b.ts']);
    expect(skipOf(r, 'src/gen.ts')).toEqual({ path: 'src/gen.ts', reason: 'gitignore', rule: '.gitignore: src/gen.ts' });
    expect(skipOf(r, 'src/a.test.ts')).toEqual({ path: 'src/a.test.ts', reason: 'glob_exclude', rule: '**/*.test.ts' });
    expect(skipOf(r, 'lib/c.ts')).toEqual({ path: 'lib/c.ts', reason: 'glob_include', rule: 'include: src/**, *.md' });
  });

  it('exclude alone removes matching files; empty include means everything', async () => {
    const root = makeTree(spec);
    const r = await walk({ root, include: [], exclude: ['docs/**', '*.md'] });
    expect(paths(r)).toEqual(['.gitignore', 'lib/c.ts', 'src/a.test.ts', 'src/a.ts', 'src/deep/b.ts']);
    expect(skipOf(r, 'docs/guide.md')?.rule).toBe('docs/**');
    expect(skipOf(r, 'README.md')?.rule).toBe('*.md');
  });

  it('matches globs with slashes against the full repo-relative path', async () => {
    const root = makeTree(spec);
    const r = await walk({ root, include: ['src/*.ts'] });
    expect(paths(r)).toEqual(['src/a.test.ts', 'src/a.ts']);
  });
});

describe('size cap and file metadata', () => {
  it('skips files larger than maxFileBytes', async () => {
    const root = makeTree({ 'ten.txt': '0123456789', 'eleven.txt': '0123456789A' });
    const r = await walk({ root, maxFileBytes: 10 });
    expect(paths(r)).toEqual(['ten.txt']);
    expect(skipOf(r, 'eleven.txt')).toEqual({ path: 'eleven.txt', reason: 'too_large', rule: 'maxFileBytes: 10' });
  });

  it('defaults to a 1 MiB cap', async () => {
    const root = makeTree({ 'exact.txt': Buffer.alloc(1_048_576, 97), 'over.txt': Buffer.alloc(1_048_577, 97) });
    const r = await walk({ root });
    expect(paths(r)).toEqual(['exact.txt']);
    expect(skipOf(r, 'over.txt')?.reason).toBe('too_large');
  });

  it('reports size, abs and mtime, sorted by path', async () => {
    const root = makeTree({ 'b.txt': 'hello', 'a/z.txt': '', 'A.txt': 'xyz', 'a.txt': '1' });
    const r = await walk({ root });
    expect(paths(r)).toEqual(['A.txt', 'a.txt', 'a/z.txt', 'b.txt']);
    const b = r.files.find((f) => f.path === 'b.txt')!;
    expect(b.size).toBe(5);
    expect(b.abs).toBe(path.join(root, 'b.txt'));
    expect(b.mtimeMs).toBe(fs.statSync(path.join(root, 'b.txt')).mtimeMs);
    expect(r.files.find((f) => f.path === 'a/z.txt')!.abs).toBe(path.join(root, 'a', 'z.txt'));
  });
});

describe('symlinks', () => {
  it('follows links to files inside the root, but not links to directories (their files are walked once, where they are)', async () => {
    const root = makeTree({ 'real/a.ts': 'abc', 'real/sub/b.ts': 'x', 'target.txt': 'hello' });
    fs.symlinkSync('target.txt', path.join(root, 'link.txt'));
    fs.symlinkSync('real', path.join(root, 'linkdir'));
    const r = await walk({ root });
    expect(paths(r)).toEqual(['link.txt', 'real/a.ts', 'real/sub/b.ts', 'target.txt']);
    const link = r.files.find((f) => f.path === 'link.txt')!;
    expect(link.size).toBe(5);
    expect(link.abs).toBe(path.join(root, 'link.txt'));
    expect(r.skipped).toEqual([{ path: 'linkdir/', reason: 'symlink_dir', rule: 'links to real/' }]);
  });

  it('skips links that point outside the root', async () => {
    const outside = makeTree({ 'secret.txt': 'top secret', 'dir/s.txt': 'x' });
    const root = makeTree({ 'a.ts': 'x' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'out.txt'));
    fs.symlinkSync(path.join(outside, 'dir'), path.join(root, 'outdir'));
    fs.symlinkSync('../' + path.basename(outside), path.join(root, 'rel-out'));
    const r = await walk({ root });
    expect(paths(r)).toEqual(['a.ts']);
    expect(skipOf(r, 'out.txt')?.reason).toBe('symlink_escape');
    expect(skipOf(r, 'outdir/')?.reason).toBe('symlink_escape');
    expect(skipOf(r, 'rel-out/')?.reason).toBe('symlink_escape');
  });

  it('terminates on symlink loops', async () => {
    const root = makeTree({ 'a/file.ts': 'x', 'b/c/f.ts': 'y' });
    fs.symlinkSync('..', path.join(root, 'a', 'up')); // a/up -> root
    fs.symlinkSync('..', path.join(root, 'b', 'c', 'back')); // b/c/back -> b
    fs.symlinkSync('self', path.join(root, 'self')); // self -> self (ELOOP)
    const r = await walk({ root });
    expect(paths(r)).toEqual(['a/file.ts', 'b/c/f.ts']);
    expect(skipOf(r, 'a/up/')).toEqual({ path: 'a/up/', reason: 'symlink_dir', rule: 'links to ./' });
    expect(skipOf(r, 'b/c/back/')?.rule).toBe('links to b/');
    expect(skipOf(r, 'self')?.reason).toBe('unreadable');
  });

  it('skips dangling links', async () => {
    const root = makeTree({ 'a.ts': 'x' });
    fs.symlinkSync('missing.ts', path.join(root, 'dangling.ts'));
    const r = await walk({ root });
    expect(paths(r)).toEqual(['a.ts']);
    expect(skipOf(r, 'dangling.ts')).toEqual({ path: 'dangling.ts', reason: 'unreadable', rule: 'dangling symlink' });
  });

  it('applies ignore rules and excludes to the link path', async () => {
    const root = makeTree({ '.gitignore': 'ignored-link\n', 'real/a.ts': 'x' });
    fs.symlinkSync('real', path.join(root, 'ignored-link'));
    fs.symlinkSync('real', path.join(root, 'vendor'));
    const r = await walk({ root });
    expect(paths(r)).toEqual(['.gitignore', 'real/a.ts']);
    expect(skipOf(r, 'ignored-link/')?.reason).toBe('gitignore');
    expect(skipOf(r, 'vendor/')?.reason).toBe('default_exclude');
  });
});

describe('special files', () => {
  it('skips FIFOs as not_regular', async (ctx) => {
    const root = makeTree({ 'a.ts': 'x' });
    try {
      execFileSync('mkfifo', [path.join(root, 'pipe')]);
    } catch {
      ctx.skip('mkfifo is not available on this system');
    }
    const r = await walk({ root });
    expect(paths(r)).toEqual(['a.ts']);
    expect(skipOf(r, 'pipe')).toEqual({ path: 'pipe', reason: 'not_regular', rule: 'fifo' });
  });

  it('reports an unreadable root as an error (the caller validates it)', async () => {
    const root = tempDir();
    await expect(walk({ root: path.join(root, 'missing') })).rejects.toThrow();
  });
});

describe('performance', () => {
  function bigTree(nFiles: number, perDir: number): string {
    const root = tempDir();
    const spec: Record<string, string> = { '.gitignore': '*.log\nbuild-out/\n' };
    for (let i = 0; i < nFiles; i++) {
      const d = Math.floor(i / perDir);
      spec[`pkg${d % 10}/mod${d}/file${i}.ts`] = `export const v${i} = ${i};\n`;
    }
    for (let d = 0; d < 10; d++) spec[`pkg${d}/.gitignore`] = '*.tmp\n!keep.tmp\n';
    writeTree(root, spec);
    return root;
  }

  // Timing belongs in bench/ (npm run bench:index); here only completeness at scale is asserted.
  it('walks a 20,000-file tree completely, honouring nested rules', async () => {
    const root = bigTree(20000, 50);
    const r = await walk({ root });
    expect(r.files).toHaveLength(20000 + 11);
    expect(r.files.every((f, i) => i === 0 || r.files[i - 1]!.path < f.path)).toBe(true);
  }, 120_000);
});
