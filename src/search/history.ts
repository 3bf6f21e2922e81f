/**
 * The history signal: the repository's own commit messages describe what
 * each change was about in the project's words. Commits whose messages match
 * the query lend their score to the files they touched, shared among those
 * files, so an issue about "max-count with context" finds the printer files
 * the last such fixes changed. Only commits reachable from HEAD are stored
 * (index/history.ts); a repository without git simply has none.
 */
import type { Store } from '../store/index.js';
import { weightedMatch } from './lexical.js';
import type { WeightedTerm } from './query.js';

/** Commits whose messages are read for one query: the best matches only, older echoes add noise. */
const TOP_COMMITS = 50;

export interface HistoryCredit {
  score: number;
  /** How many of the matching commits touched the file. */
  commits: number;
}

/** Per path: the summed credit of the matching commits that touched it. */
export function historyCredit(store: Store, terms: WeightedTerm[]): Map<string, HistoryCredit> {
  const out = new Map<string, HistoryCredit>();
  if (terms.length === 0) return out;
  const { phrases, scale } = weightedMatch(terms);
  const hits = store.history.lexical(phrases, TOP_COMMITS);
  if (hits.length === 0) return out;
  const touched = store.history.filesOf(hits.map((h) => h.commitId));
  for (const hit of hits) {
    const commit = touched.get(hit.commitId);
    if (!commit) continue;
    // A commit that touched many files says little about each of them.
    const share = (hit.score * scale) / Math.sqrt(Math.max(1, commit.fileCount));
    for (const p of commit.paths) {
      const credit = out.get(p) ?? { score: 0, commits: 0 };
      credit.score += share;
      credit.commits++;
      out.set(p, credit);
    }
  }
  return out;
}
