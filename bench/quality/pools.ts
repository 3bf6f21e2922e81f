/**
 * What the ranker's trainer (scripts/ranker/train.ts) fits on: per record,
 * every candidate file the question's words lead to, with the raw signals the
 * scorer reads (src/search/learned.ts), and the stored commits that touched
 * each, for co-change. Nothing here ranks: the trainer does, with the same
 * functions the search runs.
 */
import type { Repo } from '../../src/engine/index.js';
import { ask, candidateFiles, feedbackNearness, kindOf, type Candidate, type QueryKind } from '../../src/search/index.js';
import type { BenchRecord } from './records.js';

export interface Pool {
  id: string;
  repo: string;
  language: string;
  /** train | validation for corpus pairs; dev for the benchmark's records. */
  split: string;
  /** Which shipped model ranks it (learned.ts kindOf): a one-line question or a whole issue. */
  kind: QueryKind;
  gold: string[];
  candidates: Candidate[];
  /** Per candidate path, the ids of the stored commits that touched it. */
  commits: Record<string, number[]>;
}

export function poolOf(repo: Repo, record: BenchRecord, mode: 'keyword' | 'semantic' | 'hybrid'): Pool {
  const question = ask(record.query);
  const nearness = mode === 'keyword' ? null : feedbackNearness(repo.store, repo.config, question);
  const candidates = candidateFiles(repo.store, question, {}, nearness ?? undefined).map(
    ({ path, demoted, content, top, hitCount, history, definition, mention, name, semantic }): Candidate => ({ path, demoted, content, top, hitCount, history, definition, mention, name, semantic }),
  );
  const touching = repo.store.history.commitsTouching(candidates.map((c) => c.path));
  return {
    id: record.id,
    repo: record.repo,
    language: record.language,
    split: record.split ?? 'dev',
    kind: kindOf(question),
    gold: record.gold_code_files,
    candidates,
    commits: Object.fromEntries([...touching].map(([p, ids]) => [p, [...ids]])),
  };
}
