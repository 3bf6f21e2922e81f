/**
 * `read`: the current text of a symbol or a line range. A range is widened to
 * its smallest enclosing definition when `expand` is on, so an agent gets a
 * whole function rather than half of one. Output is cut to `max_tokens`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from '../budget/index.js';
import { SightlineError, usageError } from '../errors/index.js';
import { readSource } from '../walk/index.js';
import { locate } from './locate.js';
import { repoPath } from './paths.js';
import type { Repo } from './repo.js';

export interface ReadOptions {
  target: string;
  expand?: boolean;
  maxTokens?: number;
}

export interface ReadEnvelope {
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
  /** Other definitions of the same name, when the target was an ambiguous symbol. */
  alternatives?: { path: string; start_line: number; symbol: string | null }[];
}

export const DEFAULT_READ_TOKENS = 6000;
/** An enclosing definition longer than this is not worth widening to. */
const MAX_EXPANSION_LINES = 400;

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

export async function read(repo: Repo, options: ReadOptions): Promise<ReadEnvelope> {
  const target = options.target?.trim();
  if (!target) throw usageError('read needs a target: a symbol name or path[:start[-end]]');
  const maxTokens = options.maxTokens ?? DEFAULT_READ_TOKENS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw usageError(`max_tokens must be a positive integer (got ${maxTokens})`);
  const span = parseTarget(repo, target);

  const source = await readSource(path.join(repo.root, span.path));
  if (!source.ok) {
    const why = { binary: 'is binary', unreadable: 'cannot be read', vanished: 'does not exist', too_large: 'is too large to read' }[source.reason];
    throw new SightlineError(source.reason === 'vanished' ? 'not_found' : 'usage', `${span.path} ${why}`);
  }
  const lines = source.text.split('\n');
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

  // Keep whole lines while they fit the budget.
  const out: string[] = [];
  let tokens = 0;
  let lineNo = start;
  for (; lineNo <= end; lineNo++) {
    const line = lines[lineNo - 1]!.replace(/\r$/, '');
    const cost = countTokens(line + '\n');
    if (tokens + cost > maxTokens && out.length > 0) break;
    out.push(line);
    tokens += cost;
  }
  const truncated = lineNo <= end;
  return {
    status: 'ok',
    path: span.path,
    start_line: start,
    end_line: truncated ? lineNo - 1 : end,
    symbol,
    reasons,
    content: out.join('\n'),
    tokens,
    truncated,
    ...(truncated ? { next_start_line: lineNo } : {}),
    ...(span.alternatives ? { alternatives: span.alternatives } : {}),
  };
}
