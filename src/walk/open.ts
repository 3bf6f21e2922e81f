/**
 * Opening a caller-named file so that what is read is what was checked. A
 * check and a later open by name race: another process can swap the file for a
 * symlink to outside the root in between. So the real path is opened with
 * O_NOFOLLOW, then the open descriptor is verified: the file now at that real
 * path (still inside the root, still symlink-free) is the very file opened.
 */
import * as fs from 'node:fs';
import { constants as fsc } from 'node:fs';
import * as path from 'node:path';
import { isWithin, PathEscapeError } from './paths.js';

// O_NONBLOCK keeps open() from hanging on a FIFO; O_NOFOLLOW refuses a last component swapped for a symlink.
const FLAGS = fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0) | (fsc.O_NOFOLLOW ?? 0);

/** The real path of `root`/`rel`; refused when it lies outside the root's real path. Missing files throw ENOENT. */
function realInside(root: string, rel: string): string {
  const real = fs.realpathSync.native(path.resolve(root, rel));
  if (!isWithin(fs.realpathSync.native(root), real)) {
    throw new PathEscapeError(`path resolves outside the repository root through a symlink: ${rel}`);
  }
  return real;
}

/** Throws unless `real` still resolves to itself inside the root and names the opened file (dev and inode). */
function verify(root: string, rel: string, real: string, opened: fs.BigIntStats): void {
  let now: fs.BigIntStats;
  try {
    if (realInside(root, real) !== real) throw new Error('moved');
    now = fs.statSync(real, { bigint: true });
  } catch (err) {
    if (err instanceof PathEscapeError) throw err;
    throw new PathEscapeError(`${rel} changed while it was being opened`);
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino) throw new PathEscapeError(`${rel} changed while it was being opened`);
}

function refuseLoop(err: unknown, rel: string): never {
  // ELOOP: the real path's last component became a symlink after it was resolved.
  if ((err as NodeJS.ErrnoException)?.code === 'ELOOP') throw new PathEscapeError(`${rel} changed while it was being opened`);
  throw err;
}

/**
 * Opens `rel` (relative to `root`; in-root symlinks are resolved first) for
 * reading; returns the descriptor, which the caller closes. Throws
 * PathEscapeError when it is, or turns out to be, outside the root; other
 * failures (ENOENT, EACCES …) propagate as they are.
 */
export function openInside(root: string, rel: string): number {
  const real = realInside(root, rel);
  let fd: number;
  try {
    fd = fs.openSync(real, FLAGS);
  } catch (err) {
    refuseLoop(err, rel);
  }
  try {
    verify(root, rel, real, fs.fstatSync(fd, { bigint: true }));
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** The bytes of `rel`, opened as `openInside` does; throws when it is not a regular file inside the root. */
export function readInsideSync(root: string, rel: string): Buffer {
  const fd = openInside(root, rel);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error(`${rel} is not a regular file`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
