/**
 * `context`: what a task needs, in one call, under a hard token ceiling.
 * Files are ranked for the task (and the exact identifiers it names), then
 * packed best first at the richest detail that fits: the slices that matched
 * with their neighbours, the file's outline, or just its path. The response
 * as delivered, JSON and all, never exceeds `budget_tokens`; when not even
 * one entry fits it fails closed and says what budget would do.
 *
 * Every delivered unit has a receipt. Units the caller holds (receipts sent
 * back in `seen`, or delivered earlier in the same session) and files it
 * holds whole (`known` path@hash claims, honoured only for a version that
 * was delivered whole) are not sent again: they are listed in `reused`.
 */
import { countTokens, pack, selfCountedTokens, trimToBudget } from '../budget/index.js';
import type { Citation, CitationProbe } from '../cite/index.js';
import { checkQuery, usageError } from '../errors/index.js';
import { indexSource, type IndexSource } from '../index/index.js';
import type { MemoryHit } from '../memory/index.js';
import type { SearchMode } from '../search/index.js';
import { BundleDraft, drawn, envelopeFor, fitLists, type Frame, type Plan, type Planned } from './context-draft.js';
import { withExpansions } from './context-expansions.js';
import { honourClaims, receiptBook, recordDelivered, UnitCache, type KnownIgnored } from './context-held.js';
import { rankFilesFor } from './context-rank.js';
import type { SearchEnvelope } from './envelope.js';
import { citationProbe } from './gated.js';
import type { IndexReadiness } from './jobs.js';
import type { Repo } from './repo.js';
import { MAX_BUDGET_TOKENS, MAX_TOP, MIN_BUDGET_TOKENS } from './limits.js';
export type ContextDetail = 'paths' | 'outline' | 'slices';

export interface ContextOptions {
  task: string;
  /** Exact identifiers the task is about: their definitions rank first. */
  terms?: string[];
  scope?: string;
  /** Most entries (default: config contextTop, 15; at most 50). */
  top?: number;
  /** Ceiling for the whole response (default: config contextBudgetTokens, 8,192; at most 200,000). */
  budgetTokens?: number;
  detail?: ContextDetail | 'auto';
  /** Receipts of units the caller already holds. */
  seen?: string[];
  /** `path@content_hash` claims of files the caller holds whole. */
  known?: string[];
  /** Keeps receipts across calls (in the index database, for a day). */
  session?: string;
  probe?: CitationProbe;
  /** At `slices` detail, spend what the slices leave of the budget on their expansions (default true). */
  expand?: boolean;
  /** The index job's phase, which the face reports while the first index builds; part of the response, so counted. */
  phase?: IndexReadiness;
  /** Memory entries that hold the task's words (engine/remembered.ts): sent within MEMORY_SHARE of the budget. */
  remembered?: MemoryHit[];
}

export interface ContextUnitRef {
  receipt: string;
  /** First and last line (1-based, inclusive). */
  lines: [number, number];
  symbol?: string;
  /** An expansion's reasons: `neighbor-of:`, `sibling-of:` or `imported-by:<path>:<line>` of a unit it was added for. */
  reasons?: string[];
}

export interface ContextEntry extends Citation {
  path: string;
  reasons: string[];
  content_hash: string;
  /** Tokens to read the whole file. */
  full_read_tokens: number;
  /** Exact tokens of `content`. */
  tokens: number;
  /** The entry holds every unit of the file: the whole file, delivered. */
  whole?: true;
  units?: ContextUnitRef[];
  /** The units' text in line order; `⋮` marks code left out between them. */
  content?: string;
}

export interface ReusedEntry {
  path: string;
  content_hash: string;
  /** Units not sent again because the caller holds them. */
  units?: number;
  /** The caller holds the whole file (a `known` claim honoured). */
  whole?: true;
}

export interface ContextEnvelope {
  status: 'ok';
  mode: SearchMode;
  detail: ContextDetail;
  budget_tokens: number;
  /** Tokens of this whole response as delivered (its JSON text). */
  response_tokens: number;
  entries: ContextEntry[];
  reused: ReusedEntry[];
  /** Reused files left out of `reused` to stay within budget. */
  reused_omitted?: number;
  /** Of the top files with something to send, how many did not fit. */
  omitted: number;
  /** Whole-file tokens of the files delivered whole in this response. */
  reads_replaced_tokens: number;
  /** Claims not honoured, and why. */
  known_ignored?: { claim: string; reason: 'not_delivered_whole' | 'version_changed' | 'not_indexed' }[];
  /** Set when nothing fit: a budget guaranteed to admit at least one entry. */
  retry_budget_tokens?: number;
  note?: string;
  /** What agents remembered about the task's words (see docs/memory.md). */
  memory?: (MemoryHit & { tokens: number })[];
  /** What the local index was built from (commit, digest), so bundles from two servers can be compared. */
  index_source?: IndexSource;
  retrieval_phase: NonNullable<SearchEnvelope['retrieval_phase']>;
}

/** Remembered entries take at most this share of a bundle's budget: the code is what the bundle is for. */
const MEMORY_SHARE = 1 / 8;

/** Ranked files considered per entry wanted, so reused files can be skipped and small ones fill the budget. */
const CANDIDATES_PER_ENTRY = 4;
/** Room for what differs between a fail-closed answer and the retry (numbers, notes). */
const RETRY_SLACK = 16;

