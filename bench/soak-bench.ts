/**
 * npm run bench:soak -- [repo] [--fuzz N] [--seconds S] [--clients C] [--churn N] [--seed X] [--cpu-prof DIR]
 *
 * One hostile input must not stall everyone (issue 21). Against the real
 * server (`serve --transport http --enable-writes`) with SDK clients:
 *
 * - fuzz: N seeded calls across every tool (bench/fuzz.ts: random and
 *   adversarial arguments, 1 MB strings, catastrophic regexes, long tokens)
 *   from 4 sessions at once, then oversized frames (an 11 MiB stdio line, a
 *   5 MiB and a 100,000-deep HTTP body);
 * - load: C clients, each its own session, doing search / locate / read /
 *   outline for S seconds;
 * - churn: N sessions opened, used and closed, 10 at a time.
 *
 * Throughout, an unauthenticated request every 100 ms measures whether the
 * server's one thread answers: a stall is one that took over 1 s. Prints
 * calls, refusals, internal errors, stalls, p50/p95 and the server's RSS at
 * start, peak and end, and the server's CPU time per call under load (all
 * threads, and the main thread alone). `--cpu-prof DIR` writes the server's CPU profiles
 * (one per thread, read workers included) to DIR when it stops, for where
 * its time goes under load. The repository defaults to a copy of this package's
 * src/ and docs/. Run `npm run build` first. It asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callFuzzed, fuzzCalls, rng, type Outcome } from './fuzz.js';
import { percentile, table, usage } from './util.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../src/cli/main.js');
const PACKAGE = path.resolve(HERE, '../..');
const STALL_MS = 1_000;
const FUZZ_SESSIONS = 4;
const CHURN_AT_ONCE = 10;

interface Args {
  repo: string | null;
  fuzz: number;
  seconds: number;
  clients: number;
  churn: number;
  seed: number;
  cpuProf: string | null;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { repo: null, fuzz: 10_000, seconds: 30, clients: 50, churn: 1_000, seed: 21, cpuProf: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0) usage(`${a} needs a number`);
      return n;
    };
    if (a === '--fuzz') out.fuzz = num();
    else if (a === '--seconds') out.seconds = num();
    else if (a === '--clients') out.clients = num();
    else if (a === '--churn') out.churn = num();
    else if (a === '--seed') out.seed = num();
    else if (a === '--cpu-prof' && argv[i + 1]) out.cpuProf = path.resolve(argv[++i]!);
    else if (a.startsWith('--')) usage('usage: npm run bench:soak -- [repo] [--fuzz N] [--seconds S] [--clients C] [--churn N] [--seed X] [--cpu-prof DIR]');
    else out.repo = path.resolve(a);
  }
  return out;
}

function rssMiB(pid: number): { now: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * CPU seconds the server has used: its main thread (the one every session
 * shares) and the whole process, from /proc (user + system, in clock ticks of
 * 1/100 s). Unlike latency, CPU per call barely moves with the machine's
 * other load, so it compares builds on a shared machine.
 */
function cpuSeconds(pid: number): { main: number; all: number } {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: fields 14 and 15 of stat(5)
  };
  return { main: ticks(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')), all: ticks(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) };
}

interface Served {
  child: ChildProcess;
  url: URL;
  token: string;
  stderr: () => string;
}

async function startServer(repo: string, env: NodeJS.ProcessEnv, cpuProf: string | null): Promise<Served> {
  const profile = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : [];
  const child = spawn(process.execPath, [...profile, CLI, 'serve', '--transport', 'http', '--port', '0', '--repo', repo, '--enable-writes', '--no-watch'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const [, url, token] = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /on (http:\/\/\S+)[\s\S]*Authorization: Bearer (\S+)\n/.exec(stderr);
      if (m) resolve(m);
    });
    child.once('exit', () => reject(new Error(`server exited: ${stderr}`)));
  });
  return { child, url: new URL(url!), token: token!, stderr: () => stderr };
}

