/**
 * `search` behind the gate: the question's matches (up to twice max_hits of
 * them) are judged for breadth, volume and relevance; a broad question gets
 * a refine answer, one that passes gets its first k results, cited and
 * trimmed to the token budget. The matches are the candidate pool before any
 * cutoff, the same in every mode: in hybrid mode the words' matches, which
 * decide whether hybrid answers at all (the fused list is cut to what is
 * worth reading, so it would hide how broad a word is).
 */
import {
  dropSuggestions,
  scopeSuggestions,
  termSuggestions,
  trimBudget,
  type GateHit,
  type GateLimits,
  type GateSummary,
  type RefineEnvelope,
  type QueryWord,
  type Rephrased,
  type Suggestion,
  type Yield,
} from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import { keywordRankDepth, pathFilter, searchTerms } from '../search/index.js';
import type { ResultItem, SearchEnvelope } from './envelope.js';
import { declares, exactName, type ExactName } from './exact-name.js';
import { expandResults } from './expansions.js';
import { citationProbe, limitsOf, narrowings, runGate, type GatedFields, type GateOptions } from './gated.js';
import { definitionIntent } from './locate.js';
import { coverage, heldByMatches, indexedTerms, queryWeights, rarity, type QueryWeights } from './relevance.js';
import type { Repo } from './repo.js';
import { DEFAULT_K } from './limits.js';
import { searchHits, type RankedWith, type SearchHits, type SearchOptions } from './search.js';

export type CitedResult = ResultItem & Citation & { tokens: number };

export interface GatedSearchEnvelope extends Omit<SearchEnvelope, 'results'>, GatedFields {
  results: CitedResult[];
  /** With `expand`: chunks added around the results (kind `expansion`), each naming the result it was added for. */
  expansions?: CitedResult[];
  /** Expansions left out because the results had used the token budget (`tokens` counts those delivered). */
  expansions_omitted?: number;
}

export interface ExpandOption {
  /** Add the neighbouring chunks, the siblings under the same class or module, and the imported definitions of each result. */
  expand?: boolean;
}

interface Matches {
  /** The pool's own answer (keyword, regex or semantic), best first. */
  answer: SearchHits;
  /** Each hit as judged: its relevance, and its semantic similarity (0 for a keyword match). */
  hits: (GateHit & { similarity: number })[];
  /** The query's weighed terms (keyword queries only), and which of them each hit holds. */
  weights?: QueryWeights;
  held: Set<string>[];
  /** The identifier the question is, when the index holds it: only hits holding it are matches (exact-name.ts). */
  exact?: ExactName;
}

/** A semantic match is as relevant as its similarity (reason `semantic:<similarity>`). */
function similarity(reasons: string[]): number {
  const r = reasons.find((x) => x.startsWith('semantic:'));
  return r ? Number(r.slice('semantic:'.length)) || 0 : 0;
}

/** A hit the ranking demoted for its file's role (reason `role:<role>`): the gate counts it last (relevantHits). */
function demoted(reasons: string[]): boolean {
  return reasons.some((r) => r.startsWith('role:'));
}

/** A hybrid answer fuses two lists and cuts the result; its candidate pool is the keyword list. */
const fuses = (options: SearchOptions) => !options.regex && (options.mode ?? 'hybrid') === 'hybrid';

/**
 * What is judged of a cached answer, kept with it: the matches and the
 * refusal's suggestions are pure in the answer (made for one index version),
 * its query and the gate's summary, and a repeated broad question is the
 * common case under load. Goes when the answer leaves the cache.
 */
const JUDGED = new WeakMap<SearchHits, { matches: Matches; suggested: Map<string, Suggestion[]> }>();

function judged(answer: SearchHits, judge: () => Matches): { matches: Matches; suggested: Map<string, Suggestion[]> } {
  let held = JUDGED.get(answer);
  if (!held) JUDGED.set(answer, (held = { matches: judge(), suggested: new Map() }));
  return held;
}

