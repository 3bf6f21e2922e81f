/**
 * Git's rule that ignore rules never hide a tracked file (walk/tracked.ts):
 * the index read as git lists it, and the walker and the path filter keeping
 * what git tracks. And a directory named like a build output that is a source
 * package, not a project's output (walker.ts excludedByName).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathFilter, walk } from '../../src/walk/index.js';
import { readTracked } from '../../src/walk/tracked.js';
import { makeTree, tempDir } from './helpers.js';

const git = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });

const SPEC: Record<string, string> = {
  // `cobra` is meant for the built binary; git still tracks what was added under cobra/ (spf13/cobra).
  '.gitignore': 'cobra\n*.log\n',
  'cobra/tpl/main.go': 'package tpl\n',
  'cobra/scratch.go': 'package scratch\n',
  'fixtures/app.log': 'a tracked log\n',
  'fixtures/naïve.log': 'a tracked log, its name not ASCII\n',
  'debug.log': 'an untracked log\n',
  // A Java package named build (org.apache.commons.io.build) and a Go package named target, beside real build outputs:
  // at the root, and beside a project file (tracked, as axios commits its dist bundles).
  'src/org/io/build/Builder.java': 'class Builder {}\n',
  'pkg/target/t.go': 'package target\n',
  'build/out.js': 'compiled\n',
  'target/classes/App.class.txt': 'compiled\n',
  'packages/lib/package.json': '{}\n',
  'packages/lib/dist/lib.js': 'compiled\n',
  // Vendored dependencies stay out, tracked or not.
  'vendor/lib/x.go': 'package x\n',
  'main.go': 'package main\n',
};
const TRACKED = ['.gitignore', 'cobra/tpl/main.go', 'fixtures/app.log', 'fixtures/naïve.log', 'src/org/io/build/Builder.java', 'packages/lib/dist/lib.js', 'vendor/lib/x.go', 'main.go'];

function repo(): string {
  const root = makeTree(SPEC);
  git(root, 'init', '-q');
  git(root, 'config', 'core.excludesFile', '/dev/null');
  git(root, 'add', '-f', ...TRACKED);
  return root;
}

const listed = (root: string) => git(root, 'ls-files', '-z').split('\0').filter(Boolean);

describe("git's index", () => {
  it('holds every file and directory git lists, and nothing else, in versions 2, 3 and 4', () => {
    const root = repo();
    git(root, 'add', '-f', '-N', 'debug.log'); // intent to add: an entry with the extended flag (version 3)
    const paths = listed(root);
    const dirs = [...new Set(paths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))];
    for (const version of ['2', '3', '4']) {
      git(root, 'update-index', '--index-version', version);
      const tracked = readTracked(root)!;
      expect(paths.filter((p) => !tracked.has(p)), `version ${version}`).toEqual([]);
      expect(dirs.filter((d) => !tracked.holdsUnder(d)), `version ${version}`).toEqual([]);
      // Neither a file git does not track, nor a prefix of a tracked name that is no directory of one.
      expect(['cobra/scratch.go', 'cobra/tpl', 'fixtures/app', 'src/org/io/build/Builder'].filter((p) => tracked.has(p))).toEqual([]);
      expect(['cobra/tp', 'fixtures/app.log', 'main'].filter((d) => tracked.holdsUnder(d))).toEqual([]);
    }
  });

  it('is found through a worktree\'s .git file, and read again only when git rewrites it', () => {
    const root = repo();
    git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
    const other = path.join(tempDir(), 'wt');
    git(root, 'worktree', 'add', '-q', other);
    const first = readTracked(other)!;
    expect(first.has('cobra/tpl/main.go')).toBe(true);
    expect(first.holdsUnder('src/org/io')).toBe(true);
    expect(first.has('cobra/scratch.go')).toBe(false);
    expect(readTracked(other)).toBe(first); // unchanged index: the same read
    fs.writeFileSync(path.join(other, 'new.go'), 'package n\n');
    git(other, 'add', 'new.go');
    expect(readTracked(other)!.has('new.go')).toBe(true);
  });

  it("is found from a root below the work tree's top, and left to git where its variables move it", () => {
    const root = repo();
    const below = readTracked(path.join(root, 'cobra'))!;
    expect(readTracked(path.join(root, 'cobra'))).toBe(below); // unchanged index: the same view of the same read
    expect(below.has('tpl/main.go')).toBe(true);
    expect(below.holdsUnder('tpl')).toBe(true);
    expect(below.has('scratch.go')).toBe(false);
    expect(readTracked(root, { GIT_INDEX_FILE: path.join(root, '.git', 'index') })).toBeNull();
    expect(readTracked(root, { GIT_DIR: path.join(root, '.git') })).toBeNull();
  });

  it('is not read where it is missing, damaged or split', () => {
    expect(readTracked(makeTree({ 'a.go': 'package a\n' }))).toBeNull(); // no .git
    const damaged = repo();
    fs.writeFileSync(path.join(damaged, '.git', 'index'), 'DIRC\0\0\0\u0002\0\0\u0000\u0009short');
    expect(readTracked(damaged)).toBeNull();
    const split = repo();
    git(split, 'update-index', '--split-index');
    expect(readTracked(split)).toBeNull();
  });
});

describe('the walker and what git tracks', () => {
  it('keeps tracked files an ignore rule would leave out, and nothing else of theirs; leaves out only a project\'s build output', async () => {
    const root = repo();
    const { files, skipped } = await walk({ root });
    expect(files.map((f) => f.path)).toEqual([
      '.gitignore',
      'cobra/tpl/main.go',
      'fixtures/app.log',
      'fixtures/naïve.log',
      'main.go',
      'packages/lib/package.json',
      'pkg/target/t.go',
      'src/org/io/build/Builder.java',
    ]);
    const why = Object.fromEntries(skipped.map((s) => [s.path, `${s.reason} ${s.rule}`]));
    expect(why).toEqual({
      '.git/': 'default_exclude .git',
      'build/': 'default_exclude build',
      'cobra/scratch.go': 'gitignore .gitignore: cobra',
      'debug.log': 'gitignore .gitignore: *.log',
      'packages/lib/dist/': 'default_exclude dist',
      'target/': 'default_exclude target',
      'vendor/': 'default_exclude vendor',
    });
  });

  it('goes by the ignore rules alone where git tracks nothing, or the index cannot be read', async () => {
    const root = repo();
    fs.writeFileSync(path.join(root, '.git', 'index'), 'not an index');
    const { files } = await walk({ root });
    expect(files.map((f) => f.path)).toEqual(['.gitignore', 'main.go', 'packages/lib/package.json', 'pkg/target/t.go', 'src/org/io/build/Builder.java']);
  });

  it('judges a single path as the walk does', async () => {
    const root = repo();
    const filter = createPathFilter({ root });
    const verdicts = await Promise.all(
      ['cobra/tpl/main.go', 'cobra/scratch.go', 'fixtures/app.log', 'debug.log', 'src/org/io/build/Builder.java', 'pkg/target/t.go', 'build/out.js', 'packages/lib/dist/lib.js', 'vendor/lib/x.go'].map(
        (p) => filter.check(p, false),
      ),
    );
    expect(verdicts).toEqual([null, 'gitignore', null, 'gitignore', null, null, 'default_exclude', 'default_exclude', 'default_exclude']);
    expect(await filter.check('cobra', true)).toBeNull(); // walked, for what git tracks in it
    expect(await filter.check('build', true)).toBe('default_exclude');
  });
});
