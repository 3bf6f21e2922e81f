/**
 * Narrower calls for a refine answer. Candidates come from the hits; what
 * each would yield is counted by the caller's `run` in the matches it already
 * holds, never by searching again, so a refusal costs no more than the
 * question did.
 */
import { byCodeUnit } from '../order.js';
import { commonDirectory, groupsBelow, placed, type DirectoryHits, type PlacedPath } from './distribution.js';
import type { GateHit, GateSummary, Suggestion } from './gate.js';
import type { GateLimits } from './limits.js';

/** What a narrower call returns: its hit count and the tokens of its answer. */
export interface Yield {
  hits: number;
  estTokens: number;
}

const SCOPE_SUGGESTIONS = 3;
/** How many levels a too-broad directory is split into its subdirectories. */
const MAX_DRILL = 3;
const TERM_CANDIDATES = 4;
/** Words weighed for rarity, the best-placed first: each costs an index lookup, and words far down the hits seldom win. */
const RARITY_CANDIDATES = 32;
const TERM_SUGGESTIONS = 2;
const DROP_SUGGESTIONS = 2;
/** A term in more than this share of the hits barely narrows them. */
const TERM_MAX_SHARE = 0.6;

/**
 * Directories to narrow to: those that would pass the gate, biggest first; a
 * directory still too broad is replaced by its own subdirectories, so a
 * suggestion is a call that can be answered, wherever the tree allows one.
 */
export function scopeSuggestions(hits: GateHit[], limits: GateLimits, run: (scope: string) => Yield): Suggestion[] {
  const fits = (r: { hits: number; files: number }) => r.hits <= limits.maxHits && r.files <= limits.maxFiles;
  const chosen: DirectoryHits[] = [];
  const visit = (under: readonly PlacedPath[], depth: number) => {
    const common = commonDirectory(under);
    const here = common.join('/') || '.';
    for (const row of groupsBelow(under, common)) {
      if (row.dir === here) continue; // files directly in the common directory: no narrower scope
      if (!fits(row) && depth < MAX_DRILL) visit(row.members, depth + 1);
      else chosen.push(row);
    }
  };
  visit(placed(hits.map((h) => h.path)), 0);
  // Biggest first across the tree, not in the order visited: a directory that fits as it is (src, 39
  // hits) comes before the small pieces of a sibling that had to be split (docs/patterns, 7).
  const bySize = (a: DirectoryHits, b: DirectoryHits) => b.hits - a.hits || byCodeUnit(a.dir, b.dir);
  const ordered = [...chosen.filter(fits).sort(bySize), ...chosen.filter((r) => !fits(r)).sort(bySize)].slice(0, SCOPE_SUGGESTIONS);
  return ordered.map((r) => {
    const y = run(r.dir);
    return { action: 'narrow_scope', arg: r.dir, would_yield: y.hits, est_tokens: y.estTokens, hint: `pass scope: "${r.dir}"` };
  });
}

/** A word of a question, and whether any indexed file holds it. */
export interface QueryWord {
  word: string;
  indexed: boolean;
}

/** What a question asked without some of its words would count: its text, and its hits and their files. */
export interface Rephrased extends Yield {
  query: string;
  files: number;
}

/**
 * Words to drop from a question no match covers enough of (relevance). Every suggestion drops the
 * words no indexed file holds (a word nothing holds counts against every match,
 * engine/relevance.ts): those alone, with each other word, and all but the words one of the best
 * matches holds (`held`, best first: the question that match answers whole). Each is offered with
 * what it would count in the matches at hand (`run`, given the words dropped; null when nothing
 * searchable would be left): those whose question would be answered first, then those that keep
 * more of the question.
 */
export function dropSuggestions(words: readonly QueryWord[], held: readonly ReadonlySet<string>[], limits: GateLimits, run: (dropped: ReadonlySet<string>) => Rephrased | null): Suggestion[] {
  const absent = words.filter((w) => !w.indexed).map((w) => w.word);
  const drops = new Map<string, string[]>();
  const indexed = words.filter((w) => w.indexed);
  const candidates = [absent, ...indexed.map((w) => [...absent, w.word]), ...held.map((h) => words.filter((w) => !h.has(w.word)).map((w) => w.word))];
  for (const dropped of candidates) {
    if (dropped.length > 0 && dropped.length < words.length) drops.set([...dropped].sort().join(' '), dropped);
  }
  const answerable = (r: Rephrased) => r.hits <= limits.maxHits && r.files <= limits.maxFiles;
  const tried = [...drops.values()].flatMap((dropped) => {
    const r = run(new Set(dropped));
    return r && r.hits > 0 ? [{ dropped, r }] : [];
  });
  tried.sort((a, b) => Number(answerable(b.r)) - Number(answerable(a.r)) || a.dropped.length - b.dropped.length || b.r.hits - a.r.hits);
  return tried.slice(0, DROP_SUGGESTIONS).map(({ dropped, r }) => {
    const nowhere = dropped.filter((w) => absent.includes(w));
    const why = nowhere.length > 0 ? ` (no indexed file holds ${nowhere.map((w) => `"${w}"`).join(', ')})` : '';
    return { action: 'drop_term', arg: dropped.join(' '), would_yield: r.hits, est_tokens: r.estTokens, hint: `ask "${r.query}" instead${why}` };
  });
}

/**
 * Words to add: ones that occur in some of the hits but not most, favouring
 * words rare in the repository (`rarity`: higher is rarer) that sit in the
 * best-ranked hits (`hitTerms` is in rank order). Only words that would
 * really narrow the answer are offered.
 */
export function termSuggestions(
  hitTerms: Set<string>[],
  queryTerms: Set<string>,
  summary: GateSummary,
  rarity: (terms: string[]) => Map<string, number>,
  run: (term: string) => Yield,
): Suggestion[] {
  const weight = new Map<string, number>();
  const count = new Map<string, number>();
  hitTerms.forEach((terms, rank) => {
    for (const t of terms) {
      if (t.length < 3 || /^\d/.test(t) || queryTerms.has(t)) continue;
      count.set(t, (count.get(t) ?? 0) + 1);
      weight.set(t, (weight.get(t) ?? 0) + 1 / (1 + rank / 10));
    }
  });
  const maxCount = Math.max(2, Math.floor(hitTerms.length * TERM_MAX_SHARE));
  const pool = [...weight.keys()]
    .filter((t) => count.get(t)! >= 2 && count.get(t)! <= maxCount)
    .sort((a, b) => weight.get(b)! - weight.get(a)! || byCodeUnit(a, b))
    .slice(0, RARITY_CANDIDATES);
  const rare = rarity(pool);
  const candidates = pool
    .map((t) => [t, weight.get(t)! * (rare.get(t) ?? 0)] as const)
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .slice(0, TERM_CANDIDATES)
    .map(([t]) => t);
  const out: Suggestion[] = [];
  for (const term of candidates) {
    const y = run(term);
    if (y.hits > 0 && y.hits <= summary.total_found * TERM_MAX_SHARE) {
      out.push({ action: 'add_term', arg: term, would_yield: y.hits, est_tokens: y.estTokens, hint: `add "${term}" to the query` });
    }
    if (out.length === TERM_SUGGESTIONS) break;
  }
  return out;
}
