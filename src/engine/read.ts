/**
 * `read`: the current text of a symbol or a line range. A range is widened to
 * its smallest enclosing definition when `expand` is on, so an agent gets a
 * whole function rather than half of one. Output is cut to `max_tokens`;
 * behind the gate, a span too big to answer gets a refine answer instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countTokens, gate, jsonTokens, trimBudget, type RefineEnvelope, type Suggestion } from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import { SightlineError, usageError } from '../errors/index.js';
import { citationProbe, limitsOf, refusalLedger, type GateOptions } from './gated.js';
import { locate } from './locate.js';
import { readRepoSource, repoPath } from './paths.js';
import type { Repo } from './repo.js';

export interface ReadOptions {
  target: string;
  expand?: boolean;
  maxTokens?: number;
}

export interface ReadEnvelope extends Citation {
  status: 'ok';
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  reasons: string[];
  content: string;
  tokens: number;
  truncated: boolean;
  /** Where to continue when the text was cut to fit max_tokens. */
  next_start_line?: number;
  /** When the first line alone is over max_tokens: only its head is shown, and the read moves on past it. */
  line_cut?: { line: number; shown_chars: number; total_chars: number };
  /** Other definitions of the same name, when the target was an ambiguous symbol. */
  alternatives?: { path: string; start_line: number; symbol: string | null }[];
  /** Why this read passed although the gate would have refused it. */
  gate_note?: string;
}

/** An enclosing definition longer than this is not worth widening to. */
const MAX_EXPANSION_LINES = 400;
/** Narrower reads offered when a span is too big to answer. */
const NARROWER_SPANS = 3;

interface Span {
  path: string;
  start?: number;
  end?: number;
  symbol: string | null;
  reasons: string[];
  alternatives?: ReadEnvelope['alternatives'];
}

function parseTarget(repo: Repo, target: string): Span {
  const range = /^(.+?):(\d+)(?:-(\d+))?$/.exec(target);
  if (range) {
    const start = Number(range[2]);
    const end = range[3] ? Number(range[3]) : start;
    if (start < 1 || end < start) throw usageError(`invalid line range ${range[2]}-${range[3] ?? range[2]}: lines are 1-based and start <= end`);
    return { path: repoPath(repo, range[1]!), start, end, symbol: null, reasons: ['range'] };
  }
  const looksLikePath = /[/\\]/.test(target) || fs.existsSync(path.resolve(repo.root, target));
  if (looksLikePath) return { path: repoPath(repo, target), symbol: null, reasons: ['file'] };
  const found = locate(repo, { query: target, kind: 'definition', maxResults: 10 }).results;
  if (found.length === 0) {
    throw new SightlineError('not_found', `no file or symbol named "${target}"; try search or locate to find it`);
  }
  const [best, ...rest] = found;
  return {
    path: best!.path,
    start: best!.start_line,
    end: best!.end_line,
    symbol: best!.symbol,
    reasons: [`symbol:${target}`],
    alternatives: rest.length ? rest.map((r) => ({ path: r.path, start_line: r.start_line, symbol: r.symbol })) : undefined,
  };
}

/** The smallest indexed definition that contains [start, end]. */
function enclosing(repo: Repo, filePath: string, start: number, end: number) {
  const file = repo.store.files.get(filePath);
  if (!file) return undefined;
  return repo.store.symbols
    .ofFileId(file.id)
    .filter((s) => s.startLine <= start && s.endLine >= end && s.endLine - s.startLine < MAX_EXPANSION_LINES)
    .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
}

interface ResolvedSpan {
  path: string;
  lines: string[];
  start: number;
  end: number;
  symbol: string | null;
  reasons: string[];
  alternatives?: ReadEnvelope['alternatives'];
}

/** The target as lines of the file on disk, widened to its enclosing block when asked. */
async function resolve(repo: Repo, options: ReadOptions): Promise<ResolvedSpan> {
  const target = options.target?.trim();
  if (!target) throw usageError('read needs a target: a symbol name or path[:start[-end]]');
  const span = parseTarget(repo, target);
  const source = readRepoSource(repo, span.path);
  if (!source.ok) {
    const why = { binary: 'is binary', unreadable: 'cannot be read', vanished: 'does not exist', too_large: 'is too large to read' }[source.reason];
    throw new SightlineError(source.reason === 'vanished' ? 'not_found' : 'usage', `${span.path} ${why}`);
  }
  const lines = source.text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let start = span.start ?? 1;
  let end = Math.min(span.end ?? lines.length, lines.length);
  if (start > lines.length) throw usageError(`${span.path} has ${lines.length} lines; line ${start} does not exist`);
  let symbol = span.symbol;
  const reasons = [...span.reasons];
  if (span.reasons[0] === 'range' && options.expand !== false) {
    const block = enclosing(repo, span.path, start, end);
    if (block && (block.startLine < start || block.endLine > end)) {
      start = block.startLine;
      end = Math.min(block.endLine, lines.length);
      symbol = block.qualified;
      reasons.push(`expanded-to:${block.qualified}`);
    }
  }
  return { path: span.path, lines, start, end, symbol, reasons, ...(span.alternatives ? { alternatives: span.alternatives } : {}) };
}

