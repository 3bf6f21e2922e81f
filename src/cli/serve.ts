/**
 * `sightline serve`: the engine over MCP, and `sightline dashboard`: the page
 * a person opens (src/web), on the same guarded HTTP server. Flags are parsed
 * and checked here; everything else is src/mcp and src/web. Exit codes: 0
 * stopped by SIGINT (or, on stdio, SIGTERM or the client leaving), 143
 * http/sse/dashboard stopped by SIGTERM, 1 refused to start (port taken,
 * address not this machine's), 2 usage (a remote bind without --allow-remote
 * among them, a refused tokens file).
 */
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { describeError, exitCodeOf, usageError } from '../errors/index.js';
import type { Authenticator, Served, TransportName } from '../mcp/index.js';
// Leaves of mcp/ (constants only), so declaring the verbs does not load the server.
import { TOKEN_ENV } from '../mcp/token-env.js';
import { TOOL_CONCURRENCY_ENV } from '../mcp/concurrency.js';
import { embedderFlags, embedderOptions, emit, examples, repoOption, storeOption, type EmbedderFlags } from './verb.js';

interface ServeFlags extends EmbedderFlags {
  transport: TransportName;
  host: string;
  port: number;
  repo: string;
  config?: string;
  enableWrites?: boolean;
  toolConcurrency?: string;
  accessLog?: boolean;
  logFile?: string;
  allowRemote?: boolean;
  watch?: boolean;
  workspace?: string;
  tokens?: string;
  store?: string;
}

interface DashboardFlags extends Omit<ServeFlags, 'transport' | 'enableWrites' | 'logFile' | 'tokens'> {
  toolLog?: string;
  json?: boolean;
}

/** What differs between the verbs once flags are read. */
interface Start {
  transport: TransportName;
  dashboardOnly?: boolean;
  enableWrites?: boolean;
  logFile?: string;
  toolLog?: string;
  announce?: (url: string, root: string) => void;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)');
  return n;
}

const say = (message: string) => process.stderr.write(`sightline: ${message}\n`);
const warn = (message: string) => say(`warning: ${message}`);

function stop(message: string, code: number): never {
  say(message);
  process.exit(code);
}

/** What serve and dashboard share: where to listen, the config, the access log, remote binds and the watcher. */
function networkOptions(cmd: Command, defaultPort: number): Command {
  return cmd
    .option('--host <host>', 'address to listen on (serve: with http or sse); beyond loopback needs --allow-remote', '127.0.0.1')
    .option('--port <port>', 'port to listen on (serve: with http or sse); 0 picks a free one', port, defaultPort)
    .option('--config <file>', 'config file (default: <repo>/sightline.config.json)')
    .option('--access-log', 'one line per HTTP request on stderr: client, request line, status')
    .option('--allow-remote', 'allow --host beyond 127.0.0.1, localhost and ::1 (unencrypted: prefer an SSH tunnel)')
    .option('--watch', 'keep the index current while serving: index on file changes, reconcile periodically (the default; config `watch`)')
    .option('--no-watch', 'serve the index as it is: no watcher, no reconcile (answers still re-index a file they find changed)');
}

export function registerServe(program: Command): void {
  networkOptions(storeOption(embedderOptions(program.command('serve'))), 8765)
    .description('serve the repository to AI coding agents over MCP (stdio, Streamable HTTP or SSE)')
    .addOption(new Option('--transport <name>', 'stdio for an editor that spawns the server; http or sse to listen on a port').choices(['stdio', 'http', 'sse']).default('stdio'))
    .addOption(repoOption())
    .option('--workspace <root>', 'serve every repository registered under this root (add them with add_repo or `sightline workspace add`); tools take `repo`')
    .option('--tokens <file>', 'JSON file of callers: bearer token, name, read or write grant per repository id or * (http, sse; docs/security.md); with --store, callers otherwise come from the team database')
    .option('--enable-writes', 'offer the index tool, which updates the index')
    .option('--tool-concurrency <n>', `tool calls that run at once (default 2; env ${TOOL_CONCURRENCY_ENV})`)
    .option('--log-file <file>', 'append every tool call, result and error as JSON lines')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ sightline serve                                  # stdio, for .mcp.json and friends',
        '  $ sightline serve --transport http --port 8765     # http://127.0.0.1:8765/mcp',
        '  $ sightline serve --transport sse                  # http://127.0.0.1:8765/sse',
        '  $ sightline serve --workspace ~/src --transport http --enable-writes   # many repositories, add_repo and friends',
        '  $ sightline serve --workspace ~/src --transport http --tokens callers.json',
        '  $ sightline serve --transport http --store postgres://sightline@db:5432/team   # one of N servers sharing memory, claims, sessions',
        '',
        `http and sse need "Authorization: Bearer <token>": a fresh token is printed on stderr at start, or pin one with ${TOKEN_ENV}.`,
        'With --store and no --tokens, callers come from the team database (`sightline team grant`), re-read every 2 s.',
        '',
      ].join('\n'),
    )
    .action((o: ServeFlags) => start(o, { transport: o.transport, enableWrites: o.enableWrites, logFile: o.logFile }));
}

