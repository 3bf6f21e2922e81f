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
  /** Per candidate path, the candidates its code references or is referenced by, with how many references (absent from pools built without the graph). */
  links?: Record<string, Record<string, number>>;
}

export function poolOf(repo: Repo, record: BenchRecord, mode: 'keyword' | 'semantic' | 'hybrid'): Pool {
  const question = ask(record.query);
  const nearness = mode === 'keyword' ? null : feedbackNearness(repo.store, repo.config, question);
  const signals = candidateFiles(repo.store, question, {}, nearness ?? undefined);
  const candidates = signals.map(
    ({ path, demoted, content, top, hitCount, history, definition, mention, name, semantic }): Candidate => ({ path, demoted, content, top, hitCount, history, definition, mention, name, semantic }),
  );
  const paths = candidates.map((c) => c.path);
  const touching = repo.store.history.commitsTouching(paths);
  const links = repo.store.edges.linksAmong(signals.map((s) => s.file.id));
  return {
    id: record.id,
    repo: record.repo,
    language: record.language,
    split: record.split ?? 'dev',
    kind: kindOf(question),
    gold: record.gold_code_files,
    candidates,
    commits: Object.fromEntries([...touching].map(([p, ids]) => [p, [...ids]])),
    links: Object.fromEntries([...links].map(([p, to]) => [p, Object.fromEntries(to)])),
  };
}
