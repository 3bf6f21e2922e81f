/**
 * The dashboard's sign-in: the page reads the bearer token from the URL's
 * fragment (a fragment never reaches a server, a log or a Referer), POSTs it
 * once, and gets a random session id in an HttpOnly, SameSite=Strict cookie,
 * so script cannot read it and no other site can send it. A session belongs
 * to the caller whose token opened it, ends after `idleMs` unused or `maxMs`
 * after it began, whichever comes first, and on sign-out; the server forgets
 * it then, so the cookie is worth nothing even if a browser kept it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sessions a server keeps at most; signing in past it forgets the oldest. */
const MAX_SESSIONS = 64;

export interface SessionLimits {
  /** A session unused this long ends (config dashboardSessionIdleMs). */
  idleMs: number;
  /** A session ends this long after it was opened, however used (config dashboardSessionMaxMs). */
  maxMs: number;
}

/** A live session: its public name (the gate counts refusals by it) and who opened it. */
export interface Session<C> {
  name: string;
  caller: C;
}

interface Held<C> extends Session<C> {
  openedAt: number;
  seenAt: number;
}

export class Sessions<C> {
  /** Cookie secret → the session (the secret itself is never passed on). */
  private readonly held = new Map<string, Held<C>>();
  /** A name of this server's own, so two servers on one host (cookies ignore ports) keep their cookies apart. */
  readonly cookie = `sightline_${randomBytes(6).toString('hex')}`;

  /** `now` is the clock the limits are measured by (tests pass their own). */
  constructor(private readonly limits: SessionLimits, private readonly now: () => number = Date.now) {}

  /**
   * Opens a session for `caller` and sets its cookie on `res`. The cookie has no Max-Age of its own: the server decides
   * when a session ends, so it can tell the page it expired (a cookie the browser dropped would look like no sign-in).
   */
  open(res: ServerResponse, caller: C): void {
    const now = this.now();
    for (const [id, s] of this.held) if (this.ended(s, now)) this.held.delete(id);
    if (this.held.size >= MAX_SESSIONS) this.held.delete(this.held.keys().next().value!);
    const id = randomBytes(32).toString('base64url');
    this.held.set(id, { name: randomUUID(), caller, openedAt: now, seenAt: now });
    res.setHeader('set-cookie', `${this.cookie}=${id}; Path=/; HttpOnly; SameSite=Strict`);
  }

  /**
   * The request's session when its cookie names a live one (using it restarts
   * the idle clock); 'expired' when it named one that ended by time (now
   * forgotten); null when it names none.
   */
  of(req: IncomingMessage): Session<C> | 'expired' | null {
    const id = cookieValue(req.headers.cookie, this.cookie);
    const held = id === null ? undefined : this.held.get(id);
    if (!held) return null;
    const now = this.now();
    if (this.ended(held, now)) {
      this.held.delete(id!);
      return 'expired';
    }
    held.seenAt = now;
    return { name: held.name, caller: held.caller };
  }

  /** Signs out: forgets the request's session (if any) and clears its cookie on `res`. */
  end(req: IncomingMessage, res: ServerResponse): void {
    const id = cookieValue(req.headers.cookie, this.cookie);
    if (id !== null) this.held.delete(id);
    res.setHeader('set-cookie', `${this.cookie}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
  }

  private ended(s: Held<C>, now: number): boolean {
    return now - s.seenAt >= this.limits.idleMs || now - s.openedAt >= this.limits.maxMs;
  }
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
