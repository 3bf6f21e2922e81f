/**
 * The bearer token of the network transports: minted fresh at each start (32
 * random bytes, 43 base64url characters) unless SIGHTLINE_MCP_TOKEN pins one.
 * A blank pin counts as unset: it mints a token, it never turns auth off.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_ENV } from './token-env.js';

export { TOKEN_ENV };

export function mintToken(): string {
  return randomBytes(32).toString('base64url');
}

export function resolveToken(env: NodeJS.ProcessEnv): { token: string; pinned: boolean } {
  const pinned = env[TOKEN_ENV]?.trim();
  return pinned ? { token: pinned, pinned: true } : { token: mintToken(), pinned: false };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

/** Compares digests so neither the token's length nor its prefix leaks through timing. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const sent = bearerToken(authorization);
  if (sent === null) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token));
}
