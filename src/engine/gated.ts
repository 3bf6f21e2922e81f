/**
 * What every gated answer (search, locate, read, explore) shares: the
 * session's refusal ledger, the request's citation probe, and the step that
 * runs the gate, trims what passed to the token budget and cites it.
 */
import {
  gate,
  gateLimits,
  memoryLedger,
  relevantHits,
  selfCountedJson,
  trimBudget,
  trimToBudget,
  type GateHit,
  type GateLimits,
  type GateSummary,
  type RefineEnvelope,
  type RefusalLedger,
  type Suggestion,
} from '../budget/index.js';
import { CitationProbe, type Citation } from '../cite/index.js';
import { checkSession, usageError } from '../errors/index.js';
import type { Repo } from './repo.js';

export interface GateOptions {
  /** Answer even a question the gate would refuse (never past the absolute ceiling). */
  force?: boolean;
  /** Trim an answer that passes to this many tokens (default: the configured maxTokens). */
  maxTokens?: number;
  /** The session whose consecutive refusals the gate counts: an MCP session id, or --session. */
  session?: string;
  /** The request's probe, when other parts of the request cite files too. */
  probe?: CitationProbe;
}

/** Fields an answer that passed the gate adds to its envelope. */
export interface GatedFields {
  /** Tokens of the results delivered. */
  tokens: number;
  /** Results cut to stay within the token budget. */
  omitted: number;
  /** Why this answer passed although the gate would have refused it (forced, or the gate opened). */
  gate_note?: string;
}

/** A probe for one request: cite everything the request returns through it (answerFresh refuses outdated files). */
export function citationProbe(repo: Repo, options: { refuseOutdated?: boolean } = {}): CitationProbe {
  return new CitationProbe({ root: repo.root, lookup: (p) => repo.store.files.get(p), ...options });
}

/**
 * Session bookkeeping is best effort: an index that cannot be written now
 * (read-only, locked by a long write, disk full) still answers, without it.
 */
export function bestEffort(write: () => void): void {
  try {
    write();
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (!/^SQLITE_(READONLY|BUSY|LOCKED|FULL|IOERR|CANTOPEN)/.test(code)) throw err;
  }
}

/** The session's run of refusals, kept in the index (or the team database) so a CLI --session carries it across processes. */
export function refusalLedger(repo: Repo, session: string | undefined): RefusalLedger {
  if (!session) return memoryLedger(false);
  checkSession(session);
  const sessions = repo.sessions;
  let seen = 0;
  return {
    count: () => {
      bestEffort(() => sessions.touch(session));
      return (seen = sessions.refusals(session));
    },
    refuse: (max) => {
      let after: number | undefined;
      bestEffort(() => void (after = sessions.refuse(session, max)));
      return after ?? (seen >= max ? 0 : seen + 1); // not written (the index cannot be now): decided from what was read
    },
    clear: () => bestEffort(() => sessions.clearRefusals(session)),
    remembers: true,
  };
}

/** The named settings that are set, as the gate's reason to answer a call that narrowed itself; undefined when none is. */
export function narrowings(settings: Record<string, string | number | boolean | undefined>): string | undefined {
  const set = Object.entries(settings).flatMap(([name, v]) => (v === undefined || v === false || v === '' ? [] : [v === true ? name : `${name}: ${v}`]));
  return set.length ? `the call set ${set.join(', ')}` : undefined;
}

export function limitsOf(repo: Repo, options: GateOptions): GateLimits {
  const { maxTokens } = options;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw usageError(`max_tokens must be a positive integer (got ${maxTokens})`);
  }
  return gateLimits(repo.config);
}

/** A listing answer's budget (the call's max_tokens, checked, else the configured one) and what to say when it cuts. */
export function listingBudget(repo: Repo, maxTokens: number | undefined): { budget: number; more: (narrower: string) => string } {
  const limits = limitsOf(repo, { maxTokens });
  const budget = trimBudget(limits, maxTokens);
  const ceiling = limits.absoluteMaxTokens;
  return { budget, more: (narrower) => (budget < ceiling ? `pass max_tokens (up to ${ceiling}) for more, or ${narrower}` : narrower) };
}

export interface GateRun<T> {
  /** Every match of the question, best first. */
  hits: GateHit[];
  /** What the caller asked to see (its first k), best first: what the answer's cost is estimated from, and what it sends unless `deliver` says otherwise. */
  items: T[];
  /** What a call that passes sends instead of `items` (a hybrid answer's fused list), made only once it passes. */
  deliver?: () => T[];
  /** Narrower calls and what each yields, built only on refusal; `hits` are the relevant ones. */
  suggest: (hits: GateHit[], summary: GateSummary) => Suggestion[];
  /** Why the call is answered within budget however broad (see gate.ts), if it is. */
  answerBecause?: string;
}

export type Gated<T> = { refine: RefineEnvelope } | { results: (T & Citation & { tokens: number })[]; fields: GatedFields; summary: GateSummary };

/** Runs the gate over a question's matches; what passes is cited and trimmed, best first. */
export function runGate<T extends { path: string }>(repo: Repo, options: GateOptions, run: GateRun<T>): Gated<T> {
  const limits = limitsOf(repo, options);
  const probe = options.probe ?? citationProbe(repo);
  const trimmed = trimToBudget(probe.cite(run.items), trimBudget(limits, options.maxTokens));
  // The whole answer's cost, extrapolated from the exact cost of the results at hand.
  const perResult = trimmed.kept.length ? trimmed.tokens / trimmed.kept.length : run.items.length ? selfCountedJson(run.items[0]!, 'tokens') : 0;
  const estTokens = Math.round(perResult * Math.max(relevantHits(run.hits, limits).length, trimmed.kept.length));
  const decision = gate({
    hits: run.hits,
    estTokens,
    force: options.force,
    limits,
    ledger: refusalLedger(repo, options.session),
    suggest: run.suggest,
    forcedYield: trimmed.kept.length,
    answerBecause: run.answerBecause,
  });
  if (!decision.pass) return { refine: decision.refine };
  const sent = run.deliver ? trimToBudget(probe.cite(run.deliver()), trimBudget(limits, options.maxTokens)) : trimmed;
  const fields: GatedFields = { tokens: sent.tokens, omitted: sent.omitted, ...(decision.note ? { gate_note: decision.note } : {}) };
  return { results: sent.kept, fields, summary: decision.summary };
}
