/**
 * The dashboard's sign-in: the page reads the bearer token from the URL's
 * fragment (a fragment never reaches a server, a log or a Referer), POSTs it
 * once, and gets a random session id in an HttpOnly, SameSite=Strict cookie,
 * so script cannot read it and no other site can send it. API calls then
 * carry the cookie, or (for scripts) the same Authorization: Bearer header as
 * the MCP endpoint.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sessions a server keeps at most; signing in past it forgets the oldest. */
const MAX_SESSIONS = 64;

export class Sessions {
  /** Cookie secret → the session's public name (the secret itself is never stored or passed on). */
  private readonly ids = new Map<string, string>();
  /** A name of this server's own, so two servers on one host (cookies ignore ports) keep their cookies apart. */
  readonly cookie = `sightline_${randomBytes(6).toString('hex')}`;

  /** `bearer` checks an Authorization header against the server's token (the MCP endpoint's check). */
  constructor(private readonly bearer: (authorization: string | undefined) => boolean) {}

  /** True when `offered` is the server's token. */
  tokenMatches(offered: unknown): boolean {
    return typeof offered === 'string' && this.bearer(`Bearer ${offered}`);
  }

  /** Opens a session and sets its cookie on `res`. */
  open(res: ServerResponse): void {
    const id = randomBytes(32).toString('base64url');
    if (this.ids.size >= MAX_SESSIONS) this.ids.delete(this.ids.keys().next().value!);
    this.ids.set(id, randomUUID());
    res.setHeader('set-cookie', `${this.cookie}=${id}; Path=/; HttpOnly; SameSite=Strict`);
  }

  /** The public name of the request's session when it holds a live one (or the bearer token); null otherwise. */
  of(req: IncomingMessage): string | null {
    if (this.bearer(req.headers.authorization)) return 'bearer';
    const id = cookieValue(req.headers.cookie, this.cookie);
    return id === null ? null : (this.ids.get(id) ?? null);
  }
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
