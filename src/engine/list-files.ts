/**
 * `list_files`: the indexed files, filtered by glob and language, in path order, a page at a
 * time. A page ends at max_results or the token budget; `next_cursor` continues after its last
 * path, so files added or removed between calls neither repeat nor shift the pages.
 */
import { fitLists, type FitFields } from '../budget/index.js';
import { usageError } from '../errors/index.js';
import { byCodeUnit } from '../order.js';
import { callerGlob } from '../search/index.js';
import { listingBudget } from './gated.js';
import type { Repo } from './repo.js';

export interface ListFilesOptions {
  glob?: string;
  language?: string;
  maxResults?: number;
  maxTokens?: number;
  /** A previous page's next_cursor, with the same glob and language. */
  cursor?: string;
}

export interface ListedFile {
  path: string;
  language: string | null;
  kind: string;
  lines: number;
  /** Tokens to read the whole file, estimated from its chunks. */
  est_tokens: number;
  bytes: number;
}

export interface ListFilesEnvelope extends FitFields {
  status: 'ok';
  /** Files matching the filters, on every page. */
  total: number;
  files: ListedFile[];
  /** Pass it as cursor for the files after this page; absent on the last page. */
  next_cursor?: string;
}

const DEFAULT_MAX = 200;

/** What a cursor carries: the last path shown, and the filters it was listed under. */
interface Cursor {
  after: string;
  glob: string | null;
  language: string | null;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.after, c.glob, c.language])).toString('base64url');
}

function decodeCursor(text: string, filters: Omit<Cursor, 'after'>): string {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  const valid = Array.isArray(parts) && parts.length === 3 && typeof parts[0] === 'string' && parts.slice(1).every((p) => p === null || typeof p === 'string');
  if (!valid) throw usageError('cursor is not one list_files gave; pass next_cursor from the previous page unchanged, or leave cursor out to start from the first file');
  const [after, glob, language] = parts as [string, string | null, string | null];
  if (glob !== filters.glob || language !== filters.language) {
    throw usageError(`cursor continues a listing with glob ${glob ?? '(none)'} and language ${language ?? '(none)'}; pass the same glob and language with it, or leave cursor out to start over`);
  }
  return after;
}

export function listFiles(repo: Repo, options: ListFilesOptions = {}): ListFilesEnvelope {
  const max = options.maxResults ?? DEFAULT_MAX;
  if (!Number.isInteger(max) || max < 1) throw usageError(`max_results must be a positive integer (got ${max})`);
  const { budget } = listingBudget(repo, options.maxTokens);
  const filters = { glob: options.glob ?? null, language: options.language?.toLowerCase() ?? null };
  const after = options.cursor === undefined ? null : decodeCursor(options.cursor, filters);
  const matches = filters.glob !== null ? callerGlob(filters.glob, 'glob') : () => true;
  const files = repo.store.files
    .list()
    .filter((f) => matches(f.path) && (!filters.language || f.language === filters.language))
    .map((f) => ({ path: f.path, language: f.language, kind: f.kind, lines: f.lineCount, est_tokens: f.tokens, bytes: f.size }))
    // Code-unit order, the order cursors compare in with `>`.
    .sort((a, b) => byCodeUnit(a.path, b.path));
  const rest = after === null ? files : files.filter((f) => f.path > after);
  const page = (shown: { files: ListedFile[] }) => {
    const last = shown.files.at(-1)?.path ?? after;
    const next_cursor = last === null ? undefined : encodeCursor({ after: last, ...filters });
    return { ...(next_cursor ? { next_cursor } : {}), more: 'pass next_cursor as cursor, with the same glob and language, for the next page' };
  };
  return fitLists({ status: 'ok' as const, total: files.length }, { files: rest }, budget, page, { files: max });
}
