/**
 * npm run bench:query -- <path> [--issues <file.jsonl>]
 * Keyword query latency in-process (p50/p95) over a fixed set of identifier
 * and phrase queries, side by side with ripgrep on the same terms. With
 * --issues (JSON lines with a `query` field, such as ../shared/bench/dev.jsonl),
 * also whole issues as `search --files` takes them: through the gate, hybrid.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Repo } from '../src/engine/index.js';
import { locate } from '../src/engine/locate.js';
import { search } from '../src/engine/search.js';
import { gatedSearch } from '../src/engine/search-gate.js';
import { median, percentile, PHRASE_QUERIES, table, time, usage } from './util.js';

const IDENTIFIER_COUNT = 20;
const ROUNDS = 5;

function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

async function main(): Promise<void> {
  const [target, flag, issuesFile] = process.argv.slice(2);
  if (!target || (flag !== undefined && (flag !== '--issues' || !issuesFile))) usage('usage: npm run bench:query -- <path-to-repository> [--issues <file.jsonl>]');
  const issues = issuesFile ? fs.readFileSync(issuesFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { query: string }).query) : [];
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
  try {
    // The answer cache off: every round is a real query, not a lookup.
    const repo = Repo.open(target, { flags: { home, queryCacheSize: 0 } });
    await repo.index();
    // A fixed, deterministic identifier sample: evenly spaced over the sorted symbol names.
    const names = repo.store.symbols.allNames().filter((n) => n.length >= 6).sort();
    const step = Math.max(1, Math.floor(names.length / IDENTIFIER_COUNT));
    const identifiers = names.filter((_, i) => i % step === 0).slice(0, IDENTIFIER_COUNT);

    const measure = async (queries: string[], run: (q: string) => unknown) => {
      const ms: number[] = [];
      for (let round = 0; round < ROUNDS; round++) for (const q of queries) ms.push((await time(() => run(q))).ms);
      return ms;
    };
    search(repo, { query: 'warm up' });
    const rows: (string | number)[][] = [];
    const rg = hasRipgrep();
    const rgTimes = (queries: string[], pattern: (q: string) => string) =>
      measure(queries, (q) => spawnSync('rg', ['-n', '-i', '--no-messages', pattern(q), repo.root], { maxBuffer: 1 << 28 }));
    const row = (label: string, queries: number, ours: number[], theirs: number[]) =>
      rows.push([label, queries, median(ours), percentile(ours, 95), rg ? median(theirs) : NaN, rg ? percentile(theirs, 95) : NaN, rg ? median(theirs) / median(ours) : NaN]);
    const add = async (label: string, queries: string[], run: (q: string) => unknown, rgPattern: (q: string) => string) => {
      const ours = await measure(queries, run);
      const theirs = rg ? await rgTimes(queries, rgPattern) : [];
      row(label, queries.length, ours, theirs);
      return { ours, theirs };
    };
    const ids = await add('search keyword: identifiers', identifiers, (q) => search(repo, { query: q, k: 10, mode: 'keyword' }), (q) => q);
    const phrases = await add('search keyword: phrases', PHRASE_QUERIES, (q) => search(repo, { query: q, k: 10, mode: 'keyword' }), (q) => q.split(' ').join('|'));
    row('search keyword: both sets', identifiers.length + PHRASE_QUERIES.length, [...ids.ours, ...phrases.ours], [...ids.theirs, ...phrases.theirs]);
    await add('search hybrid: phrases', PHRASE_QUERIES, (q) => search(repo, { query: q, k: 10 }), (q) => q.split(' ').join('|'));
    await add('search --files keyword: phrases', PHRASE_QUERIES, (q) => search(repo, { query: q, k: 10, files: true, mode: 'keyword' }), (q) => q.split(' ').join('|'));
    await add('locate: identifiers', identifiers, (q) => locate(repo, { query: q, maxResults: 50 }), (q) => `\\b${q}\\b`);
    // Whole issues: ripgrep has no equivalent question to ask.
    if (issues.length > 0) row('search --files hybrid, gated: whole issues', issues.length, await measure(issues, (q) => gatedSearch(repo, { query: q, files: true, force: true })), []);
    repo.close();
    console.log(`repository: ${repo.root}; ${ROUNDS} rounds; in-process sightline vs rg -n -i (spawned)${rg ? '' : ' — rg not installed'}\n`);
    console.log(table(['query set', 'queries', 'p50 ms', 'p95 ms', 'rg p50 ms', 'rg p95 ms', 'rg/sightline p50'], rows));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await main();
