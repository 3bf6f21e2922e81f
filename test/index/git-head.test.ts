/**
 * HEAD read from git's files (index/git-head.ts) says what `git rev-parse`
 * says, in every layout it reads itself, and hands the rest back to git.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitHead } from '../../src/index/history.js';
import { readGitHead } from '../../src/index/git-head.js';

const made: string[] = [];
const tmp = (prefix = 'sightline-git-head-') => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

/** What git itself says: the prefix and HEAD, or null. */
function asGitSays(dir: string): { prefix: string; head: string } | null {
  try {
    return { prefix: git(dir, 'rev-parse', '--show-prefix'), head: git(dir, 'rev-parse', '--verify', '-q', 'HEAD') };
  } catch {
    return null;
  }
}

function repoWithCommits(): string {
  const root = tmp();
  git(root, 'init', '-q');
  fs.mkdirSync(path.join(root, 'pkg', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'pkg', 'sub', 'a.ts'), 'export const a = 1;\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'first');
  fs.writeFileSync(path.join(root, 'b.ts'), 'export const b = 2;\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'second');
  return root;
}

describe('readGitHead', () => {
  it('reads a branch HEAD at the top and below it, as git does', () => {
    const root = repoWithCommits();
    for (const dir of [root, path.join(root, 'pkg'), path.join(root, 'pkg', 'sub')]) {
      const read = readGitHead(dir, {});
      expect(read).not.toBe('ask-git');
      expect(read).toEqual(asGitSays(dir));
    }
    expect(readGitHead(path.join(root, 'pkg'), {})).toMatchObject({ prefix: 'pkg/' });
  });

  it('reads a detached HEAD, packed refs and a linked worktree', () => {
    const root = repoWithCommits();
    const first = git(root, 'rev-parse', 'HEAD~1');
    git(root, 'pack-refs', '--all');
    expect(fs.existsSync(path.join(root, '.git', 'refs', 'heads', 'main'))).toBe(false);
    expect(readGitHead(root, {})).toEqual(asGitSays(root));
    git(root, 'checkout', '-q', '--detach', first);
    expect(readGitHead(root, {})).toEqual({ prefix: '', head: first });
    const linked = path.join(tmp(), 'linked');
    git(root, 'worktree', 'add', '-q', '-b', 'side', linked, 'main');
    expect(fs.statSync(path.join(linked, '.git')).isFile()).toBe(true);
    expect(readGitHead(linked, {})).not.toBe('ask-git');
    expect(readGitHead(linked, {})).toEqual(asGitSays(linked));
  });

  it('says null outside a work tree and before the first commit, like git', () => {
    const plain = tmp();
    expect(readGitHead(plain, {})).toBeNull();
    const fresh = tmp();
    git(fresh, 'init', '-q');
    expect(readGitHead(fresh, {})).toBeNull();
    expect(asGitSays(fresh)).toBeNull();
  });

  it('leaves to git what it cannot read: GIT_DIR set, a ref it cannot find', async () => {
    const root = repoWithCommits();
    expect(readGitHead(root, { GIT_DIR: path.join(root, '.git') })).toBe('ask-git');
    const branch = path.join(root, '.git', 'refs', 'heads', 'main');
    const good = fs.readFileSync(branch, 'utf8');
    fs.writeFileSync(branch, ''); // a broken loose ref: git, not an older packed one, says what HEAD is
    expect(readGitHead(root, {})).toBe('ask-git');
    fs.writeFileSync(branch, good);
    fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/elsewhere\n');
    expect(readGitHead(root, {})).toBe('ask-git'); // branches exist, this one does not: git decides
    expect(await gitHead(root)).toEqual(asGitSays(root)); // and gitHead's fallback asks it
  });
});
