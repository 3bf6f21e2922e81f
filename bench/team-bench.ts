/**
 * Team benchmark: agents (MCP SDK clients over Streamable HTTP) draining one
 * backlog through claims — claim, recall, search, write under the token,
 * release — on 1 and 2 `serve` processes sharing one PostgreSQL, with the
 * SQLite-only single server beside them. Prints claim throughput (granted
 * claims a second, all agents together), p50/p95 of claim, recall and search
 * round trips, and errors (tool errors and failed calls; there should be none).
 * Each server indexes its own copy of this repository's src/ (as on its own machine).
 * With --duration SECONDS each setup runs for that long instead of until the
 * backlog is drained: an item's write leaves it on the backlog, so the agents
 * never run out of work and every setup is measured over the same time.
 *
 *   npm run build && npm run bench:team [-- --items 200 --agents 8,32 --setups sqlite,pg1,pg2 --duration 60]
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { fileURLToPath } from 'node:url';
import { closeTeamPools } from '../src/team/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { connectAgent, seedBacklog, startTeamServer, todoKeys, tool, type TeamServer } from '../test/helpers/team-cluster.js';
import { percentile, PHRASE_QUERIES, table } from './util.js';
import os from 'node:os';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../src/cli/main.js');
const SOURCE = path.resolve(HERE, '../../src');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}

const ITEMS = Number(arg('items', '200'));
const AGENT_COUNTS = arg('agents', '8,32').split(',').map(Number);
/** sqlite: one server on SQLite alone; pg1, pg2: one or two servers on one PostgreSQL. */
const SETUPS = arg('setups', 'sqlite,pg1,pg2').split(',');
/** Seconds each setup runs; 0: until the backlog is drained. */
const DURATION_S = Number(arg('duration', '0'));
if (!Number.isFinite(DURATION_S) || DURATION_S < 0) throw new Error(`--duration takes a number of seconds (got ${arg('duration', '0')})`);

interface Samples {
  claim: number[];
  recall: number[];
  search: number[];
  granted: number;
  errors: number;
  /** The first error of each kind, printed once the setup ends: errors must be 0, and a nonzero count should say why. */
  firstErrors: Set<string>;
}

function noteError(s: Samples, what: string): void {
  s.errors++;
  if (s.firstErrors.size < 5) s.firstErrors.add(what.slice(0, 300));
}

async function timed(samples: number[], body: () => Promise<Record<string, any>>, s: Samples): Promise<Record<string, any> | null> {
  const t0 = performance.now();
  try {
    const r = await body();
    samples.push(performance.now() - t0);
    if (r.error) noteError(s, String(r.error));
    return r.error ? null : r;
  } catch (err) {
    noteError(s, String(err));
    return null;
  }
}

/**
 * One agent: claim an item, recall it, search, write it under the token,
 * release; until the backlog is empty, or with a deadline until then (its
 * writes then keep the item on the backlog).
 */
async function agent(client: Client, me: string, s: Samples, n: number, deadline: number | null): Promise<void> {
  const write = (key: string, token: number) =>
    deadline === null
      ? tool(client, 'update', { key, fields: { body: `done:${me}` }, remove_tags: ['todo'], add_tags: ['done'], fencing_token: token })
      : tool(client, 'update', { key, fields: { body: 'todo', author: me }, fencing_token: token });
  for (let round = 0; ; round++) {
    const todo = await todoKeys(client);
    if (!todo.length) return;
    for (const key of todo.sort(() => Math.random() - 0.5)) {
      if (deadline !== null && performance.now() >= deadline) return;
      const got = await timed(s.claim, () => tool(client, 'claim', { key, owner: me, lease_seconds: 60 }), s);
      if (!got?.granted) continue;
      s.granted++;
      const token = got.fencing_token as number;
      const seen = await timed(s.recall, () => tool(client, 'recall', { key }), s);
      await timed(s.search, () => tool(client, 'search', { query: PHRASE_QUERIES[(n + s.granted) % PHRASE_QUERIES.length], k: 5 }), s);
      if (seen?.fields?.body === 'todo') {
        const done = await write(key, token).catch((err: unknown) => ({ error: String(err) }));
        if (done.error) noteError(s, `update: ${done.error}`);
      }
      const released = await tool(client, 'release_claim', { key, fencing_token: token }).catch((err: unknown) => ({ error: String(err) }));
      if (released.error) noteError(s, `release_claim: ${released.error}`);
    }
    if (deadline === null && round > 10_000) throw new Error('the backlog never drained');
  }
}

