/**
 * Callers and what they may do. A network request is authenticated to a
 * caller by its bearer token: the one token minted (or pinned) at start, or
 * one of the tokens of a `--tokens` file. Each caller holds a grant per
 * repository id or `*`: `read` (the read-only tools) or `write` (the
 * mutating tools too, on a server run with --enable-writes). Tools are
 * advertised per caller (server.ts) and the grant is checked again at every
 * call; a repository the caller holds no grant on does not exist for it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { describeError, SightlineError, usageError } from '../errors/index.js';
import { listCallers, redactUrl } from '../team/index.js';
import { bearerMatches, bearerToken, resolveToken, TOKEN_ENV } from './auth.js';

export type Grant = 'read' | 'write';

export interface Caller {
  name: string;
  /** Repository id (or `*`, every other repository) → grant. */
  grants: Readonly<Record<string, Grant>>;
}

/** stdio's one client (the process that spawned the server), and the holder of the single token: everything. */
export const OWNER: Caller = { name: 'owner', grants: { '*': 'write' } };

export function grantOn(caller: Caller, repo: string): Grant | null {
  return caller.grants[repo] ?? caller.grants['*'] ?? null;
}

export const mayRead = (caller: Caller) => (repo: string) => grantOn(caller, repo) !== null;

/** Whether any repository could take this caller's writes (the mutating tools are advertised then). */
export function writesAnywhere(caller: Caller): boolean {
  return Object.values(caller.grants).includes('write');
}

/** Refuses a tool the grant does not cover, by name, before it runs. */
export function checkGrant(caller: Caller, tool: { name: string; mutating?: boolean }, repo: string): void {
  const grant = grantOn(caller, repo);
  if (grant === null) throw new SightlineError('forbidden', `caller ${caller.name} holds no grant on repository ${repo}`);
  if (tool.mutating && grant !== 'write') {
    throw new SightlineError('forbidden', `${tool.name} changes repository ${repo}, and caller ${caller.name} holds a read grant on it; it needs a write grant (in the tokens file, or \`sightline team grant\` with a team database)`);
  }
}

export interface Authenticator {
  /** The caller a request's Authorization header names, or null (401). */
  authenticate(authorization: string | undefined): Caller | null;
  /** What the banner says clients must send. */
  banner: string[];
}

/** The SHA-256 (hex) a token is known by: the tokens file's lookup key, and all the team database holds of it. */
export const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex');

/** Tokens are looked up by their SHA-256, so no comparison runs over the secret itself. */
function byFingerprint(callers: () => Map<string, Caller>): (authorization: string | undefined) => Caller | null {
  return (authorization) => {
    const token = bearerToken(authorization);
    return token === null ? null : (callers().get(fingerprint(token)) ?? null);
  };
}

/** The default: one token, fresh at each start unless SIGHTLINE_MCP_TOKEN pins it, held by the owner. */
export function singleToken({ token, pinned }: ReturnType<typeof resolveToken>): Authenticator {
  return {
    authenticate: (authorization) => (bearerMatches(authorization, token) ? OWNER : null),
    banner: pinned
      ? [`Clients must send the token pinned by ${TOKEN_ENV}: Authorization: Bearer $${TOKEN_ENV}`]
      : [`Clients must send: Authorization: Bearer ${token}`, `Pin a stable token across restarts with ${TOKEN_ENV}.`],
  };
}

const MIN_TOKEN_CHARS = 16;
const REPO_KEY = /^(\*|[A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;

export const CallerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'a caller name is 1-64 letters, digits, ".", "_", "@" or "-"');
export const GrantKey = z.string().regex(REPO_KEY, 'a grant is keyed by a repository id or "*"');

const TokensFile = z.strictObject({
  callers: z
    .array(
      z.strictObject({
        name: CallerName,
        token: z.string().min(MIN_TOKEN_CHARS, `a token has at least ${MIN_TOKEN_CHARS} characters (mint one with: openssl rand -base64 32)`).regex(/^\S+$/, 'a token has no spaces'),
        grants: z
          .record(GrantKey, z.enum(['read', 'write'], 'a grant is "read" or "write"'))
          .refine((g) => Object.keys(g).length > 0, 'a caller needs at least one grant'),
      }),
    )
    .min(1, 'the file names no caller'),
});

/** A tokens file: {"callers": [{"name", "token", "grants": {"<repo id>|*": "read"|"write"}}]}. Refused whole if any entry is wrong. */
export function tokensFile(file: string, warn: (message: string) => void): Authenticator {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw usageError(`cannot read the tokens file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) warn(`the tokens file ${file} can be read by other users of this machine; chmod 600 it`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw usageError(`the tokens file ${file} is not JSON`);
  }
  const parsed = TokensFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw usageError(`the tokens file ${file} is refused: ${issue.message} (at ${issue.path.join('.') || 'the top'})`);
  }
  const callers = new Map<string, Caller>();
  const names = new Set<string>();
  for (const { name, token, grants } of parsed.data.callers) {
    if (names.has(name)) throw usageError(`the tokens file ${file} is refused: caller ${name} appears twice`);
    if (callers.has(fingerprint(token))) throw usageError(`the tokens file ${file} is refused: two callers share one token`);
    names.add(name);
    callers.set(fingerprint(token), { name, grants });
  }
  return {
    authenticate: byFingerprint(() => callers),
    banner: [`Clients must send the bearer token of their caller in ${file} (${callers.size} callers): Authorization: Bearer <token>`],
  };
}

/** How often a server re-reads the team database's callers: a revoke takes effect within about this long. */
export const CALLERS_RELOAD_MS = 2_000;

/**
 * Callers from the team database (`sightline team grant`), for `serve --store`
 * without --tokens, re-read every CALLERS_RELOAD_MS. A re-read that fails
 * keeps the callers last read (warned once per outage): an unreachable
 * database does not lock the team out, and a revoke lands when it answers again.
 */
export async function databaseCallers(url: string, warn: (message: string) => void): Promise<Authenticator> {
  const load = async () => new Map((await listCallers(url)).map((c): [string, Caller] => [c.tokenSha256, { name: c.name, grants: c.grants }]));
  let callers = await load();
  let failing = false;
  let reading = false;
  const reload = async () => {
    if (reading) return;
    reading = true;
    try {
      callers = await load();
      if (failing) warn('the team database answers again; callers re-read');
      failing = false;
    } catch (err) {
      if (!failing) warn(`cannot re-read callers from the team database (the ones last read stay in force): ${describeError(err)}`);
      failing = true;
    } finally {
      reading = false;
    }
  };
  setInterval(() => void reload(), CALLERS_RELOAD_MS).unref();
  return {
    authenticate: byFingerprint(() => callers),
    banner: [
      `Clients must send the bearer token of their caller in the team database ${redactUrl(url)} (${callers.size} callers now; \`sightline team grant\` adds one): Authorization: Bearer <token>`,
    ],
  };
}
