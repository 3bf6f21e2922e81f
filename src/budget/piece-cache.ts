import { fnv1a } from '../fnv.js';
import { ownCopy } from '../terms/own-copy.js';

/**
 * Token counts of recent pieces, found by the piece's place in its text:
 * a hit costs a hash and a compare of the chars, where a Map would first
 * need the piece cut out as a string of its own (most pieces are hits).
 * Open addressing, at most half full; cleared when full, which is cheaper
 * than an LRU's bookkeeping and refills in a few files.
 */
export class PieceCache {
  private keys: (string | undefined)[] = [];
  private counts = new Uint32Array(0);
  private mask = 0;
  private size = 0;

  constructor(private readonly limit: number) {}

  /** The count of text[start, end), from `compute(piece)` on a miss (which must not count with this cache: the slot is taken before). */
  count(text: string, start: number, end: number, compute: (piece: string) => number): number {
    if (this.size >= this.limit || this.keys.length === 0) this.clear();
    const { keys, mask } = this;
    let slot = hash(text, start, end) & mask;
    for (let key = keys[slot]; key !== undefined; key = keys[slot]) {
      if (key.length === end - start && text.startsWith(key, start)) return this.counts[slot]!;
      slot = (slot + 1) & mask;
    }
    const piece = text.slice(start, end);
    const n = compute(piece);
    keys[slot] = ownCopy(piece); // a copy: a view would keep the whole text alive
    this.counts[slot] = n;
    this.size++;
    return n;
  }

  private clear(): void {
    let slots = 1;
    while (slots < this.limit * 2) slots *= 2;
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.counts = new Uint32Array(slots);
    this.mask = slots - 1;
    this.size = 0;
  }
}

/** FNV-1a over the chars, with their high bits folded into the low ones the table's mask keeps. */
function hash(text: string, start: number, end: number): number {
  const h = fnv1a(text, start, end);
  return (h ^ (h >>> 16)) >>> 0;
}
