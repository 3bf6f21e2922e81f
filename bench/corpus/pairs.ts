/**
 * One commit to one training pair (text -> files changed), or the reason it is
 * not one. Pure: the files' text at the parent comes in through `textAt`.
 */
import type { LoggedCommit } from './git.js';
import { selectGold, withoutGenerated } from './gold.js';
import { MIN_QUERY_CHARS, noiseReason, parseMessage, queryOf, type NoiseReason } from './message.js';

export const MAX_GOLD_FILES = 10;

export interface Pair {
  id: string;
  repo: string;
  commit: string;
  /** The checkout: the first parent, whose history ends before the change. */
  parent: string;
  language: string;
  split: string;
  query: string;
  gold_files: string[];
}

export type DropReason = NoiseReason | 'root' | 'no-ref' | 'short-query' | 'too-many-files' | 'no-gold' | 'duplicate';

/** A commit that passed the message filters: its gold still needs the parent's text (generated files). */
export interface Candidate {
  commit: LoggedCommit;
  query: string;
  gold: string[];
}

/** The message and file-list filters, which need no file contents. */
export function screen(commit: LoggedCommit): Candidate | DropReason {
  const parent = commit.parents[0];
  if (!parent) return 'root';
  const parsed = parseMessage(commit.message);
  if (parsed.refs.length === 0) return 'no-ref';
  const noise = noiseReason(parsed, commit.author);
  if (noise) return noise;
  const query = queryOf(parsed);
  if (query.length < MIN_QUERY_CHARS) return 'short-query';
  const { sourceChanged, candidates } = selectGold(commit.changes);
  if (sourceChanged > MAX_GOLD_FILES) return 'too-many-files';
  if (candidates.length === 0) return 'no-gold';
  return { commit, query, gold: candidates };
}

export interface RepoFacts {
  repo: string;
  language: string;
  split: string;
}

/** The pair, once generated files are known; 'no-gold' if only generated files were left. */
export function finish(candidate: Candidate, facts: RepoFacts, textAt: (path: string) => string): Pair | 'no-gold' {
  const gold = withoutGenerated(candidate.gold, textAt);
  if (gold.length === 0) return 'no-gold';
  const { sha, parents } = candidate.commit;
  return {
    id: `${facts.repo.replace('/', '__')}-${sha.slice(0, 12)}`,
    repo: facts.repo,
    commit: sha,
    parent: parents[0]!,
    language: facts.language,
    split: facts.split,
    query: candidate.query,
    gold_files: gold,
  };
}
