/** Reading one source file: hashing, and decoding by its encoding (encoding.ts), binary refused. */
import fs, { constants as fsc } from 'node:fs';
import { createRequire } from 'node:module';
import { decodeSource, type TextEncoding } from './encoding.js';
import { openInside } from './open.js';
import { PathEscapeError } from './paths.js';

export const DEFAULT_MAX_FILE_BYTES = 1_048_576;

type Xxh3 = (typeof import('@node-rs/xxhash'))['xxh3'];

/**
 * @node-rs/xxhash's XXH3, from its glibc Linux addon package where that is installed: the
 * package's own loader first reads /usr/bin/ldd to tell glibc from musl and tries a file beside
 * itself, 4–8 ms of every verb's start. Anywhere else, where that addon does not load, or where the
 * loader is told which addon to load (NAPI_RS_NATIVE_LIBRARY_PATH), through the package's loader.
 */
function loadXxh3(): Xxh3 {
  const require = createRequire(import.meta.url);
  if (process.platform === 'linux' && !process.env.NAPI_RS_NATIVE_LIBRARY_PATH) {
    try {
      return (require(`@node-rs/xxhash-linux-${process.arch}-gnu`) as typeof import('@node-rs/xxhash')).xxh3;
    } catch {
      // not this platform's package: the loader below decides
    }
  }
  return (require('@node-rs/xxhash') as typeof import('@node-rs/xxhash')).xxh3;
}

let xxh3: Xxh3 | undefined;

/**
 * XXH3-64 of the input as 16 lowercase hex characters. A string is hashed as
 * its UTF-8 bytes, so `digest(s) === digest(Buffer.from(s, 'utf8'))`.
 */
export function digest(buf: Uint8Array | string): string {
  xxh3 ??= loadXxh3();
  return xxh3.xxh64(buf).toString(16).padStart(16, '0');
}

export type ReadOutcome =
  | { ok: true; text: string; bytes: number; digest: string; encoding: TextEncoding; invalidUtf8: boolean }
  | { ok: false; reason: 'binary' | 'unreadable' | 'vanished' | 'too_large'; detail: string };

// O_NONBLOCK keeps open() from hanging on a FIFO; it has no effect on regular files.
const OPEN_FLAGS = fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0);

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function failure(err: unknown): ReadOutcome {
  const code = errCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'vanished', detail };
  return { ok: false, reason: 'unreadable', detail };
}

/**
 * Read a file once and classify it. Never throws.
 *
 * - ENOENT (or a path component that stopped being a directory) -> 'vanished'
 * - permission errors, directories, FIFOs/devices, other I/O errors -> 'unreadable'
 * - more than `maxFileBytes` bytes -> 'too_large' (nothing is read)
 * - a NUL byte in the first 8,000 bytes, in no UTF-16/32 pattern -> 'binary'
 * - otherwise the text in the encoding `decodeSource` finds (UTF-8, UTF-16,
 *   UTF-32, Latin-1); damaged UTF-8 has invalid sequences replaced by U+FFFD
 *   (`invalidUtf8: true`); a byte-order mark is dropped from `text`.
 *   `bytes` and `digest` describe the raw bytes on disk.
 */
export function readSource(abs: string, maxFileBytes: number = DEFAULT_MAX_FILE_BYTES): ReadOutcome {
  return readOpened(abs, () => fs.openSync(abs, OPEN_FLAGS), maxFileBytes);
}

/**
 * `readSource` for a caller-named path (`rel` under `root`), opened by
 * `openInside` so a file swapped for a symlink mid-read is never followed out
 * of the root. Throws PathEscapeError for that; every other outcome is as
 * `readSource`'s.
 */
export function readSourceInside(root: string, rel: string, maxFileBytes: number = DEFAULT_MAX_FILE_BYTES): ReadOutcome {
  return readOpened(rel, () => openInside(root, rel), maxFileBytes);
}

/**
 * Synchronous: a source file is at most `maxFileBytes` (1 MiB by default), and an index worker
 * reads one while it has nothing else to do. Four awaited calls per file (open, stat, read,
 * close) cost a prepare worker more than the reads did.
 */
function readOpened(abs: string, open: () => number, maxFileBytes: number): ReadOutcome {
  let fd: number | undefined;
  try {
    fd = open();
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return { ok: false, reason: 'unreadable', detail: `${abs} is a directory` };
    if (!st.isFile()) return { ok: false, reason: 'unreadable', detail: `${abs} is not a regular file` };
    if (st.size > maxFileBytes) {
      return { ok: false, reason: 'too_large', detail: `${st.size} bytes exceeds the limit of ${maxFileBytes}` };
    }
    // Read up to maxFileBytes + 1 so a file that grew since fstat is still caught.
    const cap = maxFileBytes + 1;
    let buf = Buffer.allocUnsafe(Math.min(st.size + 1, cap));
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, cap));
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const bytesRead = fs.readSync(fd, buf, len, buf.length - len, len);
      if (bytesRead === 0) break;
      len += bytesRead;
    }
    if (len > maxFileBytes) {
      return { ok: false, reason: 'too_large', detail: `file grew beyond the limit of ${maxFileBytes} bytes while reading` };
    }
    const bytes = buf.subarray(0, len);
    const decoded = decodeSource(bytes);
    if (decoded.binary) return { ok: false, reason: 'binary', detail: decoded.detail };
    return { ok: true, text: decoded.text, bytes: len, digest: digest(bytes), encoding: decoded.encoding, invalidUtf8: decoded.invalidUtf8 };
  } catch (err) {
    if (err instanceof PathEscapeError) throw err;
    return failure(err);
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** A failed close (EIO on a network mount) loses nothing read: the outcome stands. */
function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // the descriptor is released either way
  }
}
