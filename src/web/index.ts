/**
 * The dashboard: a page a person opens to see the index's health, what it
 * holds, its graph, search as agents see it, and what answering cost and
 * saved. This folder is the server side (the page's files, the JSON API, the
 * live index phase); the page itself is built by Vite from web/ at the
 * repository's top into dist/web. It mounts on the guarded HTTP server of the
 * network transports (mcp/transports/network.ts), after its Host and Origin
 * checks; access is the bearer token, exchanged once for a session cookie.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classified, describeError, SightlineError } from '../errors/index.js';
import { ROUTES, type DashboardContext } from './api.js';
import { Assets, SECURITY_HEADERS } from './assets.js';
import { JobEvents } from './progress.js';
import { Sessions } from './session.js';

export type { DashboardContext } from './api.js';
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
  return err.code === 'usage' || err.code === 'path_escape' ? 400 : 500;
}

/** Paths that are the page's own, served to anyone who passed Host and Origin: the page holds no data. */
const isPagePath = (p: string) => p === '/' || p === '/index.html' || p.startsWith('/assets/') || p === '/favicon.svg';

export function dashboardSite(ctx: DashboardContext): Site {
  const assets = new Assets();
  const sessions = new Sessions(ctx.bearer);
  const events = new JobEvents(ctx.job, ctx.warn);

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) => {
    // Stricter than the MCP endpoint's loopback rule: a page on another local port is same-site, and would send the cookie.
    if (req.headers.origin !== undefined && req.headers.origin !== `http://${req.headers.host}`) return refuse(res, 403, 'the dashboard API answers its own page only');
    if (url.pathname === SESSION_PATH) {
      if (req.method !== 'POST') return refuse(res, 405, 'POST {"token": "…"} to sign in', { allow: 'POST' });
      if (!sessions.tokenMatches((body as { token?: unknown } | undefined)?.token)) return refuse(res, 401, 'that is not this server\'s token: open the URL the server printed');
      sessions.open(res);
      return json(res, 200, { status: 'ok' });
    }
    const session = sessions.of(req);
    if (!session) return refuse(res, 401, 'sign in first: open the URL the server printed (it ends in #token=…)', { 'www-authenticate': 'Bearer' });
    if (url.pathname === EVENTS_PATH) return events.subscribe(res, SECURITY_HEADERS);
    const route = ROUTES[url.pathname];
    if (!route) return refuse(res, 404, `no such API path ${url.pathname}`);
    if (req.method !== route.method) return refuse(res, 405, `use ${route.method} for ${url.pathname}`, { allow: route.method });
    try {
      json(res, 200, await route.handle(ctx, { query: url.searchParams, body, session: `dashboard-${session}` }));
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
