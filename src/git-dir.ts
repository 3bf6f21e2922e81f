/**
 * Where git keeps a directory's repository, found from the files as git finds
 * it: the nearest `.git` at or above the directory, a directory or a file that
 * names one elsewhere (a linked worktree's, a submodule's). Read without
 * running git by the index pass (index/git-head.ts) and the walk
 * (walk/tracked.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Variables that move git's directories elsewhere: then only git knows. */
export const GIT_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'];

/** A file's text, or null when it cannot be read. */
export function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The nearest `.git` at or above `dir`: its work tree's top and its git directory; null outside git; 'ask-git' for a `.git` file that names none. */
export function findGitDir(dir: string): { top: string; gitDir: string } | null | 'ask-git' {
  for (let at = dir; ; at = path.dirname(at)) {
    const dotGit = path.join(at, '.git');
    const stat = fs.statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { top: at, gitDir: dotGit };
    if (stat?.isFile()) {
      const named = /^gitdir: (.+)$/m.exec(readOrNull(dotGit) ?? '')?.[1]?.trim();
      return named ? { top: at, gitDir: path.resolve(at, named) } : 'ask-git';
    }
    if (path.dirname(at) === at) return null;
  }
}
