/**
 * An LRU cache of answers per repository. The key holds the normalised
 * question, the index version and a fingerprint of the configuration, so an
 * index write or a config change can never serve a stale answer: it simply
 * stops matching.
 */
import { digest } from '../walk/index.js';
import { slot, type Store } from '../store/index.js';

export class LruCache<V> {
  private readonly map = new Map<string, V>();
  hits = 0;
  misses = 0;
  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.hits++;
      this.map.delete(key); // refresh recency
      this.map.set(key, v);
    } else this.misses++;
    return v;
  }

  set(key: string, value: V): void {
    if (this.capacity <= 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }

  get size(): number {
    return this.map.size;
  }
}

/** Changes whenever what the index answers could (see Store.indexVersion); session bookkeeping does not move it. */
export function indexVersion(store: Store): string {
  return store.indexVersion();
}

/** Whitespace, and letter case outside a regular expression, do not change what a question means. */
export function normalizeQuery(query: string, caseSensitive = false): string {
  const q = query.trim().replace(/\s+/g, ' ');
  return caseSensitive ? q : q.toLowerCase();
}

const ANSWERS = slot<LruCache<unknown>>('answers');

export interface AnswerCacheStats {
  entries: number;
  hits: number;
  misses: number;
}

/** The answer caches of read-pool workers over this index, by worker, as each last reported (their totals so far). */
const READERS = slot<Map<string, AnswerCacheStats>>('answer caches of readers');

/** How the answer cache of this connection has served so far: its own alone. */
export function ownAnswerCacheStats(store: Store): AnswerCacheStats {
  const cache = store.memo.peek(ANSWERS);
  return { entries: cache?.size ?? 0, hits: cache?.hits ?? 0, misses: cache?.misses ?? 0 };
}

/** Forgets this connection's cached answers and how they served: questions asked only to warm a thread up (mcp/read-pool/warm-up.ts). */
export function forgetAnswers(store: Store): void {
  store.memo.drop(ANSWERS);
}

/** Keeps what a reader of this index (a read-pool worker) reported of its own answer cache. */
export function noteReaderCache(store: Store, reader: string, stats: AnswerCacheStats): void {
  store.memo.derived(READERS, '', () => new Map<string, AnswerCacheStats>()).set(reader, stats);
}

/** How the answer caches of this process have served so far (for `stats`): this connection's and its readers'. */
export function answerCacheStats(store: Store): AnswerCacheStats {
  const all = [ownAnswerCacheStats(store), ...(store.memo.peek(READERS)?.values() ?? [])];
  return { entries: sum(all, 'entries'), hits: sum(all, 'hits'), misses: sum(all, 'misses') };
}

function sum(all: AnswerCacheStats[], field: keyof AnswerCacheStats): number {
  return all.reduce((n, s) => n + s[field], 0);
}

/**
 * `compute()`'s answer for this question, from the cache when the index and
 * configuration are unchanged. Letter case is kept in a regex question and
 * in one that says `caseSensitive` (a symbol name). `keep` says whether an answer may be cached
 * (one that fell back for a passing reason should not be).
 */
export function cachedAnswer<T>(
  store: Store,
  capacity: number,
  question: { query: string; [option: string]: unknown },
  config: unknown,
  compute: () => T,
  keep: (answer: T) => boolean = () => true,
): T {
  if (capacity <= 0) return compute();
  // One cache for the connection's life (its keys carry the index version); a new capacity starts a new one.
  const cache = store.memo.derived(ANSWERS, String(capacity), () => new LruCache<unknown>(capacity)) as LruCache<T>;
  const key = [
    digest(JSON.stringify({ ...question, query: normalizeQuery(question.query, question.regex === true || question.caseSensitive === true) })),
    indexVersion(store),
    digest(JSON.stringify(config)),
  ].join('|');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const answer = compute();
  if (keep(answer)) cache.set(key, answer);
  return answer;
}
