/**
 * The MCP face of sightline: the engine served to coding agents over stdio,
 * Streamable HTTP or SSE. Tools are thin adapters over engine functions
 * (tools/), every session shares one runtime (runtime.ts), and the network
 * transports share one guarded HTTP server (transports/network.ts).
 */
import type { Authenticator } from './grants.js';
import { Runtime, type Served, type TransportName } from './runtime.js';
import { serveStdio } from './transports/stdio.js';

export interface ServeOptions {
  served: Served;
  /** Default: the single token (auth.ts); a tokens file names callers and their grants (grants.ts). */
  auth?: Authenticator;
  transport: TransportName;
  /** For http and sse. */
  host: string;
  port: number;
  accessLog: boolean;
  enableWrites: boolean;
  toolConcurrency: number;
  logFile?: string;
  /** Serve the dashboard alone, without an MCP endpoint (the dashboard verb); http serves both. */
  dashboardOnly?: boolean;
  /** The tool log the dashboard charts (default: logFile, this server's own). */
  toolLog?: string;
  /** Takes the dashboard's URL instead of the banner. */
  announce?: (url: string) => void;
  env?: NodeJS.ProcessEnv;
  info: (message: string) => void;
  warn: (message: string) => void;
}

/**
 * Starts serving; the process then runs until a signal (or, on stdio, the end of stdin) stops it.
 * The network transports (HTTP, the SDK's HTTP transports, the dashboard) load only to serve
 * them: a stdio server, an agent's child, starts without them.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const runtime = new Runtime(options);
  if (options.transport === 'stdio') return serveStdio(runtime);
  const [{ streamableHttpRoutes }, { serveNetwork }, { sseRoutes }] = await Promise.all([
    import('./transports/http.js'),
    import('./transports/network.js'),
    import('./transports/sse.js'),
  ]);
  const routes = options.dashboardOnly ? null : options.transport === 'http' ? streamableHttpRoutes(runtime) : sseRoutes(runtime);
  if (routes) runtime.countSessionsWith(routes.sessions);
  const dashboard = options.dashboardOnly || options.transport === 'http' ? { toolLog: options.toolLog ?? options.logFile } : undefined;
  return serveNetwork(runtime, routes, { host: options.host, port: options.port, accessLog: options.accessLog, dashboard, announce: options.announce });
}

export { mintToken, TOKEN_ENV } from './auth.js';
export { CallerName, databaseCallers, fingerprint, GrantKey, tokensFile, type Authenticator, type Caller, type Grant } from './grants.js';
export { resolveToolConcurrency, TOOL_CONCURRENCY_ENV } from './concurrency.js';
export { bindRefusal, isLoopbackHost } from './guards.js';
export { SERVER_NAME, SERVER_VERSION, type Served, type TransportName } from './runtime.js';
export { TOOLS, type ToolDefinition } from './tools/index.js';