function validate(repo: Repo, options: ContextOptions) {
  const task = options.task?.trim() ?? '';
  const terms = (options.terms ?? []).map((t) => t.trim()).filter(Boolean);
  checkQuery(task, 'task');
  terms.forEach((t, i) => checkQuery(t, `terms[${i}]`));
  if (!task && terms.length === 0) throw usageError('context needs a task: a sentence saying what you are about to do');
  const top = options.top ?? repo.config.contextTop;
  if (!Number.isInteger(top) || top < 1 || top > MAX_TOP) throw usageError(`top must be a whole number from 1 to ${MAX_TOP} (got ${top})`);
  const budget = options.budgetTokens ?? repo.config.contextBudgetTokens;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET_TOKENS || budget > MAX_BUDGET_TOKENS) {
    throw usageError(`budget_tokens must be a whole number from ${MIN_BUDGET_TOKENS} to ${MAX_BUDGET_TOKENS} (got ${budget})`);
  }
  const detail = options.detail ?? repo.config.contextDetail;
  if (!['paths', 'outline', 'slices', 'auto'].includes(detail)) throw usageError(`detail must be paths, outline, slices or auto (got ${detail})`);
  return { task, terms, top, budget, levels: detail === 'auto' ? (['slices', 'outline', 'paths'] as const) : [detail as ContextDetail] };
}

/**
 * The steps: read what the caller holds, rank the files, then at each detail
 * level from the richest plan what to send and pack it under the ceiling; the
 * first level that fits an entry answers (with its expansions at `slices`).
 */
export function packContext(repo: Repo, options: ContextOptions): ContextEnvelope {
  const { task, terms, top, budget, levels } = validate(repo, options);
  const memory = trimToBudget(options.remembered ?? [], Math.floor(budget * MEMORY_SHARE)).kept;
  // Carried by every answer, counted in it: what agents remembered, and what the index was built from.
  const carried: Partial<ContextEnvelope> = { ...(memory.length ? { memory } : {}), index_source: indexSource(repo.store) };
  const units = new UnitCache(repo.store);
  const book = receiptBook(repo, options.session, options.seen ?? []);
  const held = honourClaims(repo.store, options.known ?? [], book, units);
  const ranked = rankFilesFor(repo, [task, ...terms].join(' '), terms, options.scope, Math.min(500, top * CANDIDATES_PER_ENTRY));
  // As the MCP face reports it: the first index still building, else how far the search's vectors are.
  const phase = options.phase === 'building' ? 'building' : (ranked.phase ?? options.phase ?? 'serving');
  const frame: Frame = { mode: ranked.mode, budget, top, phase };
  const draft = new BundleDraft(repo, options.probe ?? citationProbe(repo), units, book.holds);

  let last: Plan | null = null;
  for (const level of levels) {
    const plan = (last = draft.plan(level, ranked.files, held.whole));
    if (plan.candidates.length === 0) break; // nothing new to send: a poorer detail would only repeat it
    const build = envelopeFor(frame, plan, fitLists(frame, plan, held.ignored, carried), carried);
    const render = drawn(build);
    const room = budget - countTokens(render([], budget));
    let packed = pack({ budget, top, candidates: draft.candidates(plan, budget, room, top), render });
    // Names alone are an answer at `paths` detail only: at a richer one, the next detail may fit more.
    if (!packed.picks.some((p) => p.take > 0 || plan.candidates[p.candidate]!.units.length === 0)) continue;
    if (level === 'slices' && options.expand !== false) packed = withExpansions(plan, packed, { repo, draft, holds: book.holds, budget, top, render });
    recordDelivered(book, repo.store, packed.entries, units, options.session);
    return build(packed.entries, packed.responseTokens);
  }
  return failClosed(frame, last!, held.ignored, carried, draft, ranked.files.length === 0);
}

/** Nothing fit, or nothing was new: an answer with no entries saying what budget would admit one, or why there is none. */
function failClosed(frame: Frame, plan: Plan, knownIgnored: KnownIgnored, carried: Partial<ContextEnvelope>, draft: BundleDraft, nothingMatched: boolean): ContextEnvelope {
  const { budget, top } = frame;
  const extra: Partial<ContextEnvelope> = { ...carried };
  if (plan.candidates.length > 0) {
    // Everything the next call will list too, plus the cheapest entry.
    const full = envelopeFor(frame, plan, { reused: plan.reused, reusedOmitted: 0, knownIgnored }, carried);
    const one = (c: Planned) => selfCountedTokens((n) => drawn(full)([draft.entry(c, c.units.length ? 1 : 0)], n));
    extra.retry_budget_tokens = Math.min(...plan.candidates.slice(0, top).map(one)) + RETRY_SLACK;
    extra.note = `nothing fits in ${budget} tokens at detail ${plan.level}; retry with budget_tokens ${extra.retry_budget_tokens}`;
  } else {
    extra.note = nothingMatched ? 'nothing matched the task; try other words or exact identifiers in terms' : 'everything relevant was already delivered (see reused)';
  }
  const build = envelopeFor(frame, plan, fitLists(frame, plan, knownIgnored, extra), extra);
  return build([], selfCountedTokens((n) => drawn(build)([], n)));
}
