/**
 * The node:http server both network transports (http, sse) and the dashboard
 * run on. Every request passes the same gates in the same order: Host names
 * this server (else 421), Origin is this server or loopback (else 403), the
 * bearer token names a caller (else 401); a POST body is then read within its
 * bounds (body.ts: else 413, or a parse error); only then does the transport
 * see it. The dashboard's paths (web/) pass Host and Origin, then check the
 * token themselves: the page holds no data, its API takes the token or the
 * session cookie the token was exchanged for.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logAccess } from '../access-log.js';
import { resolveToken, TOKEN_ENV } from '../auth.js';
import { singleToken, type Caller } from '../grants.js';
import { allowedHostnames, hostAllowed, hostnameOf, originAllowed } from '../guards.js';
import { dashboardSite, type Site } from '../../web/index.js';
import { dashboardContext } from '../dashboard.js';
import type { Runtime } from '../runtime.js';
import { drained, stopOnSignals, stopper } from '../shutdown.js';
import { readJsonBody } from './body.js';

/** One network transport's endpoints. */
export interface Routes {
  /** The URL path clients connect to, for the banner. */
  endpoint: string;
  /**
   * Answers the request when its path is one of this transport's; false otherwise. `body`: a POST's, read and parsed
   * within bounds; `caller`: who the token says sent it (a session stays its opener's).
   */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown, caller: Caller): Promise<boolean>;
  /** Ends every session, so that long-lived streams let the server close. */
  close(): Promise<void>;
  /** Client sessions held now (health's `server.open_sessions`). */
  sessions(): number;
}

export interface NetworkOptions {
  host: string;
  port: number;
  accessLog: boolean;
  /** Serve the dashboard at / too, charting this tool log. */
  dashboard?: { toolLog?: string };
  /** Takes the dashboard's URL instead of the banner on stderr (the dashboard verb prints it as its answer). */
  announce?: (url: string) => void;
}

/** How long an idle connection stays open for the client's next request (below node's 60 s headersTimeout). */
const KEEP_ALIVE_MS = 30_000;

/** A JSON-RPC error body with an HTTP status, as the SDK's own transports answer. */
export function reject(res: ServerResponse, status: number, message: string, extra: { headers?: Record<string, string>; code?: number } = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra.headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: extra.code ?? -32000, message }, id: null }));
}

/** `routes`: the MCP transport's, or null for the dashboard alone. */
export async function serveNetwork(runtime: Runtime, routes: Routes | null, options: NetworkOptions): Promise<void> {
  const { info, warn } = runtime.options;
  // Resolved once: a token minted at start is the one the banner, the clients and the dashboard's URL share.
  const single = runtime.options.auth ? null : resolveToken(runtime.env);
  const auth = runtime.options.auth ?? singleToken(single!);
  const allowed = allowedHostnames(options.host);
  // The dashboard signs in with the token an MCP client sends, and shows each caller what its grants let it read.
  const site: Site | null = options.dashboard ? dashboardSite(dashboardContext(runtime, auth, options.dashboard.toolLog)) : null;

  const gate = async (req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req.headers.host, allowed)) return reject(res, 421, 'the Host header does not name this server');
    if (!originAllowed(req.headers.origin, allowed)) return reject(res, 403, 'requests from this Origin are not allowed');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const forSite = site?.owns(url.pathname) ?? false;
    const caller = forSite ? null : auth.authenticate(req.headers.authorization);
    if (!forSite && !caller) {
      return reject(res, 401, 'send the token printed at server start (or your caller\'s, from --tokens or `sightline team grant`) as "Authorization: Bearer <token>"', { headers: { 'www-authenticate': 'Bearer' } });
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJsonBody(req);
      if (!read.ok) return reject(res, read.status, read.message, { code: read.code });
      body = read.value;
    }
    if (forSite) return site!.handle(req, res, url, body);
    if (!routes || !(await routes.handle(req, res, url, body, caller!))) {
      reject(res, 404, routes ? `no such endpoint; MCP clients connect to ${routes.endpoint}` : 'no such endpoint; the dashboard is at /');
    }
  };
  const server = http.createServer((req, res) => {
    if (options.accessLog) logAccess(req, res, (line) => process.stderr.write(line + '\n'));
    gate(req, res).catch((err) => {
      warn(`request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) reject(res, 500, 'internal error');
      else res.end();
    });
  });

  // An agent's client keeps its connection between calls, often longer than node's 5 s default; a socket the server
  // closed while the client was busy is met by the client's next request and fails it ("other side closed").
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject_) => {
    server.once('error', reject_);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${hostnameOf(options.host) ?? options.host}:${port}`;
  // The banner is one write: a reader that sees its first line sees the rest (the token, the dashboard's address).
  const banner: string[] = [];
  if (routes) {
    banner.push(`MCP server (${runtime.server.transport}) on ${origin}${routes.endpoint} for ${runtime.describe()}  (Ctrl-C to stop)`);
    banner.push(...auth.banner.map((line) => `  ${line}`));
  } else {
    banner.push(`dashboard on ${origin}/ for ${runtime.describe()}  (Ctrl-C to stop)`);
  }
  let announced: string | null = null;
  if (site) {
    // A pinned token stays out of the output, as in the banner; a minted one is the URL's fragment, which no request carries.
    // With a tokens file each caller signs in with their own.
    const pinned = single?.pinned ?? true;
    const url = pinned ? `${origin}/#token=` : `${origin}/#token=${single!.token}`;
    if (pinned) banner.push(`  Open the dashboard at ${url} followed by ${single ? `the token pinned by ${TOKEN_ENV}` : 'your caller\'s token from the tokens file'}`);
    else if (options.announce) announced = url;
    else banner.push(`  Dashboard: ${url}`);
  }
  info(banner.join('\n'));
  if (announced) options.announce!(announced);

  // Drain: refuse new connections, let the calls in flight answer, then end the sessions and their streams.
  const stop = stopper(async () => {
    server.close();
    server.closeIdleConnections();
    await drained(runtime);
    site?.close();
    await routes?.close();
    server.closeAllConnections();
    await runtime.close();
  }, warn);
  // Ctrl-C is the documented way to stop; SIGTERM reports the termination it was asked for (128 + 15).
  stopOnSignals(stop, { SIGINT: 0, SIGTERM: 143 });
}
