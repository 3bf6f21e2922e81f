/**
 * npm run bench:peer -- [--reps N] <tree>...
 * sightline side by side with codebase-memory-mcp (the peer, when
 * SIGHTLINE_PEER_BIN names its binary) on copies of each tree, interleaved
 * (sightline, peer, sightline, peer… for --reps N), each run a child process
 * with a fresh index home: cold index wall and peak RSS, no-change and
 * one-edit re-index through the CLI, index size on disk ÷ indexed source
 * bytes, process start, and query latency over MCP stdio (SDK client) for 15
 * identifiers the tree defines and 15 word queries, each tool in a fresh server
 * (each question asked first, then again). One table per measure with
 * the ratio sightline ÷ peer. Run `npm run build` first. It asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bytesUnder, editFile, prepareTree, type PreparedTree } from './peer-tree.js';
import { CLI, COMPARABLE, peer, runTimed, sightline, type Command, type System } from './peer-systems.js';
import { fmt, median, percentile, table, usage } from './util.js';

const STARTS = 5;
const USAGE = 'usage: [SIGHTLINE_PEER_BIN=<codebase-memory-mcp binary>] npm run bench:peer -- [--reps N] <tree>...';

interface Rep {
  coldMs: number;
  peakMiB: number;
  noChangeMs: number;
  editMs: number;
  indexBytes: number;
  startMs: number;
  /** Per probe label: one latency per query, asked the first time in a server of the probe's own. */
  first: Record<string, number[]>;
  /** Per probe label: one latency per query, asked again right after. */
  again: Record<string, number[]>;
  refine: Record<string, number>;
  hits: Record<string, number>;
  /** Per probe label: the queries answered refine. */
  refined: Record<string, string[]>;
}

interface TreeResult {
  tree: PreparedTree;
  indexedSourceBytes: number;
  indexedFiles: number;
  nodeStartMs: number[];
  reps: Record<string, Rep[]>;
}

