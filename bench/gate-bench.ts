/**
 * npm run bench:gate -- [--questions DIR] [--home DIR] <tree>...
 * How often the gate turns plain questions away, and how. Each tree is
 * indexed in-process (in a fresh home, or the one --home names, where a
 * tree indexed before is brought up to date) and asked, through the gated
 * `search` in keyword mode with no session (so no run of refusals opens the
 * gate): bench:peer's 30 queries (bench/peer-tree.ts: 15 identifiers the
 * tree defines, 15 word queries) and the questions of DIR/<tree's folder
 * name>.txt, one per line (default bench/gate-questions: flask, sphinx and
 * the MCP TypeScript SDK). Prints refusals by reason per tree, then each
 * refused question with its first narrower call. It asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RefineEnvelope } from '../src/budget/index.js';
import { Repo } from '../src/engine/index.js';
import { gatedSearch } from '../src/engine/search-gate.js';
import { definedNames, pickQueries, sourceFiles } from './peer-tree.js';
import { fmt, percentile, table, usage } from './util.js';

const USAGE = 'usage: npm run bench:gate -- [--questions DIR] [--home DIR] <tree>...';
const REASONS = ['breadth', 'volume', 'relevance', 'compound'] as const;

interface Args {
  questions: string;
  home?: string;
  trees: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { questions: path.resolve('bench/gate-questions'), trees: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--questions') args.questions = path.resolve(argv[++i] ?? usage(USAGE));
    else if (a === '--home') args.home = path.resolve(argv[++i] ?? usage(USAGE));
    else if (a.startsWith('-')) usage(`unknown option ${a}\n${USAGE}`);
    else args.trees.push(path.resolve(a));
  }
  if (args.trees.length === 0) usage(USAGE);
  return args;
}

/** The tree's own questions (DIR/<folder>.txt), then bench:peer's identifiers and words. */
function questionsFor(tree: string, dir: string): string[] {
  const file = path.join(dir, `${path.basename(tree)}.txt`);
  const own = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean) : [];
  const picked = pickQueries(sourceFiles(tree).flatMap((f) => definedNames(fs.readFileSync(path.join(tree, f.rel), 'utf8'))));
  return [...own, ...picked.identifiers, ...picked.words];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const home = args.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-gate-bench-'));
  const summary: (string | number)[][] = [];
  const refusals: string[][] = [];
  try {
    for (const tree of args.trees) {
      // The answer cache off: each question is judged, not looked up.
      const repo = Repo.open(tree, { flags: { home, queryCacheSize: 0 } });
      try {
        await repo.index();
        const asked = questionsFor(tree, args.questions);
        const byReason = new Map<string, number>();
        const ms: number[] = [];
        for (const query of asked) {
          const t0 = performance.now();
          const answer = gatedSearch(repo, { query, mode: 'keyword' });
          ms.push(performance.now() - t0);
          if (answer.status !== 'refine') continue;
          const r: RefineEnvelope = answer;
          byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + 1);
          const first = r.suggestions.find((s) => s.action !== 'use_force');
          const next = first ? `${first.action} ${first.arg} → ${first.would_yield} hits` : 'use_force only';
          refusals.push([path.basename(tree), query, r.reason, `${r.summary.total_found} in ${r.summary.files} files`, next]);
        }
        const refused = [...byReason.values()].reduce((a, b) => a + b, 0);
        const counts = [asked.length, asked.length - refused, refused, ...REASONS.map((x) => byReason.get(x) ?? 0)].map(String);
        summary.push([path.basename(tree), ...counts, fmt(percentile(ms, 50))]);
      } finally {
        repo.close();
      }
    }
  } finally {
    if (!args.home) fs.rmSync(home, { recursive: true, force: true });
  }
  console.log(table(['tree', 'asked', 'answered', 'refused', ...REASONS, 'p50 ms'], summary));
  if (refusals.length) console.log('\n' + table(['tree', 'refused question', 'reason', 'hits counted', 'first narrower call'], refusals));
}

await main();
