import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathEscapeError, resolveInside } from '../../src/walk/index.js';
import { makeTree, tempDir } from './helpers.js';

function expectEscape(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(PathEscapeError);
  expect(caught).toBeInstanceOf(Error);
  expect((caught as Error).name).toBe('PathEscapeError');
}

describe('resolveInside', () => {
  it('returns the repo-relative POSIX path for paths inside the root', () => {
    const root = makeTree({ 'src/a.ts': 'x' });
    expect(resolveInside(root, 'src/a.ts')).toBe('src/a.ts');
    expect(resolveInside(root, './src/../src/a.ts')).toBe('src/a.ts');
    expect(resolveInside(root, path.join(root, 'src', 'a.ts'))).toBe('src/a.ts');
    expect(resolveInside(root, 'src/new-file.ts')).toBe('src/new-file.ts'); // need not exist yet
    expect(resolveInside(root, '.')).toBe('');
    expect(resolveInside(root, root)).toBe('');
  });

  it("rejects '..' escapes", () => {
    const root = makeTree({ 'src/a.ts': 'x' });
    expectEscape(() => resolveInside(root, '..'));
    expectEscape(() => resolveInside(root, '../x'));
    expectEscape(() => resolveInside(root, 'src/../../x'));
    // A sibling whose name shares the root as a prefix is still outside.
    expectEscape(() => resolveInside(root, `../${path.basename(root)}-other/file`));
  });

  it('rejects absolute paths outside the root', () => {
    const root = makeTree({ 'a.ts': 'x' });
    expectEscape(() => resolveInside(root, '/etc/passwd'));
    expectEscape(() => resolveInside(root, path.dirname(root)));
    expectEscape(() => resolveInside(root, root + '-sibling/a.ts'));
  });

  it('rejects paths that leave the root through a symlink', () => {
    const outside = makeTree({ 'secret.txt': 's', 'dir/f.txt': 'f' });
    const root = makeTree({ 'a.ts': 'x' });
    fs.symlinkSync(path.join(outside, 'dir'), path.join(root, 'linkdir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'));
    expectEscape(() => resolveInside(root, 'linkdir'));
    expectEscape(() => resolveInside(root, 'linkdir/f.txt'));
    expectEscape(() => resolveInside(root, 'linkdir/new.txt'));
    expectEscape(() => resolveInside(root, 'secret.txt'));
    expectEscape(() => resolveInside(root, 'dangling.txt'));
  });

  it('accepts symlinks that stay inside the root and returns the lexical path', () => {
    const root = makeTree({ 'real/a.ts': 'x' });
    fs.symlinkSync('real', path.join(root, 'alias'));
    expect(resolveInside(root, 'alias/a.ts')).toBe('alias/a.ts');
  });

  it('works when the root itself is reached through a symlink', () => {
    const real = makeTree({ 'a.ts': 'x' });
    const holder = tempDir();
    const rootLink = path.join(holder, 'repo');
    fs.symlinkSync(real, rootLink);
    expect(resolveInside(rootLink, 'a.ts')).toBe('a.ts');
    expectEscape(() => resolveInside(rootLink, '../x'));
  });
});