/**
 * Whole lines, first to last, while they fit the budget (the count then made exact), cited.
 * The text is counted as it is sent, a JSON string: escaped newlines, quotes and tabs cost
 * tokens of their own, a third more than the raw text on indented code.
 */
function answer(repo: Repo, s: ResolvedSpan, budget: number, options: GateOptions, note?: string): ReadEnvelope {
  const out: string[] = [];
  let tokens = 0;
  for (let lineNo = s.start; lineNo <= s.end; lineNo++) {
    const cost = countTokens(JSON.stringify(s.lines[lineNo - 1]! + '\n').slice(1, -1));
    if (tokens + cost > budget) break;
    out.push(s.lines[lineNo - 1]!);
    tokens += cost;
  }
  tokens = jsonTokens(out.join('\n'));
  while (tokens > budget) {
    out.pop();
    tokens = jsonTokens(out.join('\n'));
  }
  // A first line over the whole budget: its head, so a page is never empty and the next one always moves on.
  let lineCut: ReadEnvelope['line_cut'];
  if (out.length === 0 && s.start <= s.end) {
    const line = s.lines[s.start - 1]!;
    const head = headThatFits(line, budget);
    out.push(head);
    tokens = jsonTokens(head);
    lineCut = { line: s.start, shown_chars: head.length, total_chars: line.length };
  }
  const more = s.start + out.length <= s.end;
  const truncated = more || lineCut !== undefined;
  const probe = options.probe ?? citationProbe(repo);
  return {
    status: 'ok',
    path: s.path,
    start_line: s.start,
    end_line: truncated ? s.start + out.length - 1 : s.end,
    symbol: s.symbol,
    reasons: s.reasons,
    content: out.join('\n'),
    tokens,
    truncated,
    ...(more ? { next_start_line: s.start + out.length } : {}),
    ...(lineCut ? { line_cut: lineCut } : {}),
    ...(s.alternatives ? { alternatives: s.alternatives } : {}),
    ...probe.check(s.path),
    ...(note ? { gate_note: note } : {}),
  };
}

/** The longest head of `line` whose JSON string fits `budget` tokens (a binary search: counting is linear). */
function headThatFits(line: string, budget: number): string {
  let lo = 0;
  let hi = line.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonTokens(line.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  // Never half a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(line.slice(0, lo)) ? line.slice(0, lo - 1) : line.slice(0, lo);
}

/** The text of a target, cut to max_tokens (never above the absolute ceiling). */
export async function read(repo: Repo, options: ReadOptions & GateOptions): Promise<ReadEnvelope> {
  const budget = trimBudget(limitsOf(repo, options), options.maxTokens);
  return answer(repo, await resolve(repo, options), budget, options);
}

/** `read` behind the gate: a span too big to answer gets a refine answer naming narrower spans. */
export async function gatedRead(repo: Repo, options: ReadOptions & GateOptions): Promise<ReadEnvelope | RefineEnvelope> {
  const limits = limitsOf(repo, options);
  const s = await resolve(repo, options);
  const spanTokens = (from: number, to: number) => countTokens(s.lines.slice(from - 1, to).join('\n'));
  const decision = gate({
    hits: [{ path: s.path, relevance: 1 }],
    estTokens: spanTokens(s.start, s.end),
    force: options.force,
    limits,
    ledger: refusalLedger(repo, options.session),
    suggest: () => narrowerSpans(repo, s.path, s.start, s.end, spanTokens),
    forcedYield: 1,
  });
  if (!decision.pass) return decision.refine;
  return answer(repo, s, trimBudget(limits, options.maxTokens), options, decision.note);
}

/** For a refused read: the biggest definitions inside the span, each a narrower read. */
function narrowerSpans(repo: Repo, filePath: string, start: number, end: number, tokensOf: (from: number, to: number) => number): Suggestion[] {
  const file = repo.store.files.get(filePath);
  if (!file) return [];
  const inside = repo.store.symbols.ofFileId(file.id).filter((s) => s.startLine >= start && s.endLine <= end && !(s.startLine === start && s.endLine === end));
  return inside
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine) || a.startLine - b.startLine)
    .slice(0, NARROWER_SPANS)
    .sort((a, b) => a.startLine - b.startLine)
    .map((s) => {
      const arg = `${filePath}:${s.startLine}-${s.endLine}`;
      return { action: 'narrow_scope', arg, would_yield: 1, est_tokens: tokensOf(s.startLine, s.endLine), hint: `read target "${arg}" (${s.kind} ${s.qualified})` };
    });
}
