/**
 * What an add request names, checked before anything is registered: a path
 * confined to the workspace root (`..`, absolute paths elsewhere and symlinks
 * out are refused), or a git source with its ref and refresh interval, never
 * both; and the id, from the request or the path's (or URL's) last segment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPath, SightlineError, usageError } from '../errors/index.js';
import { PathEscapeError, resolveInside } from '../walk/index.js';
import { checkGitUrl, checkRef, isRemoteUrl, parseInterval } from './git.js';
import type { RepoSource, WalkFilters } from './registry.js';

export interface AddRequest {
  /** A directory under the workspace root. */
  path?: string;
  /** A git source: an https, ssh or git URL, or a git repository under the workspace root. */
  git?: string;
  /** git only: the branch, tag or commit to index (default HEAD, the remote's default branch). */
  ref?: string;
  /** git only: how often to fetch and index a new commit, e.g. 5m (default). */
  refresh?: string;
  id?: string;
  include?: string[];
  exclude?: string[];
  gitignore?: boolean;
  max_file_bytes?: number;
}

export const DEFAULT_REFRESH = '5m';
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkId(id: string): string {
  if (!ID.test(id)) throw usageError(`repository id ${JSON.stringify(id)} must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  return id;
}

/** A directory inside the root, as its real path. */
export function directoryInside(root: string, userPath: string, what: string): string {
  checkPath(userPath);
  let rel: string;
  try {
    rel = resolveInside(root, userPath);
  } catch (err) {
    if (err instanceof PathEscapeError) throw new SightlineError('path_escape', `${what} ${JSON.stringify(userPath)} is outside the workspace ${root}; give a directory under it`);
    throw err;
  }
  const abs = path.join(root, rel);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new SightlineError('not_found', `${what} ${JSON.stringify(userPath)} does not exist under the workspace ${root}`);
  }
  if (!stat.isDirectory()) throw usageError(`${what} ${JSON.stringify(userPath)} is not a directory`);
  return fs.realpathSync(abs);
}

export interface CheckedAdd {
  id: string;
  source: RepoSource;
  filters: WalkFilters;
}

export function checkAdd(root: string, request: AddRequest): CheckedAdd {
  if ((request.path === undefined) === (request.git === undefined)) {
    throw usageError('add_repo takes either path (a directory under the workspace) or git (a URL, or a git repository under the workspace): a mounted path and a git source are mutually exclusive');
  }
  const filters: WalkFilters = { include: request.include, exclude: request.exclude, gitignore: request.gitignore, maxFileBytes: request.max_file_bytes };
  if (request.path !== undefined) {
    if (request.ref !== undefined || request.refresh !== undefined) throw usageError('ref and refresh go with a git source; a mounted path is indexed as it is on disk');
    const dir = directoryInside(root, request.path, 'path');
    return { id: checkId(request.id ?? defaultId(path.basename(dir))), source: { kind: 'path', path: dir }, filters };
  }
  const git = request.git!;
  if (git.startsWith('-')) throw usageError(`git source ${JSON.stringify(git)} must not start with "-"`);
  let url: string;
  if (isRemoteUrl(git)) {
    checkGitUrl(git);
    url = git;
  } else {
    url = directoryInside(root, git, 'git');
  }
  const ref = checkRef(request.ref ?? 'HEAD');
  const refreshMs = parseInterval(request.refresh ?? DEFAULT_REFRESH);
  const last = url.replace(/\/+$/, '').split(/[/:]/).pop()!.replace(/\.git$/, '');
  return { id: checkId(request.id ?? defaultId(last)), source: { kind: 'git', url, ref, refreshMs }, filters };
}

/** The last segment as an id: characters ids cannot hold become "_". */
export function defaultId(segment: string): string {
  return segment.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '') || 'repo';
}

/** Whether two sources name the same thing (an idempotent re-add). */
export function sameSource(a: RepoSource, b: RepoSource): boolean {
  if (a.kind === 'path' && b.kind === 'path') return a.path === b.path;
  if (a.kind === 'git' && b.kind === 'git') return a.url === b.url && a.ref === b.ref;
  return false;
}

export function describeSource(source: RepoSource): string {
  return source.kind === 'path' ? `the path ${source.path}` : `the git source ${source.url} (${source.ref})`;
}
