/**
 * npm run bench:embed-ablation -- <records.jsonl> [--mirrors DIR] [--repo owner/name] [--limit N] [--keep-index] [--shard i/n] [--merge out1,out2] [--work DIR] [--out FILE]
 *
 * The semantic ablation on bench:quality's records: each record's checkout is
 * indexed once (lexical pass, then the builtin embedding pass) and asked
 * `search --files` three ways — keyword, semantic only, hybrid — plus hybrid
 * over a grid of weights for the nearness signal, with a leave-one-repository-out
 * choice from that grid. Prints strict Acc@k, Recall@5 and MRR per language and overall.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Repo, repoId, type SearchOptions } from '../src/engine/index.js';
import { search } from '../src/engine/search.js';
import { ask, candidateFiles, feedbackNearness, kindOf, rankCandidates, shippedRanker, withNearness } from '../src/search/index.js';
import { Checkout, findMirror } from './quality/checkout.js';
import { averages, METRIC_NAMES, score, type Scores } from './quality/metrics.js';
import { byRepository, loadRecords, recordOptions, type BenchRecord } from './quality/records.js';
import { table, usage } from './util.js';

const K = 10;
const MODES = ['keyword', 'semantic', 'hybrid'] as const;
/** Multiples of the shipped ranker's nearness weight tried for hybrid (config nearnessWeight), the other weights as shipped. */
const GRID = [0, 0.25, 0.5, 1, 1.5, 2, 3, 5];

interface Outcome {
  record: BenchRecord;
  byMode: Record<(typeof MODES)[number], Scores>;
  byGrid: Scores[];
}

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ...recordOptions(path.join(os.tmpdir(), 'sightline-embed-ablation')),
      shard: { type: 'string' },
      merge: { type: 'string' },
    },
  });
  if (!positionals[0]) usage('usage: npm run bench:embed-ablation -- <records.jsonl> [--mirrors DIR] [--repo owner/name] [--limit N] [--keep-index] [--shard i/n] [--merge out1,out2] [--work DIR] [--out FILE]');
  return { file: positionals[0], limit: values.limit ? Number(values.limit) : Infinity, mirrors: path.resolve(values.mirrors), work: path.resolve(values.work), repo: values.repo, out: values.out, keepIndex: values['keep-index'], shard: values.shard, merge: values.merge };
}

async function runRepository(name: string, records: BenchRecord[], opts: ReturnType<typeof options>): Promise<Outcome[]> {
  const checkout = new Checkout(findMirror(opts.mirrors, name), opts.work, name, true);
  const home = path.join(opts.work, 'home');
  if (!opts.keepIndex) fs.rmSync(path.join(home, repoId(checkout.root)), { recursive: true, force: true });
  const out: Outcome[] = [];
  let repo: Repo | null = null;
  try {
    for (const record of records) {
      checkout.moveTo(record.base_commit);
      repo ??= Repo.open(checkout.root, { flags: { home, queryCacheSize: 0 }, env: {} });
      const summary = await repo.index();
      if (summary.embed?.error) process.stderr.write(`${record.id}: ${summary.embed.error}\n`);
      const pathsFor = (mode: SearchOptions['mode']) => search(repo!, { query: record.query, files: true, k: K, force: true, mode }).results.map((r) => r.path);
      const byMode = Object.fromEntries(MODES.map((m) => [m, score(pathsFor(m), record.gold_code_files)])) as Outcome['byMode'];
      const question = ask(record.query);
      const candidates = candidateFiles(repo.store, question, {}, feedbackNearness(repo.store, repo.config, question) ?? undefined);
      const byGrid = GRID.map((semantic) => {
        const files = rankCandidates(candidates, withNearness(shippedRanker(kindOf(question)), semantic), (paths) => repo!.store.history.commitsTouching(paths)).slice(0, K).map((c) => c.candidate.path);
        return score(files, record.gold_code_files);
      });
      out.push({ record, byMode, byGrid });
      process.stderr.write(`${record.id}: Acc@5 keyword ${byMode.keyword.acc[5]} semantic ${byMode.semantic.acc[5]} hybrid ${byMode.hybrid.acc[5]}\n`);
    }
  } finally {
    repo?.close();
  }
  return out;
}

/** For each repository, the fusion setting with the best mean Acc@5 (then MRR) on the other repositories, scored on this one. */
function leaveOneRepoOut(outcomes: Outcome[]): Scores[] {
  const repos = [...new Set(outcomes.map((o) => o.record.repo))];
  const pick = new Map<string, number>();
  for (const held of repos) {
    const rest = outcomes.filter((o) => o.record.repo !== held);
    let best = 0;
    let bestKey = -Infinity;
    GRID.forEach((_, i) => {
      const a = averages(rest.map((o) => o.byGrid[i]!));
      const key = a[2]! * 1000 + a[5]!;
      if (key > bestKey) [best, bestKey] = [i, key];
    });
    pick.set(held, best);
  }
  for (const [repo, i] of pick) process.stderr.write(`leave out ${repo}: nearnessWeight ${GRID[i]}\n`);
  return outcomes.map((o) => o.byGrid[pick.get(o.record.repo)!]!);
}

async function main(): Promise<void> {
  const opts = options();
  let records = loadRecords(opts.file);
  if (opts.repo) records = records.filter((r) => r.repo.toLowerCase() === opts.repo!.toLowerCase());
  records = records.slice(0, opts.limit);
  const outcomes: Outcome[] = [];
  if (opts.merge) {
    // Tables over the --out files of earlier (sharded) runs.
    const byId = new Map(records.map((r) => [r.id, r]));
    for (const file of opts.merge.split(',')) {
      for (const o of JSON.parse(fs.readFileSync(file, 'utf8')) as (Omit<Outcome, 'record'> & { id: string })[]) outcomes.push({ ...o, record: byId.get(o.id)! });
    }
  } else {
    fs.mkdirSync(opts.work, { recursive: true });
    // --shard i/n: this process takes every n-th repository, so n processes share a run.
    const [i, n] = (opts.shard ?? '0/1').split('/').map(Number) as [number, number];
    const repos = [...byRepository(records)].filter((_, r) => r % n === i);
    for (const [name, list] of repos) {
      process.stderr.write(`${name}: ${list.length} record(s)\n`);
      outcomes.push(...(await runRepository(name, list, opts)));
    }
  }
  const loo = leaveOneRepoOut(outcomes);
  const languages = [...new Set(outcomes.map((o) => o.record.language))].sort();
  const rows: (string | number)[][] = [];
  for (const language of [...languages, 'ALL']) {
    const idx = outcomes.flatMap((o, i) => (language === 'ALL' || o.record.language === language ? [i] : []));
    for (const mode of MODES) rows.push([language, String(idx.length), mode, ...averages(idx.map((i) => outcomes[i]!.byMode[mode]))]);
    rows.push([language, String(idx.length), 'hybrid, nearness weight chosen leave-one-repo-out', ...averages(idx.map((i) => loo[i]!))]);
  }
  console.log(`${outcomes.length} records; search --files, k=${K}; embedder builtin\n`);
  console.log(table(['language', 'n', 'mode', ...METRIC_NAMES], rows) + '\n');
  console.log(table(['nearness weight (content 1)', ...METRIC_NAMES], GRID.map((w, i) => [String(w), ...averages(outcomes.map((o) => o.byGrid[i]!))])));
  if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(outcomes.map((o) => ({ id: o.record.id, byMode: o.byMode, byGrid: o.byGrid })), null, 1));
}

await main();
