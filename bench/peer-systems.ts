/**
 * The two systems bench:peer compares, each driven as a user drives it: the
 * CLI in a child process under /usr/bin/time (wall and peak RSS), and the MCP
 * server over stdio with the official SDK client. sightline runs from dist/;
 * the peer (codebase-memory-mcp) from the binary SIGHTLINE_PEER_BIN names.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/cli/main.js');

export interface Command {
  cmd: string;
  args: string[];
}

export interface Timed {
  ms: number;
  /** Peak of the summed RSS of every process the run started (sampled from /proc), MiB. */
  peakMiB: number;
  stdout: string;
}

const SAMPLE_MS = 50;

/**
 * Runs a command to completion; a non-zero exit is an error that carries its
 * stderr. Peak RSS is sampled from /proc over every process whose environment
 * holds `marker` (the run's own home): the peer's CLI hands its index to a
 * daemon it detaches, which GNU time's %M of the child would never see.
 */
export async function runTimed(c: Command, env: NodeJS.ProcessEnv, marker?: string): Promise<Timed> {
  const t0 = performance.now();
  const child = spawn(c.cmd, c.args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const sampler = marker ? rssSampler(marker) : undefined;
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ms = performance.now() - t0;
  const peakKiB = sampler?.stop() ?? 0;
  if (code !== 0) throw new Error(`${path.basename(c.cmd)} ${c.args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return { ms, peakMiB: peakKiB / 1024, stdout };
}

/** Samples the summed VmRSS of the marked processes until stopped; returns the peak in KiB. */
function rssSampler(marker: string): { stop: () => number } {
  const unmarked = new Set<string>(); // a process without the marker never gains it
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid) || unmarked.has(pid)) continue;
      try {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        // Empty while a process is being set up (between fork and exec) or gone: look again next time.
        if (environ === '') continue;
        if (!environ.split('\0').includes(marker)) {
          unmarked.add(pid);
          continue;
        }
        total += statusKiB(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      } catch {
        // exited between listing and reading
      }
    }
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** A `Field:  N kB` line of /proc/<pid>/status, in KiB (0 when absent, as for a zombie). */
export function statusKiB(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

export interface Answer {
  /** sightline answered status "refine" instead of results. */
  refine: boolean;
  /** At least one result came back. */
  hits: boolean;
}

/** One MCP tool used one way, over the identifiers or over every query. */
export interface Probe {
  label: string;
  over: 'identifiers' | 'all';
  call: (query: string) => Promise<Answer>;
}

export interface Session {
  probes: Probe[];
  close: () => Promise<void>;
}

export interface System {
  name: string;
  env: (home: string) => NodeJS.ProcessEnv;
  /** The environment entry that marks every process of a run in `home` (for RSS sampling and clean-up). */
  marker: (home: string) => string;
  index: (repo: string) => Command;
  version: Command;
  /** Settings the system needs in a fresh home before its MCP server starts. */
  prepareHome: (home: string) => Promise<void>;
  connect: (repo: string, home: string) => Promise<Session>;
  /** Ends what a run in `home` left behind, before the home is removed. */
  reap: (home: string) => Promise<void>;
}

async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text.slice(0, 500)}`);
  return text;
}

async function connectStdio(command: Command, env: NodeJS.ProcessEnv): Promise<Client> {
  const transport = new StdioClientTransport({ command: command.cmd, args: command.args, env: env as Record<string, string>, stderr: 'ignore' });
  const client = new Client({ name: 'bench-peer', version: '1' });
  await client.connect(transport);
  return client;
}

export function sightline(): System {
  const env = (home: string) => ({ PATH: process.env.PATH ?? '', SIGHTLINE_HOME: home, SIGHTLINE_QUERY_CACHE_SIZE: '0' }); // answer cache off: every call computes
  return {
    name: 'sightline',
    env,
    marker: (home) => `SIGHTLINE_HOME=${home}`,
    index: (repo) => ({ cmd: process.execPath, args: [CLI, 'index', '--repo', repo] }),
    version: { cmd: process.execPath, args: [CLI, '--version'] },
    prepareHome: async () => {},
    connect: async (repo, home) => {
      const client = await connectStdio({ cmd: process.execPath, args: [CLI, 'serve', '--no-watch', '--repo', repo] }, env(home));
      const answer = async (tool: string, args: Record<string, unknown>) => sightlineAnswer(await callText(client, tool, args));
      return {
        probes: [
          { label: 'search keyword', over: 'all', call: (query) => answer('search', { query, mode: 'keyword' }) },
          { label: 'search hybrid', over: 'all', call: (query) => answer('search', { query, mode: 'hybrid' }) },
          { label: 'locate', over: 'identifiers', call: (query) => answer('locate', { query }) },
        ],
        close: () => client.close(),
      };
    },
    reap: async () => {},
  };
}

/** A sightline answer (JSON text): refine, or how many results. */
export function sightlineAnswer(text: string): Answer {
  const answer = JSON.parse(text) as { status?: string; results?: unknown[] };
  return { refine: answer.status === 'refine', hits: (answer.results?.length ?? 0) > 0 };
}

/** A search_graph answer: text rows headed by `total: N`, or a JSON object with an error (which the peer does not flag as a tool error). */
export function peerSearchAnswer(text: string): Answer {
  if (text.trimStart().startsWith('{')) {
    const json = JSON.parse(text) as { error?: string; total?: number };
    if (json.error) throw new Error(`search_graph refused: ${json.error}`);
    return { refine: false, hits: (json.total ?? 0) > 0 };
  }
  const total = /^total: (\d+)/m.exec(text);
  if (!total) throw new Error(`search_graph answered without a total: ${text.slice(0, 300)}`);
  return { refine: false, hits: Number(total[1]) > 0 };
}

/** The project name the peer gives an indexed path, from its list_projects answer (JSON text, or JSON inside it). */
export function peerProjectName(listProjectsText: string, repo: string): string {
  const names = [...listProjectsText.matchAll(/"name"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!);
  const roots = [...listProjectsText.matchAll(/"root_path"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!);
  const byRoot = roots.findIndex((r) => path.resolve(r) === path.resolve(repo));
  const name = byRoot >= 0 && names.length === roots.length ? names[byRoot] : names.length === 1 ? names[0] : undefined;
  if (!name) throw new Error(`cannot tell the peer's project for ${repo} from list_projects: ${listProjectsText.slice(0, 500)}`);
  return name;
}

/** Escapes a name for the peer's name_pattern regex, anchored: an exact-name lookup. */
export function exactPattern(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}

export function peer(bin: string): System {
  // HOME and XDG_CONFIG_HOME too: its config file lives under them, and each run starts from none.
  const env = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), CBM_CACHE_DIR: path.join(home, 'cache') });
  const marker = (home: string) => `CBM_CACHE_DIR=${path.join(home, 'cache')}`;
  return {
    name: 'peer',
    env,
    marker,
    index: (repo) => ({ cmd: bin, args: ['cli', 'index_repository', '--repo-path', repo] }),
    version: { cmd: bin, args: ['--version'] },
    prepareHome: async (home) => {
      // No background git watcher in the daemon its MCP server starts: sightline serves --no-watch too.
      await runTimed({ cmd: bin, args: ['config', 'set', 'auto_watch', 'false'] }, env(home));
    },
    connect: async (repo, home) => {
      const client = await connectStdio({ cmd: bin, args: [] }, env(home));
      const project = peerProjectName(await callText(client, 'list_projects', {}), repo);
      const searchGraph = (args: (q: string) => Record<string, unknown>) => async (q: string) => peerSearchAnswer(await callText(client, 'search_graph', { project, ...args(q) }));
      return {
        probes: [
          { label: 'search_graph query', over: 'all', call: searchGraph((query) => ({ query })) },
          { label: 'search_graph name_pattern', over: 'identifiers', call: searchGraph((q) => ({ name_pattern: exactPattern(q) })) },
        ],
        close: () => client.close(),
      };
    },
    reap: (home) => reapProcesses(bin, marker(home)),
  };
}

/** The peer's CLI and MCP server start a detached daemon that exits when idle; wait for it, then end any left (by pid, ours only). */
async function reapProcesses(bin: string, marker: string): Promise<void> {
  const ours = () => processesOf(bin, marker);
  const deadline = Date.now() + 10_000;
  while (ours().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of ours()) process.kill(pid, 'SIGKILL');
}

/** Pids running `bin` whose environment holds `envEntry`. */
function processesOf(bin: string, envEntry: string): number[] {
  const real = fs.realpathSync(bin);
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readlinkSync(`/proc/${entry}/exe`) !== real) continue;
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(envEntry)) pids.push(Number(entry));
    } catch {
      // gone already, or not ours to read
    }
  }
  return pids;
}

/** The pairs whose latency ratio the report prints: sightline's probe, the peer's comparable one. */
export const COMPARABLE: [string, string][] = [
  ['search keyword', 'search_graph query'],
  ['search hybrid', 'search_graph query'],
  ['locate', 'search_graph name_pattern'],
];