/** The candidate pool of a query with each match's relevance: a regex match is exact; a keyword match holds a share of the query. */
function matches(repo: Repo, options: SearchOptions, pool: number, within: RankedWith): Matches {
  const answer = searchHits(repo, { ...options, k: pool, ...(fuses(options) ? { mode: 'keyword' as const } : {}) }, within);
  return judged(answer, () => {
    if (options.regex) return { answer, hits: answer.hits.map((h) => ({ path: h.path, relevance: 1, similarity: 0 })), held: [] };
    const weights = queryWeights(repo.store, answer.envelope.query);
    const held = heldByMatches(repo.store, weights.weights.keys(), weights.df, answer.hits);
    const name = exactName(answer.envelope.query);
    const exact = name && weights.df.get(name.term) ? name : undefined;
    const hits = answer.hits.map((h, i) => {
      const words = !exact || held[i]!.has(exact.term) ? coverage(weights, held[i]!) : 0;
      const near = similarity(h.reasons);
      return { path: h.path, relevance: Math.max(words, near), similarity: near, ...(demoted(h.reasons) ? { demoted: true } : {}) };
    });
    return { answer, hits, weights, held, ...(exact ? { exact } : {}) };
  }).matches;
}

/**
 * The matches at hand that stay relevant when the query becomes `query` (a
 * word added or dropped): what that call would count, read from this pool
 * rather than by searching again. A lower bound when the pool was full.
 */
function relevantWith(repo: Repo, found: Matches, query: string, minRelevance: number): GateHit[] {
  const weights = queryWeights(repo.store, query);
  const known = found.weights?.weights ?? new Map<string, number>();
  const added = heldByMatches(repo.store, [...weights.weights.keys()].filter((t) => !known.has(t)), weights.df, found.answer.hits);
  const holds = (i: number) => ({ has: (t: string) => found.held[i]!.has(t) || added[i]!.has(t) });
  return found.hits.filter((h, i) => Math.max(coverage(weights, holds(i)), h.similarity) >= minRelevance);
}

/** Matches whose words are offered as a question of their own, when none covers enough of the question. */
const HELD_SAMPLE = 5;

/**
 * Words to drop from a question no match covers enough of: its searchable words, whether the index
 * holds each (the question's own document frequencies), and which of them each of its most
 * relevant matches holds; each question without some of them counted in this pool.
 */
function dropsFor(repo: Repo, found: Matches, limits: GateLimits, query: string, yieldOf: (n: number) => Yield): Suggestion[] {
  const spelled = query.split(/\s+/).filter(Boolean);
  // A word counts where the question's terms hold it: alone, "how" is searched; in a question, it is not.
  const inQuestion = new Set(searchTerms(query));
  const words = [...new Set(spelled)].map((word) => ({ word, terms: searchTerms(word).filter((t) => inQuestion.has(t)) })).filter((w) => w.terms.length > 0);
  const df = found.weights?.df;
  const asked: QueryWord[] = words.map(({ word, terms }) => ({ word, indexed: terms.some((t) => (df?.get(t) ?? 0) > 0) }));
  const best = found.hits
    .map((h, i) => ({ relevance: h.relevance, i }))
    .sort((a, b) => b.relevance - a.relevance || a.i - b.i)
    .slice(0, HELD_SAMPLE);
  const held = best.map(({ i }) => new Set(words.filter((w) => w.terms.some((t) => found.held[i]!.has(t))).map((w) => w.word)));
  const without = (dropped: ReadonlySet<string>): Rephrased | null => {
    const rephrased = spelled.filter((w) => !dropped.has(w)).join(' ');
    if (searchTerms(rephrased).length === 0) return null;
    const kept = relevantWith(repo, found, rephrased, limits.minRelevance);
    return { query: rephrased, files: new Set(kept.map((h) => h.path)).size, ...yieldOf(kept.length) };
  };
  return dropSuggestions(asked, held, limits, without);
}

/** Why an exact name is answered however broad: a hit declares it (a local definition the symbol table leaves out). */
function declaredIn(found: Matches): string | undefined {
  const exact = found.exact;
  if (!exact) return undefined;
  const at = found.answer.hits.find((h, i) => found.held[i]!.has(exact.term) && declares(h.text, exact.name));
  return at ? `"${exact.name}" names a definition (declared in ${at.path})` : undefined;
}

/** Relevant hits, the best first, whose words are weighed as words to add: the words of the best hits are the ones that split the rest. */
const TERM_SAMPLE = 30;

/**
 * Narrower calls for a refused question: scopes, and (for words) a word to add, each with what it
 * would yield; for a question no match covers enough of, words to drop.
 */
