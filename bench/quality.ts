/**
 * npm run bench:quality -- <records.jsonl> [--mirrors DIR] [--repo owner/name] [--limit N] [--no-history] [--no-graph] [--pools FILE] [--chunks] [--keep-index] [--mode keyword|semantic|hybrid] [--work DIR] [--out FILE] [--verbose]
 *
 * File-localization quality on real issues (shared/bench/README.md). For each
 * record: move the repository's checkout to the base commit, index it
 * incrementally in-process, ask `search --files` for the issue text, and score
 * strict Acc@1/3/5/10, Recall@5 and MRR against the files the fix changed —
 * side by side with a plain BM25 whole-file ranker on the same trees.
 * Each run starts from empty indexes (FTS5 statistics depend on what was
 * deleted before, so a reused index would make runs differ); --keep-index
 * starts each repository from the index its first record left in an earlier
 * run (quality/snapshot.ts): the same numbers, without the cold index.
 * --pools FILE writes each record's candidate files with their raw signals
 * and the commits that touched them (quality/pools.ts): what the ranker's
 * trainer (bench/ranker/train.ts) fits on. --chunks also asks `search`
 * (chunks, k=10) and scores the files of its chunks in order, per language.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Repo, repoId } from '../src/engine/index.js';
import { search } from '../src/engine/search.js';
import { indexRepository } from '../src/index/index.js';
import { removeDbFiles } from '../src/store/index.js';
import { Bm25FileBaseline } from './baseline-bm25.js';
import { Checkout, findMirror } from './quality/checkout.js';
import { IndexSnapshots } from './quality/snapshot.js';
import { averages, METRIC_NAMES, score, type Scores } from './quality/metrics.js';
import { byRepository, loadRecords, recordOptions, type BenchRecord } from './quality/records.js';
import { poolOf, type Pool } from './quality/pools.js';
import { median, table, time, usage } from './util.js';

const K = 10;

interface Outcome {
  record: BenchRecord;
  ranked: string[];
  reasons: string[][];
  baseline: string[];
  ours: Scores;
  base: Scores;
  indexMs: number;
  /** True for a repository's first record when its index did not exist yet. */
  coldIndex: boolean;
  queryMs: number;
  /** CPU time of the query: what it costs on an idle machine, whatever else the machine runs. */
  queryCpuMs: number;
  baselineMs: number;
  /** The candidates' raw signals and commits (with --pools). */
  pool?: Pool;
  /** `search` (chunks, k=10) scored over its chunks' files in order (with --chunks). */
  chunks?: Scores;
}

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ...recordOptions(path.join(os.tmpdir(), 'sightline-quality')),
      'no-history': { type: 'boolean', default: false },
      'no-graph': { type: 'boolean', default: false },
      pools: { type: 'string' },
      chunks: { type: 'boolean', default: false },
      mode: { type: 'string', default: 'hybrid' }, // keyword | semantic | hybrid: the semantic ablation
      verbose: { type: 'boolean', default: false },
    },
  });
  const file = positionals[0];
  if (!file) usage('usage: npm run bench:quality -- <records.jsonl> [--mirrors DIR] [--repo owner/name] [--limit N] [--no-history] [--no-graph] [--pools FILE] [--chunks] [--keep-index] [--mode keyword|semantic|hybrid] [--work DIR] [--out FILE] [--verbose]');
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (!(limit > 0)) usage(`--limit must be a positive number (got ${values.limit})`);
  if (!['keyword', 'semantic', 'hybrid'].includes(values.mode)) usage(`--mode must be keyword, semantic or hybrid (got ${values.mode})`);
  return { mode: values.mode as 'keyword' | 'semantic' | 'hybrid', file, limit, history: !values['no-history'], graph: !values['no-graph'], pools: values.pools, chunks: values.chunks, keepIndex: values['keep-index'], mirrors: path.resolve(values.mirrors), work: path.resolve(values.work), repo: values.repo, out: values.out, verbose: values.verbose };
}

/** Records whose checkout failed, by id. */
const skipped: string[] = [];

async function runRepository(name: string, records: BenchRecord[], opts: ReturnType<typeof options>): Promise<Outcome[]> {
  const checkout = new Checkout(findMirror(opts.mirrors, name), opts.work, name, opts.history);
  const home = path.join(opts.work, opts.history ? 'home' : 'home-nogit');
  const snapshots = new IndexSnapshots(path.join(home, 'snapshots'));
  const snapshot = `${repoId(checkout.root)}-${opts.mode === 'keyword' ? 'keyword' : 'embedded'}-${opts.graph ? 'graph' : 'nograph'}`;
  const baseline = new Bm25FileBaseline();
  const out: Outcome[] = [];
  let repo: Repo | null = null;
  try {
    for (const record of records) {
      try {
        checkout.moveTo(record.base_commit);
      } catch (err) {
        // A fetched snapshot lacks files of 4 MiB and more: a tree that needs one cannot be checked out.
        process.stderr.write(`${record.id}: skipped, its checkout failed: ${(err as Error).message.split('\n')[1] ?? (err as Error).message}\n`);
        skipped.push(record.id);
        continue;
      }
      // Keyword-only runs skip the embedding pass: nothing would read its vectors.
      if (!repo) {
        repo = Repo.open(checkout.root, { flags: { home, ...(opts.mode === 'keyword' ? { embedder: 'none' as const } : {}) }, env: {} });
        if (!(opts.keepIndex && snapshots.restore(snapshot, repo.dbPath))) removeDbFiles(repo.dbPath);
      }
      const coldIndex = !repo.hasIndex();
      // --no-graph skips the code graph, which the ranking does not read, to measure in less time.
      const indexed = await time(() => (opts.graph ? repo!.index() : indexRepository(repo!.root, repo!.store, repo!.config, { graph: false })));
      if (coldIndex) snapshots.save(snapshot, repo.store);
      const cpu = process.cpuUsage();
      const query = await time(() => search(repo!, { query: record.query, files: true, k: K, force: true, mode: opts.mode }));
      const queryCpu = process.cpuUsage(cpu);
      const files = repo.store.files.list();
      const base = await time(() => baseline.rank(checkout.root, files, record.query, K));
      const ranked = query.value.results.map((r) => r.path);
      const o: Outcome = {
        record,
        ranked,
        reasons: query.value.results.map((r) => r.reasons),
        baseline: base.value,
        ours: score(ranked, record.gold_code_files),
        base: score(base.value, record.gold_code_files),
        indexMs: indexed.ms,
        coldIndex,
        queryMs: query.ms,
        queryCpuMs: (queryCpu.user + queryCpu.system) / 1000,
        baselineMs: base.ms,
        pool: opts.pools ? poolOf(repo, record, opts.mode) : undefined,
        chunks: opts.chunks ? score(search(repo, { query: record.query, k: K, force: true, mode: opts.mode }).results.map((r) => r.path), record.gold_code_files) : undefined,
      };
      out.push(o);
      if (opts.pools) fs.appendFileSync(opts.pools, JSON.stringify(o.pool) + '\n');
      if (opts.verbose) report(o);
    }
  } finally {
    repo?.close();
  }
  return out;
}

