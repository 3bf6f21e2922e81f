/**
 * npm run bench:mcp -- <path>
 * Tool-call latency through the real server (dist/src/cli/main.js serve) with
 * the SDK client: p50/p95 of keyword `search` and `locate` over stdio and
 * Streamable HTTP, with one client and with 8 concurrent clients, and the
 * server's RSS. Over stdio the 8 clients share the one pipe (an agent's
 * parallel tool calls); over HTTP each is its own session. A third server runs
 * keyword-only (SIGHTLINE_EMBEDDER=none), the mode the latency target is for.
 * Run `npm run build` first. It prints a table and asserts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Repo } from '../src/engine/index.js';
import { percentile, table, usage } from './util.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/main.js');
const PHRASES = ['parse config file', 'read file contents', 'error handling retry', 'open database connection', 'walk directory tree', 'http request headers'];
const IDENTIFIERS = 14;
const ROUNDS = 3;
const CONCURRENT = 8;

interface Server {
  clients: Client[];
  pid: number;
  close: () => Promise<void>;
}

function rssMiB(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function stdioServer(repo: string, env: Record<string, string>): Promise<Server> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--repo', repo], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { clients: Array(CONCURRENT).fill(client), pid: transport.pid!, close: () => client.close() };
}

async function httpServer(repo: string, env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--transport', 'http', '--port', '0', '--repo', repo], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const banner = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /on (http:\/\/\S+)[\s\S]*Authorization: Bearer (\S+)\n/.exec(stderr);
      if (m) resolve(m);
    });
    child.once('exit', () => reject(new Error(`server exited: ${stderr}`)));
  });
  const [, url, token] = banner;
  const clients = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    }),
  );
  return {
    clients,
    pid: child.pid!,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      child.kill('SIGINT');
    },
  };
}

type Call = { tool: 'search' | 'locate'; args: Record<string, unknown> };

/** Every call ROUNDS times, by `clients` callers at once: latency per call, and the retrieval modes that answered. */
async function measure(server: Server, calls: Call[], clients: number): Promise<{ ms: number[]; modes: Set<string> }> {
  const queue = Array.from({ length: ROUNDS }, () => calls).flat();
  const ms: number[] = [];
  const modes = new Set<string>();
  let next = 0;
  await Promise.all(
    server.clients.slice(0, clients).map(async (client) => {
      while (next < queue.length) {
        const c = queue[next++]!;
        const t0 = performance.now();
        const r = (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
        ms.push(performance.now() - t0);
        if (r.isError) throw new Error(`${c.tool} ${JSON.stringify(c.args)}: ${JSON.stringify(r.content)}`);
        const answer = JSON.parse((r.content[0] as { text: string }).text) as { status?: string; mode?: string }; // sent once, as JSON text
        modes.add(answer.mode ?? answer.status ?? '-'); // a refine answer has no mode
      }
    }),
  );
  return { ms, modes };
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) usage('usage: npm run bench:mcp -- <path-to-repository>');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
  try {
    const repo = Repo.open(target, { flags: { home } });
    const summary = await repo.index();
    const names = repo.store.symbols.allNames().filter((n) => n.length >= 6).sort();
    const step = Math.max(1, Math.floor(names.length / IDENTIFIERS));
    const identifiers = names.filter((_, i) => i % step === 0).slice(0, IDENTIFIERS);
    repo.close();
    const searches: Call[] = [...PHRASES, ...identifiers].map((query) => ({ tool: 'search', args: { query } }));
    const locates: Call[] = identifiers.map((query) => ({ tool: 'locate', args: { query } }));
    const env = { PATH: process.env.PATH ?? '', SIGHTLINE_HOME: home };

    const rows: (string | number)[][] = [];
    const rss: [string, { now: number; peak: number }][] = [];
    const servers = [
      ['stdio', stdioServer, env, [searches, locates]],
      ['http', httpServer, env, [searches, locates]],
      ['stdio', stdioServer, { ...env, SIGHTLINE_EMBEDDER: 'none' }, [searches]],
    ] as const;
    for (const [transport, start, serverEnv, workloads] of servers) {
      const server = await start(repo.root, serverEnv);
      try {
        await measure(server, searches, 1); // warm: page cache, statement cache, JIT
        for (const clients of [1, CONCURRENT]) {
          for (const calls of workloads) {
            const { ms, modes } = await measure(server, calls, clients);
            rows.push([transport, calls[0]!.tool, [...modes].join('+'), String(clients), String(ms.length), percentile(ms, 50), percentile(ms, 95)]);
          }
        }
        rss.push([`${transport}${serverEnv === env ? '' : ' (keyword only)'}`, rssMiB(server.pid)]);
      } finally {
        await server.close();
      }
    }
    process.stdout.write(
      `sightline MCP bench: ${repo.root} (${summary.scanned} files, ${summary.chunks} chunks), ${os.cpus().length} CPUs, node ${process.version}\n\n` +
        table(['transport', 'tool', 'mode', 'clients', 'calls', 'p50 ms', 'p95 ms'], rows) +
        '\n\n' +
        table(['transport', 'server RSS MiB', 'peak RSS MiB'], rss.map(([t, r]) => [t, r.now, r.peak])) +
        '\n',
    );
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await main();
