/**
 * Memory benchmark: p50/p95 of remember, recall, claim, renew and release with
 * 8 processes on one index file, claim throughput (claim + release cycles a
 * second on 4 hot records, all processes together), and recall latency with 100k entries.
 *
 *   npm run build && npm run bench:memory [-- --workers 8 --ops 200 --entries 100000]
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { citationProbe, Repo } from '../src/engine/index.js';
import { claim, recall, releaseClaim, remember, renewClaim } from '../src/memory/index.js';
import { percentile, table, time } from './util.js';

const OPS = ['remember', 'recall', 'claim', 'renew', 'release'] as const;
type Samples = Record<(typeof OPS)[number], number[]>;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const open = (root: string, home: string) => Repo.open(root, { flags: { home, embedder: 'none' }, env: {} });

/** One process: `ops` rounds of remember → recall → claim → renew → release on its own items. */
async function worker(root: string, home: string, me: string, ops: number): Promise<void> {
  const repo = open(root, home);
  const m = repo.memory;
  const samples: Samples = { remember: [], recall: [], claim: [], renew: [], release: [] };
  const started = performance.now();
  for (let i = 0; i < ops; i++) {
    const made = await time(() => remember(m, { topic: 'bench', id: `${me}-${i}`, title: `item ${i}`, body: 'x'.repeat(200), tags: ['todo'] }));
    samples.remember.push(made.ms);
    samples.recall.push((await time(() => recall(m, { key: made.value.key }, citationProbe(repo)))).ms);
    const got = await time(() => claim(m, { key: made.value.key, owner: me, lease_seconds: 30 }));
    samples.claim.push(got.ms);
    const token = (got.value as { fencing_token: number }).fencing_token;
    samples.renew.push((await time(() => renewClaim(m, { key: made.value.key, fencing_token: token, lease_seconds: 60 }))).ms);
    samples.release.push((await time(() => releaseClaim(m, { key: made.value.key, fencing_token: token }))).ms);
  }
  process.send!({ samples, wallMs: performance.now() - started });
  repo.close();
}

/** Contended claims: every process claims and releases the same few records as fast as it can. */
async function contender(root: string, home: string, me: string, ms: number): Promise<void> {
  const repo = open(root, home);
  let cycles = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const key = `memory:hot/h${cycles % 4}`;
    const got = await claim(repo.memory, { key, owner: me });
    if (got.granted) {
      await releaseClaim(repo.memory, { key, fencing_token: (got as { fencing_token: number }).fencing_token });
      cycles++;
    }
  }
  process.send!({ cycles });
  repo.close();
}

function spawnAll<T>(n: number, args: string[]): Promise<T[]> {
  const self = fileURLToPath(import.meta.url);
  return Promise.all(
    Array.from({ length: n }, (_, i) => new Promise<T>((resolve, reject) => {
      const child = fork(self, [...args, `w${i}`]);
      child.once('message', (m) => resolve(m as T));
      child.once('exit', (code) => (code ? reject(new Error(`worker exited ${code}`)) : undefined));
    })),
  );
}

async function main(): Promise<void> {
  const [mode, root, home, extra, me] = process.argv.slice(2);
  if (mode === '--worker') return worker(root!, home!, me!, Number(extra));
  if (mode === '--contender') return contender(root!, home!, me!, Number(extra));
  const workers = arg('workers', 8);
  const ops = arg('ops', 200);
  const entries = arg('entries', 100_000);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-memory-bench-'));
  const repoRoot = path.join(base, 'repo');
  const homeDir = path.join(base, 'home');
  fs.mkdirSync(path.join(repoRoot, 'src'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'src/a.ts'), 'export function parse(s: string) {\n  return s.trim();\n}\n');
  const repo = open(repoRoot, homeDir);
  await repo.index();
  for (let i = 0; i < 4; i++) await remember(repo.memory, { topic: 'hot', id: `h${i}` });

  const runs = await spawnAll<{ samples: Samples; wallMs: number }>(workers, ['--worker', repoRoot, homeDir, String(ops)]);
  const merged = Object.fromEntries(OPS.map((op) => [op, runs.flatMap((r) => r.samples[op])])) as Samples;
  const contendMs = 5000;
  const contended = await spawnAll<{ cycles: number }>(workers, ['--contender', repoRoot, homeDir, String(contendMs)]);
  const uncontended = (workers * ops) / (Math.max(...runs.map((r) => r.wallMs)) / 1000);

  // 100k entries, written in one transaction (the decisions nest as savepoints), then recalled at random.
  const db = repo.store.db;
  db.exec('BEGIN IMMEDIATE');
  for (let i = 0; i < entries; i++) {
    await remember(repo.memory, { topic: `t${i % 50}`, id: `e${i}`, title: `entry ${i}`, body: `note ${i} about parsing`, add_links: i % 10 ? undefined : { about: ['symbol:src/a.ts#parse'] } });
  }
  db.exec('COMMIT');
  const recallMs: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const n = Math.floor(Math.random() * entries);
    recallMs.push((await time(() => recall(repo.memory, { key: `memory:t${n % 50}/e${n}` }, citationProbe(repo)))).ms);
  }
  repo.close();
  fs.rmSync(base, { recursive: true, force: true });

  const row = (name: string, xs: number[]) => [name, xs.length, percentile(xs, 50), percentile(xs, 95)];
  process.stdout.write(`memory benchmark: ${workers} processes on one index file, ${ops} rounds each; ${os.cpus().length} CPUs\n\n`);
  process.stdout.write(table(['operation (ms)', 'calls', 'p50', 'p95'], [...OPS.map((op) => row(`${op} @${workers} procs`, merged[op])), row(`recall @${entries} entries`, recallMs)]) + '\n\n');
  process.stdout.write(
    table(['claim throughput', 'per second'], [
      [`rounds of all five operations, own records, ${workers} procs`, uncontended],
      [`claim+release cycles, 4 hot records, ${workers} procs`, contended.reduce((n, c) => n + c.cycles, 0) / (contendMs / 1000)],
    ]) + '\n',
  );
}

await main();