function report(o: Outcome): void {
  const rank = (list: string[]) => o.record.gold_code_files.map((g) => list.indexOf(g) + 1 || '-').join(',');
  process.stderr.write(`${o.record.id}: ours ${rank(o.ranked)} · bm25 ${rank(o.baseline)} · index ${Math.round(o.indexMs)} ms, query ${Math.round(o.queryMs)} ms\n`);
}

/** One row per group: our metrics, then the baseline's, side by side. */
function groupTable(label: string, outcomes: Outcome[], key: (o: Outcome) => string): string {
  const groups = new Map<string, Outcome[]>();
  for (const o of outcomes) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  const rows = [...[...groups].sort(([a], [b]) => a.localeCompare(b)), ['ALL', outcomes] as const].map(([name, list]) => {
    const ours = averages(list.map((o) => o.ours));
    const base = averages(list.map((o) => o.base));
    return [name, String(list.length), ...ours, base[2]!, base[5]!, ours[2]! - base[2]!];
  });
  return table([label, 'n', ...METRIC_NAMES, 'bm25 Acc@5', 'bm25 MRR', 'Δ Acc@5'], rows);
}

/** `search` without --files, per language: its top chunks' files scored like a file ranking (Acc@10: every gold file among the files of the 10 chunks). */
function chunkTable(outcomes: Outcome[]): string {
  const languages = [...new Set(outcomes.map((o) => o.record.language))].sort();
  const rows = [...languages.map((l) => [l, outcomes.filter((o) => o.record.language === l)] as const), ['ALL', outcomes] as const].map(([name, list]) => [
    name,
    String(list.length),
    ...averages(list.map((o) => o.chunks!)),
  ]);
  return table(['chunks (search, k=10)', 'n', ...METRIC_NAMES], rows);
}

async function main(): Promise<void> {
  const opts = options();
  let records = loadRecords(opts.file);
  if (opts.repo) records = records.filter((r) => r.repo.toLowerCase() === opts.repo!.toLowerCase());
  records = records.slice(0, opts.limit);
  if (records.length === 0) usage('no records match');
  fs.mkdirSync(opts.work, { recursive: true });
  if (opts.pools) fs.writeFileSync(opts.pools, '');
  const outcomes: Outcome[] = [];
  for (const [name, list] of byRepository(records)) {
    process.stderr.write(`${name}: ${list.length} record(s)\n`);
    outcomes.push(...(await runRepository(name, list, opts)));
  }
  const ms = (f: (o: Outcome) => number, filter: (o: Outcome) => boolean = () => true) => median(outcomes.filter(filter).map(f));
  if (skipped.length > 0) console.log(`${skipped.length} record(s) skipped, their checkout failed: ${skipped.join(', ')}`);
  console.log(`${outcomes.length} records, history ${opts.history ? 'on' : 'off'}; ours = search --files (k=${K}), bm25 = plain BM25 over whole files\n`);
  console.log(groupTable('language', outcomes, (o) => o.record.language) + '\n');
  console.log(groupTable('repository', outcomes, (o) => o.record.repo) + '\n');
  if (opts.chunks) console.log(chunkTable(outcomes) + '\n');
  console.log(
    table(
      ['median time (ms)', 'value'],
      [
        ['query (search --files), wall clock', ms((o) => o.queryMs)],
        ['query (search --files), CPU time', ms((o) => o.queryCpuMs)],
        ['query (bm25 baseline)', ms((o) => o.baselineMs)],
        ['index, cold (first record of a repository)', ms((o) => o.indexMs, (o) => o.coldIndex)],
        ['index, incremental (moving to the next base commit)', ms((o) => o.indexMs, (o) => !o.coldIndex)],
      ],
    ),
  );
  if (opts.out) {
    const rows = outcomes.map((o) => ({ id: o.record.id, repo: o.record.repo, language: o.record.language, gold: o.record.gold_code_files, ranked: o.ranked, reasons: o.reasons, baseline: o.baseline, ours: o.ours, base: o.base }));
    fs.writeFileSync(opts.out, JSON.stringify(rows, null, 1));
  }
}

await main();
