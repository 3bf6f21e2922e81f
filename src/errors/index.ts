/**
 * Errors that carry a user-facing sentence and an exit code. Anything else that
 * escapes is a bug, reported as an internal error (exit 1) without a stack trace
 * unless SIGHTLINE_DEBUG is set.
 */
export type ErrorCode =
  | 'usage' // the caller's mistake: bad argument, missing path, empty query
  | 'not_found' // a named file or symbol does not exist
  | 'path_escape' // a caller-supplied path leaves the repository
  | 'corrupt_index' // the database cannot be read as a sightline index
  | 'io' // the disk refused: read-only, full, permissions
  | 'conflict' // a write refused by a claim's fencing check (see memory/fence.ts)
  | 'forbidden' // the caller's grant does not cover this tool or repository (see mcp/grants.ts)
  | 'internal';

const EXIT_CODES: Record<ErrorCode, number> = {
  usage: 2,
  not_found: 2,
  path_escape: 2,
  corrupt_index: 3,
  io: 4,
  conflict: 5,
  forbidden: 2,
  internal: 1,
};

export class SightlineError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SightlineError';
    this.code = code;
  }
  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** The one sentence for a damaged index, wherever the damage shows. */
export const DAMAGED_INDEX = 'the index is damaged; `sightline index --force` rebuilds it';

/**
 * SQLite reporting a damaged file: garbled pages (SQLITE_CORRUPT, "malformed"),
 * a file that is no database (SQLITE_NOTADB), or a table of the schema gone
 * ("no such table": every table sightline queries is created with the index).
 */
export function isCorruption(err: unknown): boolean {
  if (err instanceof SightlineError) return err.code === 'corrupt_index';
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = err instanceof Error ? err.message : '';
  return /^SQLITE_(CORRUPT|NOTADB)/.test(code) || /database disk image is malformed|^no such table: /.test(message);
}

/**
 * Every thrown value as the faces show it, classified once: a SQLite report
 * of damage, from whichever query met it, is the `corrupt_index` refusal.
 */
export function classified(err: unknown): unknown {
  if (err instanceof SightlineError || !isCorruption(err)) return err;
  return new SightlineError('corrupt_index', DAMAGED_INDEX, { cause: err });
}

/** The exit code for any thrown value (1, an internal error, for what is not a SightlineError). */
export function exitCodeOf(err: unknown): number {
  const c = classified(err);
  return c instanceof SightlineError ? c.exitCode : 1;
}

export function usageError(message: string): SightlineError {
  return new SightlineError('usage', message);
}

/**
 * A one-line message for any thrown value, never a stack trace. Messages
 * quote what the caller sent (a path, a query, a pattern), so this is the one
 * place that makes them safe to show: control characters replaced, each
 * over-long run cut to its head, and the whole kept short with its tail
 * (where the advice is).
 */
export function describeError(thrown: unknown): string {
  const err = classified(thrown);
  const raw = err instanceof SightlineError ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return shownMessage(raw);
}

/** Longest run of non-space characters shown whole; a longer one keeps its head and says how long it was. */
const MAX_RUN = 160;
/** Longest message; a longer one keeps its head and its tail. */
const MAX_MESSAGE = 1_000;
/**
 * C0 and C1 controls, the line and paragraph separators, and the invisible
 * characters that reorder or hide text in a terminal or a log viewer
 * (zero-width marks, bidirectional overrides and isolates, the BOM).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

export function shownMessage(message: string): string {
  const runs = message
    .replace(CONTROL, '\ufffd')
    .replace(LONG_RUN, (run) => `${run.slice(0, MAX_RUN)}… (${run.length} characters)`);
  return runs.length <= MAX_MESSAGE ? runs : `${runs.slice(0, MAX_MESSAGE * 0.6)} … ${runs.slice(-MAX_MESSAGE * 0.3)}`;
}

export { LIMITS, checkPath, checkPattern, checkQuery, checkSession, credentialUrl, refuseCredentialUrl } from './limits.js';
