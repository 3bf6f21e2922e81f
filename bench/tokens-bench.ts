/**
 * node dist/bench/tokens-bench.js <tree>... [--baseline <tokens.js>] [--reps N]
 *
 * Exact token counting's throughput on chunk-sized texts of real trees: each
 * text file (no NUL in its first 8 KB, at most 1 MB) cut into 40-line
 * chunks, counted as an index worker counts them. Each run is a fresh
 * process (cold JIT and an empty piece cache, as a new worker has): one
 * cold pass over the tree's chunks, then WARM_PASSES more, of which the
 * median is reported. Times are the process's CPU time (user + system),
 * which a shared, busy machine disturbs less than wall time. With --baseline (another build's
 * dist/src/budget/tokens.js, e.g. main's) its runs interleave with this
 * build's, and the table gives their ratios; the counts must agree.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { pieceEnd } from '../src/budget/split.js';
import { median, table, usage } from './util.js';

const CHUNK_LINES = 40;
const MAX_FILE_BYTES = 1 << 20;
const WARM_PASSES = 3;
/** The piece cache's default size (budget/tokens.ts), for the hit rate. */
const CACHE_ENTRIES = 50_000;
const CURRENT = fileURLToPath(new URL('../src/budget/tokens.js', import.meta.url));

interface Run {
  tokens: number;
  coldMs: number;
  warmMs: number;
}

function chunks(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && fs.statSync(file).size <= MAX_FILE_BYTES) {
        const bytes = fs.readFileSync(file);
        if (bytes.subarray(0, 8192).includes(0)) continue;
        const lines = bytes.toString('utf8').split('\n');
        for (let at = 0; at < lines.length; at += CHUNK_LINES) out.push(lines.slice(at, at + CHUNK_LINES).join('\n'));
      }
    }
  };
  walk(root);
  return out;
}

/** In a child: count the tree's chunks with one implementation, once cold, then warm. */
async function child(module: string, tree: string): Promise<void> {
  const texts = chunks(tree);
  const { countTokens } = (await import(pathToFileURL(module).href)) as { countTokens: (text: string) => number };
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e3;
  };
  const pass = () => {
    const t0 = cpuMs();
    let tokens = 0;
    for (const text of texts) tokens += countTokens(text);
    return { tokens, ms: cpuMs() - t0 };
  };
  const cold = pass();
  const warm = Array.from({ length: WARM_PASSES }, pass);
  const run: Run = { tokens: cold.tokens, coldMs: cold.ms, warmMs: median(warm.map((w) => w.ms)) };
  process.stdout.write(JSON.stringify(run));
}

function spawnRun(module: string, tree: string): Run {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', module, tree], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`run of ${module} on ${tree} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Run;
}

/** Pieces, and how many a 50,000-entry cache cleared when full answers, over one pass. */
function pieceStats(texts: string[]): { pieces: number; hitRate: number } {
  const seen = new Set<string>();
  let pieces = 0;
  let hits = 0;
  for (const text of texts) {
    for (let start = 0, end = 0; start < text.length; start = end) {
      end = pieceEnd(text, start);
      const piece = text.slice(start, end);
      pieces++;
      if (seen.has(piece)) hits++;
      else {
        if (seen.size >= CACHE_ENTRIES) seen.clear();
        seen.add(piece);
      }
    }
  }
  return { pieces, hitRate: hits / pieces };
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { baseline: { type: 'string' }, reps: { type: 'string', default: '3' }, child: { type: 'string' } },
  });
  if (values.child) return void child(values.child, positionals[0]!);
  if (positionals.length === 0) usage('usage: node dist/bench/tokens-bench.js <tree>... [--baseline <tokens.js>] [--reps N]');
  const impls = values.baseline ? { before: path.resolve(values.baseline), after: CURRENT } : { after: CURRENT };
  const rows: (string | number)[][] = [];
  for (const tree of positionals) {
    const texts = chunks(tree);
    const mb = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
    const { pieces, hitRate } = pieceStats(texts);
    const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(impls).map((name) => [name, []]));
    for (let rep = 0; rep < Number(values.reps); rep++) {
      const order = Object.entries(impls);
      if (rep % 2 === 1) order.reverse(); // interleaved, alternating which goes first
      for (const [name, module] of order) runs[name]!.push(spawnRun(module, tree));
    }
    const counts = new Set(Object.values(runs).flat().map((r) => r.tokens));
    if (counts.size !== 1) throw new Error(`${tree}: the implementations disagree on the count: ${[...counts].join(', ')}`);
    const cold = (name: string) => median(runs[name]!.map((r) => r.coldMs));
    const warm = (name: string) => median(runs[name]!.map((r) => r.warmMs));
    for (const name of Object.keys(impls)) {
      rows.push([path.basename(tree), name, mb, texts.length, (pieces / 1e3).toFixed(0), (hitRate * 100).toFixed(1), mb / (cold(name) / 1e3), mb / (warm(name) / 1e3), (warm(name) * 1e6) / pieces]);
    }
    if (values.baseline) rows.push([path.basename(tree), 'after / before', '', '', '', '', `${(cold('before') / cold('after')).toFixed(2)}×`, `${(warm('before') / warm('after')).toFixed(2)}×`, '']);
  }
  console.log(`CPU time, median of ${values.reps} interleaved runs, each a fresh process; warm: median of ${WARM_PASSES} passes after the cold one`);
  console.log(table(['tree', 'counter', 'MB', 'chunks', 'k pieces', 'cache hit %', 'cold MB/CPU-s', 'warm MB/CPU-s', 'warm ns/piece'], rows));
}

main();
