/**
 * `sightline serve`: the engine over MCP. Flags are parsed and checked here;
 * everything else is src/mcp. Exit codes: 0 stopped by SIGINT (or, on stdio,
 * SIGTERM or the client leaving), 143 http/sse stopped by SIGTERM, 1 refused
 * to start (port taken, address not this machine's), 2 usage (a remote bind
 * without --allow-remote among them).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { keepLive, Repo } from '../engine/index.js';
import { describeError, exitCodeOf } from '../errors/index.js';
import { embedderFlags, embedderOptions, repoOption, storeOption, type EmbedderFlags } from './verb.js';
import { bindRefusal, isLoopbackHost, resolveToolConcurrency, serve, TOKEN_ENV, TOOL_CONCURRENCY_ENV, type TransportName } from '../mcp/index.js';

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
  store?: string;
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

export function registerServe(program: Command): void {
  storeOption(embedderOptions(program.command('serve')))
    .description('serve the repository to AI coding agents over MCP (stdio, Streamable HTTP or SSE)')
    .addOption(new Option('--transport <name>', 'stdio for an editor that spawns the server; http or sse to listen on a port').choices(['stdio', 'http', 'sse']).default('stdio'))
    .option('--host <host>', 'address to listen on (http, sse); beyond loopback needs --allow-remote', '127.0.0.1')
    .option('--port <port>', 'port to listen on (http, sse); 0 picks a free one', port, 8765)
    .addOption(repoOption())
    .option('--config <file>', 'config file (default: <repo>/sightline.config.json)')
    .option('--enable-writes', 'offer the index tool, which updates the index')
    .option('--tool-concurrency <n>', `tool calls that run at once (default 2; env ${TOOL_CONCURRENCY_ENV})`)
    .option('--access-log', 'one line per HTTP request on stderr: client, request line, status')
    .option('--log-file <file>', 'append every tool call, result and error as JSON lines')
    .option('--allow-remote', 'allow --host beyond 127.0.0.1, localhost and ::1 (unencrypted: prefer an SSH tunnel)')
    .option('--watch', 'keep the index current while serving: index on file changes, reconcile periodically (the default; config `watch`)')
    .option('--no-watch', 'serve the index as it is: no watcher, no reconcile (answers still re-index a file they find changed)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ sightline serve                                  # stdio, for .mcp.json and friends',
        '  $ sightline serve --transport http --port 8765     # http://127.0.0.1:8765/mcp',
        '  $ sightline serve --transport sse                  # http://127.0.0.1:8765/sse',
        '  $ sightline serve --transport http --store postgres://sightline@db:5432/team   # one of N servers sharing memory and claims',
        '',
        `http and sse need "Authorization: Bearer <token>": a fresh token is printed on stderr at start, or pin one with ${TOKEN_ENV}.`,
        '',
      ].join('\n'),
    )
    .action(async (o: ServeFlags) => {
      if (o.transport !== 'stdio') {
        const refusal = bindRefusal(o.host, Boolean(o.allowRemote));
        if (refusal) stop(refusal, 2); // a flag the caller must add: usage
        if (!isLoopbackHost(o.host)) {
          warn(`listening on ${o.host}: anyone who can reach it and holds the token can read this repository, unencrypted; prefer an SSH tunnel to a loopback bind, or TLS in front`);
        }
      }
      let repo: Repo;
      try {
        repo = Repo.open(o.repo, { configPath: o.config, flags: { ...embedderFlags(o), watch: o.watch, databaseUrl: o.store }, warn });
      } catch (err) {
        stop(describeError(err), exitCodeOf(err));
      }
      if (repo.config.watch) await keepLive(repo, { onError: (err) => warn(`watch: ${describeError(err)}`) }).catch((err) => stop(describeError(err), 1));
      const toolConcurrency = resolveToolConcurrency({ flag: o.toolConcurrency, env: process.env[TOOL_CONCURRENCY_ENV] }, repo.config.toolConcurrency, warn);
      try {
        await serve({
          repo,
          transport: o.transport,
          host: o.host,
          port: o.port,
          accessLog: Boolean(o.accessLog),
          enableWrites: Boolean(o.enableWrites),
          toolConcurrency,
          logFile: o.logFile,
          info: say,
          warn,
        });
      } catch (err) {
        repo.close();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') stop(`port ${o.port} on ${o.host} is in use; pick another with --port (0 picks a free one)`, 1);
        if (code === 'EADDRNOTAVAIL') stop(`${o.host} is not an address of this machine; pass one it has`, 1);
        stop(describeError(err), exitCodeOf(err));
      }
    });
}
