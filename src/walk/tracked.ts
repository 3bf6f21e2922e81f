/**
 * The files git tracks, read from its index (`.git/index`). Git's own rule is
 * that ignore rules never hide a tracked file: a `.gitignore` line `cobra`
 * (meant for a built binary) leaves spf13/cobra's tracked `cobra/tpl/main.go`
 * in the repository. And a directory named like a build output (`build`,
 * `dist`, `target`) that git tracks files in holds source: Java's package
 * `org.apache.commons.io.build`, a Go package `build`. The walker reads this
 * only when a rule or a default exclude is about to leave a directory or file
 * out, so a tree with nothing ignored never reads it.
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

export interface Tracked {
  /** Whether git tracks the repo-relative file. */
  has(rel: string): boolean;
  /** Whether git tracks a file under the repo-relative directory. */
  holdsUnder(dirRel: string): boolean;
}

/** The index of the repository at `root` (a worktree's `.git` file names its git directory), or null. */
function indexFile(root: string): string | null {
  const dotGit = path.join(root, '.git');
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dotGit, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (st?.isDirectory()) return path.join(dotGit, 'index');
  if (!st?.isFile()) return null;
  try {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return pointer ? path.join(path.resolve(root, pointer[1]!), 'index') : null;
  } catch {
    return null;
  }
}

/** The last index read, by file: a pass reads it again only when git has written it since (its stat moved). */
const lastRead = new Map<string, { size: number; mtimeMs: number; tracked: Tracked | null }>();

/** What git tracks in the repository at `root`; null where there is no index, or one this reader does not read whole. */
export function readTracked(root: string): Tracked | null {
  const file = indexFile(root);
  if (!file) return null;
  let bytes: Buffer;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
    const last = lastRead.get(file);
    if (last && last.size === st.size && last.mtimeMs === st.mtimeMs) return last.tracked;
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  const tracked = trackedOf(indexPaths(bytes));
  lastRead.set(file, { size: st.size, mtimeMs: st.mtimeMs, tracked });
  return tracked;
}

function trackedOf(paths: string[] | null): Tracked | null {
  if (!paths) return null;
  const files = new Set(paths);
  const dirs = new Set<string>();
  for (const p of paths) {
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
      const dir = p.slice(0, at);
      if (dirs.has(dir)) break; // its ancestors were added with it
      dirs.add(dir);
    }
  }
  return { has: (rel) => files.has(rel), holdsUnder: (dirRel) => dirs.has(dirRel) };
}

const ENTRY_FIXED = 62;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/** The paths of an index file's entries, in its order; null for anything but a whole index of version 2, 3 or 4. */
export function indexPaths(bytes: Buffer): string[] | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const paths: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  try {
    for (let i = 0; i < count; i++) {
      const start = at;
      const flags = bytes.readUInt16BE(start + 60);
      at = start + ENTRY_FIXED + (version >= 3 && flags & EXTENDED ? 2 : 0);
      let name: Buffer;
      if (version === 4) {
        // How many bytes of the previous path to drop, in git's offset varint; then the rest, NUL-terminated.
        let byte = bytes[at++]!;
        let drop = byte & 0x7f;
        while (byte & 0x80) {
          byte = bytes[at++]!;
          drop = ((drop + 1) << 7) | (byte & 0x7f);
        }
        const end = bytes.indexOf(0, at);
        if (end < 0 || drop > previous.length) return null;
        name = Buffer.concat([previous.subarray(0, previous.length - drop), bytes.subarray(at, end)]);
        at = end + 1;
      } else {
        const short = flags & NAME_MASK;
        const end = short < NAME_MASK ? at + short : bytes.indexOf(0, at);
        if (end < 0 || end > bytes.length) return null;
        name = bytes.subarray(at, end);
        at = start + Math.ceil((end - start + 1) / 8) * 8; // 1 to 8 NULs pad the entry to a multiple of 8
      }
      previous = name;
      paths.push(name.toString('utf8'));
    }
  } catch {
    return null; // cut short: read past the end
  }
  // Extensions follow, each a 4-byte signature and a 4-byte size; a split index keeps entries elsewhere.
  for (let ext = at; ext + 8 <= bytes.length - 20; ext += 8 + bytes.readUInt32BE(ext + 4)) {
    if (bytes.toString('latin1', ext, ext + 4) === 'link') return null;
  }
  return paths;
}
