/**
 * The dashboard: a page a person opens to see the index's health, what it
 * holds, its graph, search as agents see it, and what answering cost and
 * saved. This folder is the server side (the page's files, the JSON API, the
 * live index phase); the page itself is built by Vite from web/ at the
 * repository's top into dist/web. It mounts on the guarded HTTP server of the
 * network transports (mcp/transports/network.ts), after its Host and Origin
 * checks; access is the bearer token, exchanged once for a session cookie
 * that ends when idle, when old, or at sign-out. Each caller sees the
 * repositories its grants let it read; every view is for the one `?repo=` names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classified, describeError, SightlineError } from '../errors/index.js';
import { ROUTES, type DashboardContext } from './api.js';
import { Assets, SECURITY_HEADERS } from './assets.js';
import { RepoEvents } from './progress.js';
import { Sessions, type Session } from './session.js';

export type { DashboardContext, Repositories, RepoView } from './api.js';
export type { SessionLimits } from './session.js';
export { summarizeToolLog, type ToolLogSummary } from './tool-log.js';

/** The pages and API a network server mounts. */
export interface Site {
  /** Whether `pathname` is the dashboard's: its requests skip the MCP bearer check (the page holds no data; the API checks its own). */
  owns(pathname: string): boolean;
  /** Answers a request for a path it owns. `body`: a POST's, read within bounds. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): Promise<void>;
  /** Ends the event streams, so the server can close. */
  close(): void;
}

const SESSION_PATH = '/api/session';
const EVENTS_PATH = '/api/events';
const REPOSITORIES_PATH = '/api/repositories';
/** How a person signs in (again), in every 401. */
const SIGN_IN = 'open the URL the server printed (it ends in #token=…)';

const API_HEADERS = { ...SECURITY_HEADERS, 'cache-control': 'no-store' };

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...API_HEADERS, 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

const refuse = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) => json(res, status, { status: 'error', error: message }, headers);

/** HTTP status for what a route threw: the caller's mistake is 4xx, the rest 500. */
function statusOf(err: unknown): number {
  if (!(err instanceof SightlineError)) return 500;
  if (err.code === 'not_found') return 404;
  if (err.code === 'forbidden') return 403;
  return err.code === 'usage' || err.code === 'path_escape' ? 400 : 500;
}

/** Paths that are the page's own, served to anyone who passed Host and Origin: the page holds no data. */
const isPagePath = (p: string) => p === '/' || p === '/index.html' || p.startsWith('/assets/') || p === '/favicon.svg';

export function dashboardSite<C>(ctx: DashboardContext<C>): Site {
  const assets = new Assets();
  const sessions = new Sessions<C>(ctx.sessions);
  const events = new RepoEvents(ctx.warn);

  /** Who is asking: a script's bearer header, else the session cookie; or why no one is. */
  const who = (req: IncomingMessage): Session<C> | 'expired' | null => {
    const caller = ctx.authenticate(req.headers.authorization);
    return caller !== null ? { name: 'bearer', caller } : sessions.of(req);
  };

  const signIn = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (req.method === 'DELETE') {
      sessions.end(req, res);
      return json(res, 200, { status: 'ok', signed_out: true });
    }
    if (req.method !== 'POST') return refuse(res, 405, 'POST {"token": "…"} to sign in, DELETE to sign out', { allow: 'POST, DELETE' });
    const token = (body as { token?: unknown } | undefined)?.token;
    const caller = typeof token === 'string' ? ctx.authenticate(`Bearer ${token}`) : null;
    if (caller === null) return refuse(res, 401, `that is not a token this server takes: ${SIGN_IN}`);
    sessions.open(res, caller);
    return json(res, 200, { status: 'ok' });
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => {
    // Stricter than the MCP endpoint's loopback rule: a page on another local port is same-site, and would send the cookie.
    if (req.headers.origin !== undefined && req.headers.origin !== `http://${req.headers.host}`) return refuse(res, 403, 'the dashboard API answers its own page only');
    if (url.pathname === SESSION_PATH) return signIn(req, res, body);
    const session = who(req);
    if (session === 'expired') return refuse(res, 401, `the session expired: ${SIGN_IN} to sign in again`, { 'www-authenticate': 'Bearer' });
    if (session === null) return refuse(res, 401, `sign in first: ${SIGN_IN}`, { 'www-authenticate': 'Bearer' });
    const route = ROUTES[url.pathname];
    const known = route || url.pathname === EVENTS_PATH || url.pathname === REPOSITORIES_PATH;
    if (!known) return refuse(res, 404, `no such API path ${url.pathname}`);
    const method = route?.method ?? 'GET';
    if (req.method !== method) return refuse(res, 405, `use ${method} for ${url.pathname}`, { allow: method });
    try {
      if (url.pathname === REPOSITORIES_PATH) return json(res, 200, await ctx.repositories(session.caller));
      const view = await ctx.repository(session.caller, url.searchParams.get('repo') ?? undefined);
      if (url.pathname === EVENTS_PATH) return events.of(view).subscribe(res, SECURITY_HEADERS);
      json(res, 200, await route!.handle(view, { query: url.searchParams, body, session: `dashboard-${session.name}`, toolLog: ctx.toolLog }));
    } catch (thrown) {
      const err = classified(thrown);
      const status = statusOf(err);
      if (status === 500) ctx.warn(`dashboard ${url.pathname} failed: ${(err as Error)?.stack ?? String(err)}`);
      refuse(res, status, describeError(err));
    }
  };

  return {
    owns: (pathname) => pathname.startsWith('/api/') || isPagePath(pathname),
    async handle(req, res, url, body) {
      if (url.pathname.startsWith('/api/')) return api(req, res, url, body);
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'the page is read with GET', { allow: 'GET' });
      if (assets.serve(url.pathname, res)) return;
      if (!assets.built) refuse(res, 503, 'the dashboard page was not built into dist/web: run `npm run build`');
      else refuse(res, 404, `no such file ${url.pathname}`);
    },
    close: () => events.close(),
  };
}