/** Servers run with --no-watch, so each builds its local index when asked, before the clock starts. */
async function indexed(client: Client): Promise<void> {
  const r = await tool(client, 'index', { wait: true });
  if (r.error) throw new Error(`index failed: ${r.error}`);
}

async function scenario(repo: string, store: string | undefined, serverCount: number, agents: number, name: string): Promise<(string | number)[]> {
  const homes = Array.from({ length: serverCount }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-home-')));
  const servers: TeamServer[] = await Promise.all(homes.map((home) => startTeamServer({ cli: CLI, repo, home, store, env: { SIGHTLINE_TEAM_REPO: name } })));
  const clients = await Promise.all(Array.from({ length: agents }, (_, i) => connectAgent(servers[i % serverCount]!, `agent-${i}`)));
  try {
    await Promise.all(clients.slice(0, serverCount).map(indexed));
    await seedBacklog(clients[0]!, ITEMS);
    const s: Samples = { claim: [], recall: [], search: [], granted: 0, errors: 0, firstErrors: new Set() };
    const t0 = performance.now();
    const deadline = DURATION_S > 0 ? t0 + DURATION_S * 1000 : null;
    await Promise.all(clients.map((c, i) => agent(c, `agent-${i}`, s, i, deadline)));
    const seconds = (performance.now() - t0) / 1000;
    for (const e of s.firstErrors) process.stderr.write(`sightline bench: ${name}: error: ${e}\n`);
    const p = (xs: number[], q: number) => percentile(xs, q);
    return [store ? 'postgres' : 'sqlite only', String(serverCount), String(agents), s.granted / seconds, p(s.claim, 50), p(s.claim, 95), p(s.recall, 50), p(s.recall, 95), p(s.search, 50), p(s.search, 95), String(s.errors)];
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    for (const server of servers) server.proc.kill('SIGINT');
    await Promise.all(servers.map((server) => server.exited));
    for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-repo-'));
  fs.cpSync(SOURCE, path.join(repo, 'src'), { recursive: true });
  const db = await startPostgres();
  // Stopped by a timeout or ^C: the throw-away PostgreSQL goes too, not left running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (db.stop(), process.exit(130)));
  const rows: (string | number)[][] = [];
  try {
    for (const agents of AGENT_COUNTS) {
      for (const [store, servers] of SETUPS.map((name) => [name === 'sqlite' ? undefined : db.url, name === 'pg2' ? 2 : 1] as const)) {
        const row = await scenario(repo, store, servers, agents, `${store ? 'pg' : 'sqlite'}-${servers}-${agents}`);
        rows.push(row);
        process.stderr.write(`sightline bench: ${row.join(' | ')}\n`); // each row as it lands: a long run that is cut short keeps what it measured
      }
    }
  } finally {
    await closeTeamPools();
    db.stop();
    fs.rmSync(repo, { recursive: true, force: true });
  }
  const run = DURATION_S > 0 ? `worked for ${DURATION_S} s per setup` : 'drained';
  process.stdout.write(`Team backend: ${ITEMS} backlog items ${run} by agents over Streamable HTTP (claim → recall → search → write → release); latencies in ms\n\n`);
  process.stdout.write(
    table(['store', 'servers', 'agents', 'claims/s', 'claim p50', 'claim p95', 'recall p50', 'recall p95', 'search p50', 'search p95', 'errors'], rows) + '\n',
  );
}

await main();
