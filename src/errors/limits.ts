/**
 * The bounds on what a caller may send, checked once at the engine's edge
 * (both faces call through it) and refused with a sentence that names the
 * argument. Each bound keeps one request's work linear and small; the list
 * and its refusals are in docs/security.md ("Limits and refusals").
 */
import { MAX_PATH_CHARS } from '../walk/paths.js'; // a leaf: errors stays off the walk's dependencies (ignore, picomatch, xxhash)
import { usageError } from './index.js';

export const LIMITS = {
  /** A query or a whole pasted issue: long enough for an issue with its logs. */
  queryChars: 100_000,
  /** A regular expression, a glob, a scope or an exclude pattern. */
  patternChars: 1_000,
  /** A caller-supplied path (Linux's PATH_MAX). */
  pathChars: MAX_PATH_CHARS,
  /** A session name: a receipt key, stored with every receipt. */
  sessionChars: 128,
} as const;

/** Refuses a query longer than the bound. */
export function checkQuery(query: string, argument = 'query'): void {
  if (query.length > LIMITS.queryChars) {
    throw usageError(`${argument} is ${query.length} characters; at most ${LIMITS.queryChars} are read: shorten it to the words or the part of the issue that matter`);
  }
}

/** Refuses a path longer than any the file system resolves. */
export function checkPath(userPath: string): void {
  if (userPath.length > LIMITS.pathChars) {
    throw usageError(`the path is ${userPath.length} characters; a path may have at most ${LIMITS.pathChars}: give a path relative to the repository root`);
  }
}

/** Refuses an empty or over-long pattern (regex, glob, scope, exclude). */
export function checkPattern(pattern: string, argument: string): void {
  if (pattern.trim() === '') throw usageError(`${argument} is an empty pattern: leave it out, or give a path prefix or glob such as src/**/*.ts`);
  if (pattern.length > LIMITS.patternChars) {
    throw usageError(`${argument} is ${pattern.length} characters; a pattern may have at most ${LIMITS.patternChars}`);
  }
}

const SESSION_NAME = /^[A-Za-z0-9._:-]+$/;

/** Refuses a session name that is over-long or holds anything but letters, digits and . _ : - */
export function checkSession(session: string): void {
  if (session.length > LIMITS.sessionChars || !SESSION_NAME.test(session)) {
    throw usageError(`session must be 1 to ${LIMITS.sessionChars} letters, digits, '.', '_', ':' or '-' (got ${session.length} characters)`);
  }
}

/** A URL carrying a password (`scheme://user:secret@host`): the credential would be stored, logged or shown. */
const CREDENTIAL_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]+:[^\s/@]+@/i;

/** The credential-bearing URL in `text`, with its secret masked, or null. */
export function credentialUrl(text: string): string | null {
  const match = CREDENTIAL_URL.exec(text);
  return match ? match[0].replace(/:[^:@]+@$/, ':***@') : null;
}

/** Refuses free text that carries a credential-bearing URL, naming the argument and never echoing the secret. */
export function refuseCredentialUrl(text: string, argument: string): void {
  const found = credentialUrl(text);
  if (found) {
    throw usageError(`${argument} carries a URL with a credential in it (${found}…); remove the user:password part before storing it`);
  }
}