function suggestions(repo: Repo, options: SearchOptions, limits: GateLimits, found: Matches, hits: GateHit[], summary: GateSummary): Suggestion[] {
  // The estimate counts the relevant hits, or (none being relevant) the results it was made from.
  const perHit = summary.est_tokens / Math.max(1, summary.total_found || Math.min(found.answer.hits.length, options.k ?? DEFAULT_K));
  const yieldOf = (n: number): Yield => ({ hits: n, estTokens: Math.round(n * perHit) });
  const scopes = scopeSuggestions(hits, limits, (scope) => {
    const inScope = pathFilter({ scope });
    return yieldOf(hits.filter((h) => inScope(h.path)).length);
  });
  if (options.regex) return scopes;
  const relevant = found.answer.hits.filter((_, i) => found.hits[i]!.relevance >= limits.minRelevance).slice(0, TERM_SAMPLE).map(indexedTerms);
  const asked = new Set(searchTerms(found.answer.envelope.query));
  const withTerm = (term: string) => yieldOf(relevantWith(repo, found, `${options.query} ${term}`, limits.minRelevance).length);
  const terms = termSuggestions(relevant, asked, summary, (terms) => rarity(repo.store, terms), withTerm);
  if (summary.top_score >= limits.minRelevance) return [...scopes, ...terms];
  return [...scopes, ...terms, ...dropsFor(repo, found, limits, options.query, yieldOf)];
}

export function gatedSearch(repo: Repo, options: SearchOptions & GateOptions & ExpandOption): GatedSearchEnvelope | RefineEnvelope {
  const limits = limitsOf(repo, options);
  const probe = options.probe ?? citationProbe(repo);
  const k = options.k ?? DEFAULT_K;
  // An invalid k goes to search as it is, which refuses it with the reason.
  const valid = Number.isInteger(k) && k >= 1;
  const pool = valid ? Math.max(k, limits.maxHits * 2) : k;
  // The pool is ranked to the depth the answer's own ranking scores, so its first k are the answer's
  // (keyword), or its keyword ranking is the one a hybrid answer fuses (no second search).
  const found = matches(repo, options, pool, valid ? { depth: keywordRankDepth(k, options.mode ?? 'hybrid') } : {});
  // The gate judges the pool, and the cost of its first k; a hybrid answer is fused only once the gate passes it.
  let answer = found.answer;
  let shown = answer.hits.slice(0, k);
  const outcome = runGate(repo, { ...options, probe }, {
    hits: found.hits,
    items: shown.map((h) => h.wire),
    ...(fuses(options)
      ? {
          deliver: () => {
            const { ranking, signals } = found.answer;
            answer = searchHits(repo, options, ranking ? { keyword: ranking } : signals ? { signals } : {});
            shown = answer.hits.slice(0, k);
            return shown.map((h) => h.wire);
          },
        }
      : {}),
    answerBecause:
      narrowings({ k: options.k, files: options.files, regex: options.regex, scope: options.scope }) ??
      (options.regex ? undefined : (definitionIntent(repo, options.query) ?? declaredIn(found))),
    suggest: (hits, summary) => {
      const suggested = judged(found.answer, () => found).suggested;
      const key = JSON.stringify([options.query, !!options.regex, hits, summary]);
      let made = suggested.get(key);
      if (!made) suggested.set(key, (made = suggestions(repo, options, limits, found, hits, summary)));
      return made;
    },
  });
  if ('refine' in outcome) return outcome.refine;
  // A keyword total counts the hits the gate counted (those at least min_relevance), so it is what would_yield promised.
  const rest = answer.envelope;
  const total = options.regex ? found.answer.envelope.total : outcome.summary.total_found;
  if (!options.expand) return { ...rest, total, results: outcome.results, ...outcome.fields };
  // Expansions come after every result and only in what the results left of the budget; the results
  // delivered are the first of the hits shown (trimming keeps a prefix), so their chunks are known.
  const delivered = shown.slice(0, outcome.results.length).map((h) => h.chunkId);
  const added = expandResults(repo, delivered, trimBudget(limits, options.maxTokens) - outcome.fields.tokens, probe);
  const fields = { ...outcome.fields, tokens: outcome.fields.tokens + added.tokens };
  return { ...rest, total, results: outcome.results, expansions: added.kept, ...(added.omitted ? { expansions_omitted: added.omitted } : {}), ...fields };
}
