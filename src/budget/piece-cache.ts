import { fnv1a } from '../fnv.js';
import { ownCopy } from '../terms/own-copy.js';

/**
 * Token counts of recent pieces, found by the piece's place in its text:
 * a hit costs a hash and a compare of the chars, where a Map would first
 * need the piece cut out as a string of its own (most pieces are hits).
 * Open addressing, at most half full. The table starts small and doubles as
 * it fills, so a process that counts a few answers never clears a table
 * sized for an index pass (50,000 entries took ~4 ms of a CLI verb); at
 * `limit` it is cleared, which is cheaper than an LRU's bookkeeping and
 * refills in a few files.
 */
export class PieceCache {
  private keys: (string | undefined)[] = [];
  private counts = new Uint32Array(0);
  /** Each key's hash, so growing moves entries without hashing them again. */
  private hashes = new Uint32Array(0);
  private mask = 0;
  private size = 0;

  constructor(private readonly limit: number) {}

  /** The count of text[start, end), from `compute(piece)` on a miss (which must not count with this cache: the slot is taken before). */
  count(text: string, start: number, end: number, compute: (piece: string) => number): number {
    if (this.size >= this.limit || this.size * 2 >= this.keys.length) this.grow();
    const { keys, mask } = this;
    const h = hash(text, start, end);
    let slot = h & mask;
    for (let key = keys[slot]; key !== undefined; key = keys[slot]) {
      if (key.length === end - start && text.startsWith(key, start)) return this.counts[slot]!;
      slot = (slot + 1) & mask;
    }
    const piece = text.slice(start, end);
    const n = compute(piece);
    keys[slot] = ownCopy(piece); // a copy: a view would keep the whole text alive
    this.counts[slot] = n;
    this.hashes[slot] = h;
    this.size++;
    return n;
  }

  /** Twice the slots with every entry kept, or, at the limit, a small empty table. */
  private grow(): void {
    const { keys, counts, hashes } = this;
    const full = this.size >= this.limit;
    const slots = full ? MIN_SLOTS : Math.max(MIN_SLOTS, keys.length * 2);
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.counts = new Uint32Array(slots);
    this.hashes = new Uint32Array(slots);
    this.mask = slots - 1;
    this.size = 0;
    if (full) return;
    keys.forEach((key, i) => {
      if (key === undefined) return;
      let slot = hashes[i]! & this.mask;
      while (this.keys[slot] !== undefined) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.counts[slot] = counts[i]!;
      this.hashes[slot] = hashes[i]!;
      this.size++;
    });
  }
}

const MIN_SLOTS = 256;

/** FNV-1a over the chars, with their high bits folded into the low ones the table's mask keeps. */
function hash(text: string, start: number, end: number): number {
  const h = fnv1a(text, start, end);
  return (h ^ (h >>> 16)) >>> 0;
}
