/** Caller-supplied paths: resolved, and refused if they leave the repository. */
import { checkPath, SightlineError } from '../errors/index.js';
import { PathEscapeError, readSourceInside, resolveInside, type ReadOutcome } from '../walk/index.js';
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

/**
 * The text of a repo-relative file named by a caller, opened so that what is
 * read is what `repoPath` admitted (see `openInside`): a file swapped for a
 * symlink out of the root in between is refused, never followed.
 */
export function readRepoSource(repo: Repo, rel: string): ReadOutcome {
  try {
    return readSourceInside(repo.root, rel);
  } catch (err) {
    if (err instanceof PathEscapeError) {
      throw new SightlineError('path_escape', `path ${rel} is outside the repository (${err.message}); give a path relative to ${repo.root}`);
    }
    throw err;
  }
}
