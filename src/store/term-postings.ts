/**
 * BM25 over the chunks' FTS index, summed here from each term's postings.
 *
 * FTS5's bm25() is a sum over the query's phrases, each term scored alone
 * (its idf times its saturated, length-normalised frequency in the chunk):
 * so a query's score is the sum of its terms' one-term scores, added in the
 * same order, to the last bit. A question's cost lies in its common terms
 * ("test", "file": thousands of chunks, each scored on every read), and
 * those are the terms questions repeat; so each term's postings are read
 * once per index version, with each chunk's score, and kept (up to a budget
 * of chunk ids), and a question adds up postings already at hand. A term
 * only tested for (which hits hold a word a refusal would suggest) is read
 * without scores: bm25() was most of such a read.
 */
import type { Db } from './db.js';
import { anyPhrase } from './fts.js';
import { slot, type Memo } from './memo.js';
import { byCodeUnit } from '../order.js';

/** One term's chunks (ascending ids) and each one's bm25 for the term alone, sign-flipped: larger is better. */
export interface Postings {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
}

/** A chunk's place, read with the file's path: what a lexical hit carries besides its score. */
type Place = [fileId: number, startLine: number, endLine: number, path: string];

export interface LexicalHit {
  chunkId: number;
  fileId: number;
  startLine: number;
  endLine: number;
  /** FTS5 bm25 sign-flipped: larger is better. */
  score: number;
  /** The file's path: equal scores are ordered by it, not by row id. */
  path: string;
}

interface Kept {
  postings: Map<string, Postings>;
  /** The chunks holding each term tested for and never scored (holders), ascending. */
  holders: Map<string, Int32Array>;
  /** Chunk ids held across `postings` and `holders`: the budget counts these. */
  ids: number;
  places: Map<number, Place>;
}

const KEPT = slot<Kept>('term postings');
/** Places are kept for this fraction of the postings budget: a place costs several times a posting's 12 bytes. */
const PLACES_SHARE = 4;

/** Best first; equal scores by path, then line, so two indexes of one tree rank alike. */
function byScoreThenPlace(a: LexicalHit, b: LexicalHit): number {
  return b.score - a.score || byCodeUnit(a.path, b.path) || a.startLine - b.startLine;
}

/** The aggregate a term's postings are read through (TermPostings.readPostings). */
const GATHER = 'sightline_gather_postings';
/**
 * The rows of the read in progress. A statement runs to its end inside one synchronous call, one
 * at a time on a thread, so one slot serves every connection: an aggregate registered again on a
 * connection (a second TermPostings over it) behaves the same.
 */
let gathering: Gathered | null = null;

/**
 * One read's rows as they arrive, one aggregate step each: no row object per posting (a common
 * term's thousands of them were most of a question's garbage), ids as small integers and scores
 * unboxed in their arrays.
 */
class Gathered {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  add(id: number, score: number): Gathered {
    this.ids.push(id);
    this.scores.push(score);
    return this;
  }

  /** Ascending ids, so `holds` may search them (FTS5 reads in row id order; sorted here if ever not). */
  postings(): Postings {
    const { ids, scores } = this;
    if (ascending(ids)) return { ids: Int32Array.from(ids), scores: Float64Array.from(scores) };
    const order = ids.map((_, i) => i).sort((a, b) => ids[a]! - ids[b]!);
    return { ids: Int32Array.from(order, (i) => ids[i]!), scores: Float64Array.from(order, (i) => scores[i]!) };
  }
}

/** Whether `ids` are in ascending order, as FTS5 reads rows: then they need no sort. */
function ascending(ids: ArrayLike<number>): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i]! < ids[i - 1]!) return false;
  return true;
}

export class TermPostings {
  private readonly read;
  private readonly readHolders;
  private readonly placesOf;
  /** Scores summed per chunk id during one question, zeroed again after it (grown to the largest id seen). */
  private sums = new Float64Array(0);

  /**
   * @param weights FTS column weights in the table's column order
   * @param budget chunk ids kept across terms before the kept postings start again
   */
  constructor(
    db: Db,
    weights: string,
    private readonly memo: Memo,
    private readonly version: () => string,
    public budget: number,
  ) {
    // bm25() is not allowed inside an aggregate: the CTE scores the rows, the aggregate gathers them (below).
    const step = (g: Gathered, id: number, score: number) => g.add(id, score);
    // @types/better-sqlite3 types a step of one argument; SQLite passes each argument of the call.
    db.aggregate(GATHER, { start: () => (gathering = new Gathered()), step: step as unknown as (g: Gathered) => Gathered, result: () => 0 });
    this.read = db.prepare(`WITH hit AS MATERIALIZED (SELECT rowid id, -bm25(chunks_fts, ${weights}) score FROM chunks_fts WHERE chunks_fts MATCH ?) SELECT ${GATHER}(id, score) FROM hit`).pluck();
    this.readHolders = db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck();
    this.placesOf = db
      .prepare('SELECT c.id, c.file_id, c.start_line, c.end_line, f.path FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))')
      .raw();
  }

