/** Confining caller-supplied paths to the repository root. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export class PathEscapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathEscapeError';
  }
}

/** The longest caller path resolved (Linux's PATH_MAX): resolving walks up one name at a time, so length bounds the work. */
export const MAX_PATH_CHARS = 4096;

/** Convert a platform-relative path to POSIX separators. */
export function toPosix(rel: string): string {
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** True when `child` equals `parent` or lies below it (both absolute, normalised). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const p = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(p);
}

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/**
 * realpath of `abs`, or — when it (or a tail of it) does not exist — the
 * realpath of its nearest existing ancestor joined with the missing tail.
 * A dangling symlink on the way is followed to where it points, so a link to a
 * not-yet-existing file outside the root is still caught.
 */
function realpathOfExistingPrefix(abs: string): string {
  const missing: string[] = [];
  let cur = abs;
  let hops = 0;
  for (;;) {
    try {
      const real = fs.realpathSync.native(cur);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch (err) {
      const code = errCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      let isLink = false;
      try {
        isLink = fs.lstatSync(cur).isSymbolicLink();
      } catch {
        isLink = false;
      }
      if (isLink) {
        if (++hops > 40) throw new Error(`too many levels of symbolic links: ${abs}`);
        cur = path.resolve(path.dirname(cur), fs.readlinkSync(cur));
        continue;
      }
      const parent = path.dirname(cur);
      if (parent === cur) throw err;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/**
 * Resolve `userPath` (relative to `root`, or absolute) and return it as a
 * repo-relative POSIX path ('' for the root itself). Throws PathEscapeError if
 * the path leaves the root lexically ('..', an absolute path elsewhere) or
 * through a symlink whose real path lies outside the root. Paths that do not
 * exist yet are allowed as long as their nearest existing ancestor is inside.
 */
export function resolveInside(root: string, userPath: string): string {
  if (typeof userPath !== 'string' || userPath.includes('\0')) {
    throw new PathEscapeError(`invalid path: ${JSON.stringify(userPath)}`);
  }
  if (userPath.length > MAX_PATH_CHARS) throw new PathEscapeError(`path is ${userPath.length} characters, over ${MAX_PATH_CHARS}`);
  const absRoot = path.resolve(root);
  const abs = path.resolve(absRoot, userPath);
  const rel = path.relative(absRoot, abs);
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
    throw new PathEscapeError(`path escapes the repository root: ${userPath}`);
  }
  let realRoot: string;
  let real: string;
  try {
    realRoot = fs.realpathSync.native(absRoot);
    real = realpathOfExistingPrefix(abs);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new PathEscapeError(`cannot resolve ${userPath} inside the repository root: ${msg}`);
  }
  if (!isWithin(realRoot, real)) {
    throw new PathEscapeError(`path resolves outside the repository root through a symlink: ${userPath}`);
  }
  return toPosix(rel);
}