function parseArgs(argv: string[]): { reps: number; trees: string[] } {
  let reps = 2;
  const trees: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reps') {
      reps = Number(argv[++i]);
      if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number of at least 1\n${USAGE}`);
    } else trees.push(argv[i]!);
  }
  if (trees.length === 0) usage(USAGE);
  return { reps, trees };
}

async function medianStart(c: Command, env: NodeJS.ProcessEnv): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < STARTS; i++) ms.push((await runTimed(c, env)).ms);
  return median(ms);
}

/** One system's full pass over its copy of the tree, in a fresh home. */
async function runRep(system: System, tree: PreparedTree): Promise<Rep> {
  const repo = tree.copies[system.name]!;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `peer-bench-${system.name}-`));
  const env = system.env(home);
  try {
    const cold = await runTimed(system.index(repo), env, system.marker(home));
    const indexBytes = bytesUnder(home);
    const noChange = await runTimed(system.index(repo), env);
    const victim = path.join(repo, tree.victim);
    const original = editFile(victim, 1);
    let editMs: number;
    try {
      editMs = (await runTimed(system.index(repo), env)).ms;
    } finally {
      fs.writeFileSync(victim, original);
    }
    await runTimed(system.index(repo), env); // the index matches the restored file before queries
    const startMs = await medianStart(system.version, env);

    await system.prepareHome(home);
    const queries = await probeLatencies(system, repo, home, tree);
    return { coldMs: cold.ms, peakMiB: cold.peakMiB, noChangeMs: noChange.ms, editMs, indexBytes, startMs, ...queries };
  } finally {
    await system.reap(home);
    fs.rmSync(home, { recursive: true, force: true });
  }
}

type Latencies = Pick<Rep, 'first' | 'again' | 'refine' | 'hits' | 'refined'>;

/**
 * An agent's first question comes after its first model turn, not the instant its MCP session
 * is up: each probe waits this long after connecting (both systems alike). sightline's read
 * worker warms up in that time, as it does for an agent (mcp/read-pool/warm-up.ts).
 */
const AGENT_PAUSE_MS = 1000;

/**
 * Each probe in a server of its own (its processes ended before the next one
 * starts), warmed with a question not measured: every measured question is
 * then asked for the first time, as an agent's new question is (in one
 * server, a later probe would find what an earlier one read and unpacked for
 * the same question). Then the same questions again, in order.
 */
async function probeLatencies(system: System, repo: string, home: string, tree: PreparedTree): Promise<Latencies> {
  const out: Latencies = { first: {}, again: {}, refine: {}, hits: {}, refined: {} };
  let session = await system.connect(repo, home);
  const count = session.probes.length;
  for (let i = 0; i < count; i++) {
    if (i > 0) session = await system.connect(repo, home);
    try {
      const probe = session.probes[i]!;
      const queries = probe.over === 'identifiers' ? tree.queries.identifiers : [...tree.queries.identifiers, ...tree.queries.words];
      await new Promise((resolve) => setTimeout(resolve, AGENT_PAUSE_MS));
      await probe.call(tree.queries.warmup); // warm: page cache, prepared statements, JIT
      const [first, again, refined]: [number[], number[], string[]] = [[], [], []];
      [out.first[probe.label], out.again[probe.label], out.refined[probe.label]] = [first, again, refined];
      out.hits[probe.label] = 0;
      for (const q of queries) {
        const t0 = performance.now();
        const answer = await probe.call(q);
        first.push(performance.now() - t0);
        if (answer.refine) refined.push(q);
        if (answer.hits) out.hits[probe.label]!++;
      }
      out.refine[probe.label] = refined.length;
      for (const q of queries) {
        const t0 = performance.now();
        await probe.call(q);
        again.push(performance.now() - t0);
      }
    } finally {
      await session.close();
      await system.reap(home); // the peer's server leaves a daemon, which would answer the next probe warm
    }
  }
  return out;
}

/** What sightline counts as the tree's indexed source (the common denominator of index size). */
async function indexedSource(tree: PreparedTree): Promise<{ bytes: number; files: number }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-bench-stats-'));
  try {
    const env = sightline().env(home);
    const repo = tree.copies.sightline!;
    await runTimed({ cmd: process.execPath, args: [CLI, 'index', '--repo', repo, '--embedder', 'none'] }, env);
    const s = JSON.parse((await runTimed({ cmd: process.execPath, args: [CLI, 'stats', '--json', '--repo', repo] }, env)).stdout) as { source_bytes: number; files: number };
    return { bytes: s.source_bytes, files: s.files };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function benchTree(original: string, systems: System[], reps: number, workDir: string): Promise<TreeResult> {
  const tree = prepareTree(original, workDir, systems.map((s) => s.name));
  const source = await indexedSource(tree);
  const result: TreeResult = { tree, indexedSourceBytes: source.bytes, indexedFiles: source.files, nodeStartMs: [], reps: {} };
  for (const s of systems) result.reps[s.name] = [];
  for (let r = 0; r < reps; r++) {
    result.nodeStartMs.push(await medianStart({ cmd: process.execPath, args: ['-e', '0'] }, { PATH: process.env.PATH ?? '' }));
    for (const system of systems) {
      process.stderr.write(`${tree.name}: rep ${r + 1}/${reps} ${system.name}\n`);
      result.reps[system.name]!.push(await runRep(system, tree));
    }
  }
  return result;
}

/** Median of the reps, with the range when there is more than one. */
function cell(values: number[]): string {
  if (values.length === 0) return '-';
  const m = fmt(median(values));
  return values.length === 1 ? m : `${m} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

function ratio(a: number[], b: number[]): string {
  return a.length && b.length ? fmt(median(a) / median(b)) : '-';
}

type Measure = (rep: Rep, r: TreeResult) => number;

function measureTable(results: TreeResult[], withPeer: boolean, title: string, pick: Measure): string {
  const headers = withPeer ? ['tree', 'sightline', 'peer', 'sightline ÷ peer'] : ['tree', 'sightline'];
  const rows = results.map((r) => {
    const s = r.reps.sightline!.map((rep) => pick(rep, r));
    const p = (r.reps.peer ?? []).map((rep) => pick(rep, r));
    return withPeer ? [r.tree.name, cell(s), cell(p), ratio(s, p)] : [r.tree.name, cell(s)];
  });
  return `### ${title}\n\n${table(headers, rows)}\n`;
}

function startTable(results: TreeResult[], withPeer: boolean): string {
  const headers = ['tree', 'node -e 0', 'sightline --version', 'sightline ÷ node', ...(withPeer ? ['peer --version', 'sightline ÷ peer'] : [])];
  const rows = results.map((r) => {
    const s = r.reps.sightline!.map((rep) => rep.startMs / 1000);
    const n = r.nodeStartMs.map((ms) => ms / 1000);
    const p = (r.reps.peer ?? []).map((rep) => rep.startMs / 1000);
    return [r.tree.name, cell(n), cell(s), ratio(s, n), ...(withPeer ? [cell(p), ratio(s, p)] : [])];
  });
  return `### process start, median of ${STARTS} (s)\n\n${table(headers, rows)}\n`;
}

function pooled(reps: Rep[], label: string, pass: 'first' | 'again'): number[] {
  return reps.flatMap((rep) => rep[pass][label] ?? []);
}

function queryTables(results: TreeResult[], withPeer: boolean): string {
  const own = table(
    ['tree', 'system', 'tool', 'calls', 'p50 ms first ask', 'p95', 'p50 ms asked again', 'p95', 'with results', 'refine answers'],
    results.flatMap((r) =>
      Object.entries(r.reps).flatMap(([name, reps]) =>
        Object.keys(reps[0]!.first).map((label) => {
          const [first, again] = [pooled(reps, label, 'first'), pooled(reps, label, 'again')];
          const count = (of: (rep: Rep) => Record<string, number>) => reps.reduce((n, rep) => n + (of(rep)[label] ?? 0), 0);
          const refine = name === 'sightline' ? `${count((rep) => rep.refine)} of ${first.length}` : '-';
          return [r.tree.name, name, label, String(first.length), percentile(first, 50), percentile(first, 95), percentile(again, 50), percentile(again, 95), `${count((rep) => rep.hits)} of ${first.length}`, refine];
        }),
      ),
    ),
  );
  const heading = '### query latency over MCP stdio (each tool in a server of its own: every question asked first, then again)';
  if (!withPeer) return `${heading}\n\n${own}\n`;
  const pairs = table(
    ['tree', 'sightline tool', 'peer tool', 'p50 ratio, first ask', 'p95 ratio', 'p50 ratio, asked again', 'p95 ratio'],
    results.flatMap((r) =>
      COMPARABLE.map(([mine, theirs]) => {
        const ratios = (pass: 'first' | 'again') => {
          const [s, p] = [pooled(r.reps.sightline!, mine, pass), pooled(r.reps.peer!, theirs, pass)];
          return [percentile(s, 50) / percentile(p, 50), percentile(s, 95) / percentile(p, 95)];
        };
        return [r.tree.name, mine, theirs, ...ratios('first'), ...ratios('again')];
      }),
    ),
  );
  return `${heading}\n\n${own}\n\n### query latency, sightline ÷ peer\n\n${pairs}\n`;
}

function report(results: TreeResult[], withPeer: boolean): string {
  const parts = [
    measureTable(results, withPeer, 'cold index wall, CLI (s)', (rep) => rep.coldMs / 1000),
    measureTable(results, withPeer, 'peak RSS of the cold index (MiB)', (rep) => rep.peakMiB),
    measureTable(results, withPeer, 'no-change re-index, CLI (s)', (rep) => rep.noChangeMs / 1000),
    measureTable(results, withPeer, 'one-edit re-index, CLI (s)', (rep) => rep.editMs / 1000),
    measureTable(results, withPeer, 'index on disk (MiB)', (rep) => rep.indexBytes / 1_048_576),
    measureTable(results, withPeer, 'index on disk ÷ indexed source bytes', (rep, r) => rep.indexBytes / Math.max(1, r.indexedSourceBytes)),
    startTable(results, withPeer),
    queryTables(results, withPeer),
  ];
  return parts.join('\n');
}

function describeTrees(results: TreeResult[]): string {
  return results
    .map((r) => {
      const q = r.tree.queries;
      const refined = Object.entries(r.reps.sightline![0]!.refined)
        .filter(([, queries]) => queries.length > 0)
        .map(([label, queries]) => `${label}: ${queries.join(', ')}`);
      return (
        `- ${r.tree.name}: ${r.indexedFiles} files, ${fmt(r.indexedSourceBytes / 1_048_576)} MiB indexed by sightline (${r.tree.files} Python/TS/JS files); ` +
        `edited ${r.tree.victim}; identifiers: ${q.identifiers.join(', ')}; words: ${q.words.join(', ')}` +
        (refined.length ? `\n  - sightline answered refine (rep 1) to ${refined.join('; ')}` : '')
      );
    })
    .join('\n');
}

async function main(): Promise<void> {
  const { reps, trees } = parseArgs(process.argv.slice(2));
  const peerBin = process.env.SIGHTLINE_PEER_BIN?.trim();
  if (peerBin && !fs.existsSync(peerBin)) usage(`SIGHTLINE_PEER_BIN names no file: ${peerBin}`);
  const systems = [sightline(), ...(peerBin ? [peer(peerBin)] : [])];
  const peerVersion = peerBin ? (await runTimed({ cmd: peerBin, args: ['--version'] }, { PATH: process.env.PATH ?? '' })).stdout.trim() : '';
  const loadBefore = os.loadavg();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peer-bench-trees-'));
  const results: TreeResult[] = [];
  try {
    for (const tree of trees) results.push(await benchTree(tree, systems, reps, workDir));
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  process.stdout.write(
    `bench:peer, ${reps} rep(s) interleaved (${systems.map((s) => s.name).join(', ')}), median of reps (the lower middle one for an even count, as bench/util.ts takes it) and their range; node ${process.version}, ${os.cpus().length} CPUs, ` +
      `load average ${load(loadBefore)} before, ${load(os.loadavg())} after\n` +
      (peerBin ? `peer: ${peerBin} (${peerVersion})\n` : 'peer: none (set SIGHTLINE_PEER_BIN to compare)\n') +
      `${describeTrees(results)}\n\n${report(results, Boolean(peerBin))}`,
  );
}

await main();