/** Opens what is served (one repository, or every one of a workspace) and serves until a signal stops it. */
async function start(o: Omit<ServeFlags, 'transport'>, how: Start): Promise<void> {
  const [{ loadConfig }, { defaultId, openRepoUnit, Workspace }, { bindRefusal, databaseCallers, isLoopbackHost, resolveToolConcurrency, serve, tokensFile }] = await Promise.all([
    import('../config/index.js'),
    import('../workspace/index.js'),
    import('../mcp/index.js'),
  ]);
  if (how.transport !== 'stdio') {
    const refusal = bindRefusal(o.host, Boolean(o.allowRemote));
    if (refusal) stop(refusal, 2); // a flag the caller must add: usage
    if (!isLoopbackHost(o.host)) {
      warn(`listening on ${o.host}: anyone who can reach it and holds the token can read this repository, unencrypted; prefer an SSH tunnel to a loopback bind, or TLS in front`);
    }
  }
  const flags = { ...embedderFlags(o), watch: o.watch, databaseUrl: o.store };
  let served: Served;
  let configured: number;
  let auth: Authenticator | undefined;
  try {
    if (o.tokens && how.transport === 'stdio') throw usageError('--tokens names the callers of http and sse; on stdio the one client is the process that spawned the server');
    auth = o.tokens ? tokensFile(o.tokens, warn) : undefined;
    if (o.workspace) {
      const workspace = await Workspace.open({ root: o.workspace, flags, configPath: o.config, live: true, warn });
      served = { kind: 'workspace', workspace };
      configured = loadConfig({ flags, configPath: o.config, warn }).toolConcurrency;
    } else {
      const unit = await openRepoUnit({ id: defaultId(path.basename(path.resolve(o.repo))), root: o.repo, configPath: o.config, flags, warn });
      served = { kind: 'repo', unit };
      configured = unit.engine.repo.config.toolConcurrency;
    }
    // A team's servers without a tokens file take their callers from the team database (`sightline team grant`).
    const { databaseUrl } = served.kind === 'repo' ? served.unit.engine.repo.config : served.workspace.config;
    if (!auth && databaseUrl && how.transport !== 'stdio' && !how.dashboardOnly) auth = await databaseCallers(databaseUrl, warn);
  } catch (err) {
    stop(describeError(err), exitCodeOf(err));
  }
  const toolConcurrency = resolveToolConcurrency({ flag: o.toolConcurrency, env: process.env[TOOL_CONCURRENCY_ENV] }, configured, warn);
  const root = served.kind === 'repo' ? served.unit.engine.repo.root : served.workspace.root;
  try {
    await serve({
      served,
      auth,
      transport: how.transport,
      dashboardOnly: how.dashboardOnly,
      toolLog: how.toolLog,
      announce: how.announce && ((url) => how.announce!(url, root)),
      host: o.host,
      port: o.port,
      accessLog: Boolean(o.accessLog),
      enableWrites: Boolean(how.enableWrites),
      toolConcurrency,
      logFile: how.logFile,
      info: say,
      warn,
    });
  } catch (err) {
    await (served.kind === 'repo' ? served.unit.close() : served.workspace.close());
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') stop(`port ${o.port} on ${o.host} is in use; pick another with --port (0 picks a free one)`, 1);
    if (code === 'EADDRNOTAVAIL') stop(`${o.host} is not an address of this machine; pass one it has`, 1);
    stop(describeError(err), exitCodeOf(err));
  }
}

export function registerDashboard(program: Command): void {
  networkOptions(storeOption(embedderOptions(program.command('dashboard'))), 8766)
    .description('serve the dashboard on loopback: index health, contents, the module graph, search as agents see it, usage; prints its URL')
    .addOption(repoOption())
    .option('--workspace <root>', 'show every repository registered under this root, with a picker (`sightline workspace add` registers them)')
    .option('--tool-log <file>', 'the tool log a `serve --log-file` writes, charted in the usage view')
    .option('--json', 'print the URL as one JSON object')
    .addHelpText(
      'after',
      examples(
        'sightline dashboard                          # http://127.0.0.1:8766/#token=…',
        'sightline dashboard --repo ../api --port 0   # any free port',
        'sightline dashboard --workspace ~/src        # every repository registered there, with a picker',
        'sightline dashboard --tool-log agent.ndjson  # chart what a `serve --log-file agent.ndjson` logged',
      ) +
        `\nOpen the printed URL: the page trades the token in its #fragment for a session cookie. serve --transport http serves the same page at /.\n`,
    )
    .action((o: DashboardFlags) =>
      start(o, {
        transport: 'http',
        dashboardOnly: true,
        toolLog: o.toolLog,
        announce: (url, root) => emit(o, { status: 'ok', url, [o.workspace ? 'workspace' : 'repo']: root }, (v) => v.url),
      }),
    );
}
