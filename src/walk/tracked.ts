/**
 * The files git tracks, read from its index (`.git/index`). Git's own rule is
 * that ignore rules never hide a tracked file: a `.gitignore` line `cobra`
 * (meant for a built binary) leaves spf13/cobra's tracked `cobra/tpl/main.go`
 * in the repository. The walker reads this only when an ignore rule is about
 * to leave a directory or file out, so a tree with nothing ignored never
 * reads it.
 *
 * The index is found as git finds it (../git-dir.ts), from a root at the
 * work tree's top or below it, through a linked worktree's `.git` file too;
 * where git's variables point it elsewhere, it is git's to say, and not read.
 *
 * The index format (git's Documentation/gitformat-index.txt): a header
 * ("DIRC", version 2, 3 or 4, entry count), then the entries, each 62 bytes
 * of stat data, object id and flags, 2 more in version 3 where the extended
 * flag is set, then its path: NUL-terminated and padded to 8 bytes in
 * versions 2 and 3, prefix-compressed against the previous path in version 4.
 * An index split in two (the `link` extension) holds only part of the entries:
 * it is not read, nor is anything unexpected; the walker then goes by the
 * ignore rules alone, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findGitDir, GIT_ENV } from '../git-dir.js';

export interface Tracked {
  /** Whether git tracks the repo-relative file. */
  has(rel: string): boolean;
  /** Whether git tracks a file under the repo-relative directory. */
  holdsUnder(dirRel: string): boolean;
}

/**
 * The index of the repository `root` lies in, and the root's path below the work tree's top ('' or
 * ending in '/'), as git finds them; null where git's variables point it elsewhere
 * (GIT_INDEX_FILE and GIT_ENV: then only git knows), or outside git.
 */
function indexFor(root: string, env: NodeJS.ProcessEnv): { file: string; prefix: string } | null {
  if (env.GIT_INDEX_FILE !== undefined || GIT_ENV.some((v) => env[v] !== undefined)) return null;
  let real: string;
  let found: ReturnType<typeof findGitDir>;
  try {
    real = fs.realpathSync(root);
    found = findGitDir(real);
  } catch {
    return null; // unreadable on the way up: the rules alone
  }
  if (found === null || found === 'ask-git') return null;
  const below = path.relative(found.top, real).split(path.sep).join('/');
  return { file: path.join(found.gitDir, 'index'), prefix: below === '' ? '' : `${below}/` };
}

/** The last index read, by file: a pass reads it again only when git has written it since (its stat moved). */
const lastRead = new Map<string, { size: number; mtimeMs: number; tracked: Tracked | null }>();

/** What git tracks under `root` (paths relative to it); null where there is no index, or one this reader does not read whole. */
export function readTracked(root: string, env: NodeJS.ProcessEnv = process.env): Tracked | null {
  const found = indexFor(root, env);
  if (!found) return null;
  const { file, prefix } = found;
  let bytes: Buffer;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
    const last = lastRead.get(file);
    if (last && last.size === st.size && last.mtimeMs === st.mtimeMs) return last.tracked && below(last.tracked, prefix);
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  const names = indexNames(bytes);
  const tracked = names && new IndexNames(names);
  lastRead.set(file, { size: st.size, mtimeMs: st.mtimeMs, tracked });
  return tracked && below(tracked, prefix);
}

/** Each read's views from roots below the work tree's top, by prefix. */
const views = new WeakMap<Tracked, Map<string, Tracked>>();

/**
 * `tracked`, with paths relative to a root `prefix` below the work tree's top: the same object
 * for the same read, so a walk's kept listing (listings.ts) sees git's index unchanged.
 */
function below(tracked: Tracked, prefix: string): Tracked {
  if (prefix === '') return tracked;
  const byPrefix = views.get(tracked) ?? views.set(tracked, new Map()).get(tracked)!;
  let view = byPrefix.get(prefix);
  if (!view) byPrefix.set(prefix, (view = { has: (rel) => tracked.has(prefix + rel), holdsUnder: (dirRel) => tracked.holdsUnder(prefix + dirRel) }));
  return view;
}

/** Entry names as byte ranges of one buffer, in the index's order: ascending by their bytes, as git sorts them. */
interface Names {
  bytes: Buffer;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * Looked up by binary search over the names where they lie: no string per entry (a 9,000-file
 * index read into a Set of strings took 35 ms in a new process, most of it making the strings).
 */
class IndexNames implements Tracked {
  constructor(private readonly names: Names) {}

  /** The first entry whose name is not below `key`. */
  private lowerBound(key: Buffer): number {
    const { bytes, starts, ends } = this.names;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bytes.compare(key, 0, key.length, starts[mid]!, ends[mid]!) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(rel: string): boolean {
    const key = Buffer.from(rel);
    const at = this.lowerBound(key);
    const { bytes, starts, ends } = this.names;
    return at < starts.length && bytes.compare(key, 0, key.length, starts[at]!, ends[at]!) === 0;
  }

  holdsUnder(dirRel: string): boolean {
    const key = Buffer.from(dirRel + '/');
    const at = this.lowerBound(key);
    const { bytes, starts, ends } = this.names;
    return at < starts.length && ends[at]! - starts[at]! >= key.length && bytes.compare(key, 0, key.length, starts[at]!, starts[at]! + key.length) === 0;
  }
}

const ENTRY_FIXED = 62;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/** An index file's entry names, in its order; null for anything but a whole index of version 2, 3 or 4. */
function indexNames(bytes: Buffer): Names | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  // Version 4 drops each name's prefix shared with the one before: the names are written out whole here.
  const whole = version === 4 ? Buffer.allocUnsafe(bytes.length * 4) : bytes;
  let written = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (start + ENTRY_FIXED > bytes.length) return null; // cut short
    const flags = (bytes[start + 60]! << 8) | bytes[start + 61]!; // readUInt16BE, cold, was half the read
    at = start + ENTRY_FIXED + (version >= 3 && flags & EXTENDED ? 2 : 0);
    if (version === 4) {
      // How many bytes of the previous name to drop, in git's offset varint; then the rest, NUL-terminated.
      let byte = bytes[at++] ?? 0;
      let drop = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[at++] ?? 0;
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      const end = bytes.indexOf(0, at);
      const kept = i === 0 ? 0 : ends[i - 1]! - starts[i - 1]! - drop;
      if (end < 0 || kept < 0 || written + kept + (end - at) > whole.length) return null;
      starts[i] = written;
      if (kept > 0) whole.copy(whole, written, starts[i - 1]!, starts[i - 1]! + kept);
      written += kept + bytes.copy(whole, written + kept, at, end);
      ends[i] = written;
      at = end + 1;
    } else {
      const short = flags & NAME_MASK;
      const end = short < NAME_MASK ? at + short : bytes.indexOf(0, at);
      if (end < 0 || end >= bytes.length) return null;
      starts[i] = at;
      ends[i] = end;
      at = start + Math.ceil((end - start + 1) / 8) * 8; // 1 to 8 NULs pad the entry to a multiple of 8
    }
  }
  // Extensions follow, each a 4-byte signature and a 4-byte size; a split index keeps entries elsewhere.
  for (let ext = at; ext + 8 <= bytes.length - 20; ext += 8 + bytes.readUInt32BE(ext + 4)) {
    if (bytes.toString('latin1', ext, ext + 4) === 'link') return null;
  }
  return { bytes: whole, starts, ends };
}