  private kept(): Kept {
    return this.memo.derived(KEPT, this.version(), () => ({ postings: new Map(), holders: new Map(), ids: 0, places: new Map() }));
  }

  /** The chunks whose FTS fields hold `term`, each with its score for the term alone. */
  of(term: string): Postings {
    const kept = this.kept();
    let p = kept.postings.get(term);
    if (!p) {
      p = this.readPostings(term);
      this.charge(kept, p.ids.length).postings.set(term, p);
    }
    return p;
  }

  /** The chunks whose FTS fields hold `term`, ascending: its postings' when kept, else read without scores and kept. */
  holders(term: string): Int32Array {
    const kept = this.kept();
    let ids = kept.postings.get(term)?.ids ?? kept.holders.get(term);
    if (!ids) {
      ids = Int32Array.from(this.readHolders.all(anyPhrase([term])) as number[]);
      if (!ascending(ids)) ids.sort(); // `holds` relies on the order
      this.charge(kept, ids.length).holders.set(term, ids);
    }
    return ids;
  }

  /** Room for `size` more chunk ids, the kept terms starting again past the budget; a term no chunk holds counts as one, so stray words cannot pile up unbudgeted. */
  private charge(kept: Kept, size: number): Kept {
    const n = Math.max(1, size);
    if (kept.ids + n > this.budget) [kept.ids, kept.postings, kept.holders] = [0, new Map(), new Map()];
    kept.ids += n;
    return kept;
  }

  private readPostings(term: string): Postings {
    gathering = null;
    try {
      this.read.get(anyPhrase([term]));
      return (gathering ?? new Gathered()).postings(); // null when no row started the aggregate
    } finally {
      gathering = null;
    }
  }

  /**
   * The `limit` best chunks for the phrases ORed, as FTS5's `ORDER BY bm25 LIMIT`
   * would score them (a phrase repeated counts again), best first; equal scores
   * by path, then line, also where they cross the cut.
   */
  best(phrases: readonly string[], limit: number): LexicalHit[] {
    const touched: number[] = [];
    try {
      for (const phrase of phrases) {
        const { ids, scores } = this.of(phrase);
        const last = ids.length ? ids[ids.length - 1]! : -1;
        if (last >= this.sums.length) this.grow(last);
        const s = this.sums;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          if (s[id] === 0) touched.push(id); // a term's score is never 0: FTS5 floors idf above it
          s[id]! += scores[i]!;
        }
      }
      return this.chosen(touched, limit);
    } finally {
      for (const id of touched) this.sums[id] = 0; // also when a read failed: the next question starts from zero
    }
  }

  private grow(id: number): void {
    const next = new Float64Array(Math.max(id + 1, this.sums.length * 2));
    next.set(this.sums);
    this.sums = next;
  }

  /** The touched chunks scoring at least the `limit`-th best (every tie at the cut), placed, sorted, cut. */
  private chosen(touched: readonly number[], limit: number): LexicalHit[] {
    const s = this.sums;
    const cut = touched.length > limit ? kthLargest(scoresOf(touched, s), limit) : -Infinity;
    const ids = touched.filter((id) => s[id]! >= cut);
    const places = this.places(ids);
    const hits: LexicalHit[] = [];
    for (const id of ids) {
      const place = places.get(id);
      if (place) hits.push({ chunkId: id, fileId: place[0], startLine: place[1], endLine: place[2], score: s[id]!, path: place[3] });
    }
    return hits.sort(byScoreThenPlace).slice(0, limit);
  }

  /** Each chunk's place, read once per index version (a hit of one question is often one of the next). */
  private places(ids: readonly number[]): Map<number, Place> {
    const { places } = this.kept();
    let missing = ids.filter((id) => !places.has(id));
    if (missing.length && places.size + missing.length > this.budget / PLACES_SHARE) {
      places.clear(); // past the budget: start again from this question's own
      missing = [...ids];
    }
    if (missing.length) {
      for (const [id, ...place] of this.placesOf.all(JSON.stringify(missing)) as [number, ...Place][]) places.set(id, place);
    }
    return places;
  }
}

/** Whether `ids` (ascending) holds `id`. */
export function holds(ids: Int32Array, id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The sums of the touched chunks, in a loop: `Float64Array.from` with a mapping walks the ids through an iterator, an object per id. */
function scoresOf(touched: readonly number[], sums: Float64Array): Float64Array {
  const values = new Float64Array(touched.length);
  for (let i = 0; i < touched.length; i++) values[i] = sums[touched[i]!]!;
  return values;
}

/** The k-th largest of `values` (1-based; reorders them): Hoare's selection, linear on average. */
function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target]!;
  }
  return values[target]!;
}
