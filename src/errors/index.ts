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
  | 'internal';

const EXIT_CODES: Record<ErrorCode, number> = {
  usage: 2,
  not_found: 2,
  path_escape: 2,
  corrupt_index: 3,
  io: 4,
  conflict: 5,
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

export function usageError(message: string): SightlineError {
  return new SightlineError('usage', message);
}

/** A one-line message for any thrown value, never a stack trace. */
export function describeError(err: unknown): string {
  if (err instanceof SightlineError) return err.message;
  if (err instanceof Error) return `internal error: ${err.message}`;
  return `internal error: ${String(err)}`;
}

export { LIMITS, checkPattern, checkQuery, checkSession } from './limits.js';