async function connect(s: Served): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(s.url, { requestInit: { headers: { Authorization: `Bearer ${s.token}` } } });
  const client = new Client({ name: 'soak', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

async function disconnect(c: { client: Client; transport: StreamableHTTPClientTransport }): Promise<void> {
  await c.transport.terminateSession().catch(() => {});
  await c.client.close();
}

/** An unauthenticated request every 100 ms: how long the server's thread takes to say 401, tagged with the phase running. */
function heartbeat(s: Served, phase: { name: string }): { stop: () => Promise<{ ms: number; phase: string }[]> } {
  const samples: { ms: number; phase: string }[] = [];
  let running = true;
  const beat = (): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const during = phase.name;
      const req = http.get({ host: s.url.hostname, port: s.url.port, path: '/mcp' }, (res) => {
        res.resume();
        res.on('end', () => {
          samples.push({ ms: performance.now() - t0, phase: during });
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
  const loop = (async () => {
    while (running) {
      await beat();
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

interface Row {
  phase: string;
  calls: number;
  ok: number;
  refusals: number;
  internal: number;
  latencies: number[];
  seconds: number;
  note: string;
  /** The server's RSS when the phase ended. */
  rssMiB?: number;
}

async function fuzzPhase(s: Served, n: number, seed: number): Promise<{ row: Row; internal: string[] }> {
  const sessions = await Promise.all(Array.from({ length: FUZZ_SESSIONS }, () => connect(s)));
  const { tools } = await sessions[0]!.client.listTools();
  const calls = fuzzCalls(tools, n, seed);
  const counts: Record<Outcome, number> = { ok: 0, refusal: 0, internal: 0 };
  const latencies: number[] = [];
  const internal: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async ({ client }) => {
      while (next < calls.length) {
        const c = calls[next++]!;
        const started = performance.now();
        const r = await callFuzzed(client, c, 60_000);
        latencies.push(performance.now() - started);
        counts[r.outcome]++;
        if (r.outcome === 'internal' && internal.length < 10) internal.push(`${c.name}: ${r.text}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const c of sessions) await disconnect(c);
  return { row: { phase: 'fuzz', calls: n, ok: counts.ok, refusals: counts.refusal, internal: counts.internal, latencies, seconds, note: `${tools.length} tools` }, internal };
}

function post(s: Served, body: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: s.url.hostname, port: s.url.port, path: '/mcp', method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An 11 MiB stdio line, then a request the server must still answer; and two oversized HTTP bodies. */
async function framesPhase(s: Served, repo: string, env: NodeJS.ProcessEnv): Promise<Row> {
  const latencies: number[] = [];
  let refusals = 0;
  let internal = 0;
  const t0 = performance.now();
  for (const [body, want] of [[Buffer.alloc(5 * 1_048_576, 0x61), 413], ['['.repeat(100_000) + ']'.repeat(100_000), 400]] as const) {
    const started = performance.now();
    const status = await post(s, body);
    latencies.push(performance.now() - started);
    if (status === want) refusals++;
    else internal++;
  }
  const child = spawn(process.execPath, [CLI, 'serve', '--repo', repo, '--no-watch'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const started = performance.now();
  child.stdin!.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'a'.repeat(11 * 1_048_576)}"}}\n`);
  child.stdin!.write('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}\n');
  const deadline = Date.now() + 30_000;
  while (!/"id":2/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  latencies.push(performance.now() - started);
  if (/-32600/.test(out) && /"id":2,"result"|"result".*"id":2/.test(out)) refusals++;
  else internal++;
  child.kill('SIGKILL');
  return { phase: 'oversized frames', calls: 3, ok: 0, refusals, internal, latencies, seconds: (performance.now() - t0) / 1000, note: '11 MiB stdio line, 5 MiB and 100k-deep HTTP bodies' };
}

const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

async function loadPhase(s: Served, clients: number, seconds: number, seed: number): Promise<Row> {
  const pid = s.child.pid!;
  const sessions = await Promise.all(Array.from({ length: clients }, () => connect(s)));
  const first = sessions[0]!.client;
  const listed = JSON.parse(text((await first.callTool({ name: 'list_files', arguments: { glob: '**/*.ts', max_tokens: 4000 } })) as CallToolResult));
  const paths: string[] = listed.files.map((f: { path: string }) => f.path).slice(0, 60);
  const names = ['Repo', 'Store', 'walk', 'readSource', 'countTokens', 'IndexJob', 'search', 'SightlineError', 'describeError', 'parseFile'];
  const words = ['parse config file', 'read file contents', 'error handling', 'index pass', 'token budget', 'session', 'walk directory tree'];
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const ops = [
    () => ({ name: 'search', arguments: { query: pick(words) } }),
    () => ({ name: 'locate', arguments: { query: pick(names) } }),
    () => ({ name: 'read', arguments: { target: `${pick(paths)}:1-40`, expand: false } }),
    () => ({ name: 'outline', arguments: { path: pick(paths) } }),
  ];
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError = '';
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const cpu0 = cpuSeconds(pid);
  await Promise.all(
    sessions.map(async ({ client }) => {
      while (performance.now() < until) {
        const call = pick(ops)();
        const started = performance.now();
        try {
          const r = (await client.callTool(call, undefined, { timeout: 60_000 })) as CallToolResult;
          if (!r.isError) ok++;
          else if (errors++ === 0) firstError = `${call.name}: ${text(r).slice(0, 160)}`;
        } catch (err) {
          if (errors++ === 0) firstError = `${call.name}: ${(err as Error).message.slice(0, 160)}`;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(pid);
  for (const c of sessions) await disconnect(c);
  const perCall = (s: number) => ((1000 * s) / Math.max(1, latencies.length)).toFixed(2);
  const cpu = `server CPU ${perCall(cpu1.all - cpu0.all)} ms/call (main thread ${perCall(cpu1.main - cpu0.main)})`;
  return { phase: 'load', calls: latencies.length, ok, refusals: 0, internal: errors, latencies, seconds: elapsed, note: `${(latencies.length / elapsed).toFixed(1)} calls/s, ${cpu}${firstError ? `; first error: ${firstError}` : ''}` };
}

async function churnPhase(s: Served, n: number): Promise<{ row: Row; openAfter: number }> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  const t0 = performance.now();
  for (let done = 0; done < n; done += CHURN_AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(CHURN_AT_ONCE, n - done) }, async () => {
        const started = performance.now();
        try {
          const c = await connect(s);
          await c.client.listTools();
          await disconnect(c);
          ok++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - started);
      }),
    );
  }
  const probe = await connect(s);
  const health = JSON.parse(text((await probe.client.callTool({ name: 'health', arguments: {} })) as CallToolResult));
  await disconnect(probe);
  const openAfter = health.server.open_sessions - 1; // less the probe itself
  return { row: { phase: 'session churn', calls: n, ok, refusals: 0, internal: errors, latencies, seconds: (performance.now() - t0) / 1000, note: `${openAfter} sessions held after` }, openAfter };
}

function defaultRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-soak-repo-'));
  for (const sub of ['src', 'docs']) fs.cpSync(path.join(PACKAGE, sub), path.join(dir, sub), { recursive: true });
  return dir;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const repo = args.repo ?? defaultRepo();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-soak-home-'));
  const env = { ...process.env, SIGHTLINE_HOME: home };
  process.stderr.write(`indexing ${repo}…\n`);
  const indexed = spawnSync(process.execPath, [CLI, 'index', '--repo', repo], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (indexed.status !== 0) throw new Error('index failed');
  const server = await startServer(repo, env, args.cpuProf);
  const pid = server.child.pid!;
  try {
    const warm = await connect(server);
    await warm.client.callTool({ name: 'search', arguments: { query: 'warm up' } });
    await disconnect(warm);
    const rssStart = rssMiB(pid).now;
    const phase = { name: '' };
    const beats = heartbeat(server, phase);
    const measured = async <T extends { phase: string; rssMiB?: number }>(name: string, run: () => Promise<T>): Promise<T> => {
      process.stderr.write(`${name}…\n`);
      phase.name = name;
      const row = await run();
      row.phase = name;
      row.rssMiB = rssMiB(pid).now;
      return row;
    };
    let fuzzInternal: string[] = [];
    const fuzz = await measured(`fuzz (${args.fuzz} calls)`, async () => {
      const r = await fuzzPhase(server, args.fuzz, args.seed);
      fuzzInternal = r.internal;
      return r.row;
    });
    const frames = await measured('oversized frames', () => framesPhase(server, repo, env));
    const load = await measured(`load (${args.clients} clients, ${args.seconds} s)`, () => loadPhase(server, args.clients, args.seconds, args.seed));
    let openAfter = 0;
    const churn = await measured(`churn (${args.churn} sessions)`, async () => {
      const r = await churnPhase(server, args.churn);
      openAfter = r.openAfter;
      return r.row;
    });
    const samples = await beats.stop();
    const rss = rssMiB(pid);
    const rows = [fuzz, frames, load, churn];
    const stallsIn = (name: string) => samples.filter((b) => b.phase === name && b.ms > STALL_MS).length;
    console.log(
      table(
        ['phase', 'calls', 'ok', 'refusals', 'internal errors', `stalls > ${STALL_MS / 1000} s`, 'p50 ms', 'p95 ms', 'seconds', 'RSS after MiB', 'note'],
        rows.map((r) => [r.phase, String(r.calls), String(r.ok), String(r.refusals), String(r.internal), String(stallsIn(r.phase)), percentile(r.latencies, 50), percentile(r.latencies, 95), r.seconds, r.rssMiB ?? NaN, r.note]),
      ),
    );
    const ms = samples.map((b) => b.ms);
    const stalls = ms.filter((m) => m > STALL_MS).length;
    console.log('');
    console.log(
      table(
        ['heartbeats', `stalls > ${STALL_MS / 1000} s`, 'heartbeat p50 ms', 'p95 ms', 'max ms', 'RSS start MiB', 'RSS peak MiB', 'RSS end MiB', 'sessions held after churn'],
        [[String(samples.length), String(stalls), percentile(ms, 50), percentile(ms, 95), Math.max(...ms), rssStart, rss.peak, rss.now, String(openAfter)]],
      ),
    );
    if (fuzzInternal.length) console.log(`\ninternal errors (first ${fuzzInternal.length}):\n${fuzzInternal.join('\n')}`);
    const toolFailures = server.stderr().match(/tool \w+ failed:.*$/gm) ?? [];
    if (toolFailures.length) console.log(`\nserver reported ${toolFailures.length} tool failures, first: ${toolFailures[0]}`);
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited; // its profiles are written as it exits
    if (!args.repo) fs.rmSync(repo, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
