/** Caller-supplied paths: resolved, and refused if they leave the repository. */
import { checkPath, SightlineError } from '../errors/index.js';
import { PathEscapeError, resolveInside } from '../walk/index.js';
import type { Repo } from './repo.js';

export function repoPath(repo: Repo, userPath: string): string {
  if (!userPath?.trim()) throw new SightlineError('usage', 'a path is required');
  checkPath(userPath);
  try {
    return resolveInside(repo.root, userPath.trim());
  } catch (err) {
    if (err instanceof PathEscapeError) {
      throw new SightlineError('path_escape', `path ${userPath} is outside the repository; give a path relative to ${repo.root}`);
    }
    throw err;
  }
}
