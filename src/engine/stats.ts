/** `stats`: what the index holds and what it costs on disk. */
import { answerCacheStats, type AnswerCacheStats } from '../search/index.js';
import { SCHEMA_VERSION } from '../store/index.js';
import { tallySkips, type SkipTally } from '../walk/index.js';
import type { Repo } from './repo.js';

export interface StatsEnvelope {
  status: 'ok';
  repo: string;
  index_path: string;
  schema_version: number;
  last_indexed_at: string | null;
  files: number;
  chunks: number;
  symbols: number;
  source_bytes: number;
  index_bytes: number;
  languages: Record<string, number>;
  kinds: Record<string, number>;
  /** The skip ledger by reason, as the last pass counted it (walk/skips.ts). */
  skipped: SkipTally;
  /** Answers repeated from the search cache by this process (search/cache.ts), since it opened the index. */
  answer_cache: AnswerCacheStats;
}

function tally<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of items) out[key(t)] = (out[key(t)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

export function stats(repo: Repo): StatsEnvelope {
  const store = repo.store;
  const files = store.files.list();
  const counts = store.counts();
  return {
    status: 'ok',
    repo: repo.root,
    index_path: repo.dbPath,
    schema_version: SCHEMA_VERSION,
    last_indexed_at: store.getMeta('last_indexed_at') ?? null,
    files: counts.files,
    chunks: counts.chunks,
    symbols: counts.symbols,
    source_bytes: files.reduce((s, f) => s + f.size, 0),
    index_bytes: store.sizeOnDisk(),
    languages: tally(files, (f) => f.language ?? 'text'),
    kinds: tally(files, (f) => f.kind),
    skipped: tallySkips(store.skipped().map((s) => s.reason)),
    answer_cache: answerCacheStats(store),
  };
}
