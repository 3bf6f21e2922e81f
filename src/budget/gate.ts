/**
 * The gate: before an answer goes out, is the question narrow enough to
 * answer well? Too many files (breadth), too many hits or tokens (volume), or
 * a best hit too weak (relevance) gets a `refine` answer instead: a summary,
 * where the hits are, and narrower calls with what each would yield. Two
 * limits missed at once is `compound`; a single limit missed by no more than
 * the compound margin passes. `force` passes, and so does the call after
 * `maxRefusals` refusals in a row in one session, so an agent is never stuck.
 * A call whose intent is plain is answered too — one that already narrowed
 * itself (an explicit k, one hit per file, a regex, a scope), or an exact
 * name with a definition: fewer results, trimmed to the budget, with a note
 * on how broad it was. Refusing it would ask for what it just did.
 */
import { distribution, type DirectoryHits } from './distribution.js';
import type { GateLimits } from './limits.js';

export type RefineReason = 'breadth' | 'volume' | 'relevance' | 'compound';

/** One match of the question: where it is and how relevant it is (0-1, normalised). */
export interface GateHit {
  path: string;
  relevance: number;
  /**
   * In a file the ranking demoted for this question (a test, a doc, an example, a translation, a
   * generated or vendored copy, … not named by the question): not counted while other hits are.
   */
  demoted?: boolean;
}

export interface GateSummary {
  total_found: number;
  files: number;
  est_tokens: number;
  top_score: number;
}

export interface Suggestion {
  action: 'narrow_scope' | 'add_term' | 'drop_term' | 'narrow_kind' | 'use_force';
  arg?: string;
  /** Hits the narrower call would yield, counted by running it. */
  would_yield: number;
  /** Tokens the narrower call's answer would take, where that is known. */
  est_tokens?: number;
  hint: string;
}

export interface RefineEnvelope {
  status: 'refine';
  reason: RefineReason;
  summary: GateSummary;
  distribution: DirectoryHits[];
  suggestions: Suggestion[];
  refusal_count: number;
  note: string;
}

/** Consecutive refusals so far in the caller's session. */
export interface RefusalLedger {
  count(): number;
  /** Counts this refusal, atomically with the session's other calls: the count after, or 0 when `max` were counted and the gate opens. */
  refuse(max: number): number;
  /** Ends the run: an answer went out. */
  clear(): void;
  /** False for a call in no session: its refusals are forgotten, so the gate never opens by itself. */
  remembers: boolean;
}

/** A ledger kept in memory for as long as the object lives. */
export function memoryLedger(remembers = true): RefusalLedger {
  let n = 0;
  return { count: () => n, refuse: (max) => (n = n >= max ? 0 : n + 1), clear: () => void (n = 0), remembers };
}

export interface GateInput {
  /** Every match the question has (not only those the caller asked to see). */
  hits: GateHit[];
  /** Tokens the full answer would take. */
  estTokens: number;
  force?: boolean;
  limits: GateLimits;
  ledger: RefusalLedger;
  /** Narrower calls, built only when the gate refuses; `hits` are the relevant ones, best first. */
  suggest: (hits: GateHit[], summary: GateSummary) => Suggestion[];
  /** Results a forced call would return after trimming. */
  forcedYield: number;
  /** Why this call is answered however broad (`the call set k: 5`, `"Foo" names a definition`), if it is. */
  answerBecause?: string;
}

export type GateDecision =
  | { pass: true; summary: GateSummary; note?: string }
  | { pass: false; refine: RefineEnvelope };

/**
 * Matches at least as relevant as the floor: the ones that count as hits. The gate judges what the
 * answer leads with, so demoted hits count only when nothing else does: sphinx's 71 translation
 * catalogs saying "extensions" do not make "how are extensions loaded" broad, nor the MCP SDK's 83
 * test hits "how does the client connect to a server"; a word found only in tests is still counted
 * there, and judged.
 */
export function relevantHits(hits: GateHit[], limits: GateLimits): GateHit[] {
  const relevant = hits.filter((h) => h.relevance >= limits.minRelevance);
  const leading = relevant.filter((h) => !h.demoted);
  return leading.length > 0 ? leading : relevant;
}

export function summarize(hits: GateHit[], estTokens: number, limits: GateLimits): GateSummary {
  const counted = relevantHits(hits, limits);
  return {
    total_found: counted.length,
    files: new Set(counted.map((h) => h.path)).size,
    est_tokens: estTokens,
    top_score: Math.round(Math.max(0, ...hits.map((h) => h.relevance)) * 1000) / 1000,
  };
}

/** Which limits the answer misses, and whether it misses them by more than the margin. */
export function assess(summary: GateSummary, hitCount: number, limits: GateLimits): RefineReason | null {
  if (hitCount === 0) return null; // nothing matched: an empty answer is not a flood
  const m = limits.compoundMargin;
  const misses: { axis: RefineReason; near: boolean }[] = [];
  if (summary.files > limits.maxFiles) misses.push({ axis: 'breadth', near: summary.files <= limits.maxFiles * (1 + m) });
  const hitsOver = summary.total_found > limits.maxHits;
  const tokensOver = summary.est_tokens > limits.absoluteMaxTokens;
  if (hitsOver || tokensOver) {
    const near = (!hitsOver || summary.total_found <= limits.maxHits * (1 + m)) && (!tokensOver || summary.est_tokens <= limits.absoluteMaxTokens * (1 + m));
    misses.push({ axis: 'volume', near });
  }
  if (summary.top_score < limits.minRelevance) misses.push({ axis: 'relevance', near: summary.top_score >= limits.minRelevance * (1 - m) });
  if (misses.length === 0) return null;
  if (misses.length > 1) return 'compound';
  return misses[0]!.near ? null : misses[0]!.axis;
}

const WHY: Record<RefineReason, string> = {
  breadth: 'the question touches too many files',
  volume: 'the question has too many hits to answer within budget',
  relevance: 'no match covers enough of the question',
  compound: 'the question is too broad on more than one count',
};

/** An answer let through by the margin on relevance: its results are the nearest, and `total` (hits over the floor) counts none of them. */
function weakNote(summary: GateSummary, limits: GateLimits): string {
  // The best rounded down, so that it never reads as the floor it is under (0.348: 34 %, not 35 %).
  const pct = (x: number, round: (n: number) => number) => `${round(x * 100)} %`;
  return `weak matches: the best holds ${pct(summary.top_score, Math.floor)} of the question's weight, under the ${pct(limits.minRelevance, Math.round)} a hit needs to count; answered with the nearest, which total does not count`;
}

export function gate(input: GateInput): GateDecision {
  const { limits, ledger } = input;
  const summary = summarize(input.hits, input.estTokens, limits);
  const reason = assess(summary, input.hits.length, limits);
  const before = ledger.count();
  const answered = () => {
    if (before !== 0) ledger.clear();
  };
  if (input.force) {
    answered();
    return { pass: true, summary, ...(reason ? { note: `forced past the gate (${reason}); trimmed to the token budget` } : {}) };
  }
  if (!reason) {
    answered();
    return { pass: true, summary, ...(summary.top_score < limits.minRelevance ? { note: weakNote(summary, limits) } : {}) };
  }
  if (input.answerBecause) {
    answered();
    return {
      pass: true,
      summary,
      note: `${WHY[reason]} (${reason}: ${summary.total_found} hits in ${summary.files} files); answered with the best within the token budget because ${input.answerBecause}`,
    };
  }
  // Counted and decided in one step, so concurrent calls of one session each count and at most one opens the gate.
  const count = ledger.refuse(limits.maxRefusals);
  if (count === 0) {
    return {
      pass: true,
      summary,
      note: `the gate opened after ${limits.maxRefusals} refusals in a row in this session: ${WHY[reason]} (${reason}); answered anyway, trimmed to the token budget`,
    };
  }
  const counted = relevantHits(input.hits, limits);
  const suggestions = [
    ...input.suggest(counted, summary),
    { action: 'use_force' as const, would_yield: input.forcedYield, hint: 'pass force: true to answer anyway with the best results, trimmed to the token budget' },
  ];
  const left = limits.maxRefusals - count;
  const escape = !ledger.remembers
    ? ', or pass force (refusals are counted only within a session)'
    : left > 0
      ? `, or after ${left} more refusal${left === 1 ? '' : 's'} in a row the gate opens`
      : ', or ask again and the gate opens';
  return {
    pass: false,
    refine: {
      status: 'refine',
      reason,
      summary,
      distribution: distribution(counted.map((h) => h.path)),
      suggestions,
      refusal_count: count,
      note: `${WHY[reason]}; narrow it with a suggestion below${escape}`,
    },
  };
}
