/**
 * npm run corpus:mine -- --out DIR [--repos bench/corpus/repos.txt] [--repo owner/name] [--mirrors DIR] [--manifest FILE]
 *
 * Mines (text -> files changed) pairs from bare mirrors' first-parent history
 * (bench/corpus/README.md): DIR/pairs/<owner+name>.jsonl per repository,
 * DIR/pairs.jsonl for every repository in the manifest, DIR/stats.json with
 * why commits were dropped, and the manifest rows of the repositories mined.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findMirror } from '../quality/checkout.js';
import { table, usage } from '../util.js';
import { assertMinable } from './exclusions.js';
import { filesAtHead, firstParentHistory, headCommit, textHeads } from './git.js';
import { repoLanguage } from './gold.js';
import { mergeRows, readManifest, writeManifest, type ManifestRow } from './manifest.js';
import { finish, screen, type Candidate, type DropReason, type Pair } from './pairs.js';
import { splitOf } from './split.js';

const USAGE = 'usage: corpus:mine -- --out DIR [--repos FILE | --repo owner/name] [--mirrors DIR] [--manifest FILE]';
/** Blobs read per `git cat-file --batch`: bounds the memory one read holds. */
const TEXT_BATCH = 300;

interface RepoResult {
  row: ManifestRow;
  pairs: Pair[];
  dropped: Record<string, number>;
}

async function mineRepository(mirrors: string, repo: string): Promise<RepoResult> {
  assertMinable(repo);
  const gitDir = findMirror(mirrors, repo);
  const facts = { repo, language: repoLanguage(filesAtHead(gitDir)), split: splitOf(repo) };
  const dropped: Record<string, number> = {};
  const drop = (reason: DropReason) => (dropped[reason] = (dropped[reason] ?? 0) + 1);
  const candidates: Candidate[] = [];
  let scanned = 0;
  for await (const commit of firstParentHistory(gitDir)) {
    scanned++;
    const c = screen(commit);
    if (typeof c === 'string') drop(c);
    else candidates.push(c);
  }
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < candidates.length; i += TEXT_BATCH) {
    const batch = candidates.slice(i, i + TEXT_BATCH);
    const texts = textHeads(gitDir, batch.flatMap((c) => c.gold.map((p) => `${c.commit.parents[0]}:${p}`)));
    for (const c of batch) {
      const pair = finish(c, facts, (p) => texts.get(`${c.commit.parents[0]}:${p}`) ?? '');
      if (pair === 'no-gold') {
        drop('no-gold');
        continue;
      }
      // Cherry-picks and backports repeat a change: keep its newest copy only.
      const key = `${pair.query}\0${pair.gold_files.join('\0')}`;
      if (seen.has(key)) drop('duplicate');
      else {
        seen.add(key);
        pairs.push(pair);
      }
    }
  }
  const row: ManifestRow = {
    repository: repo,
    language: facts.language,
    split: facts.split,
    commits_scanned: scanned,
    pairs_kept: pairs.length,
    head_commit: headCommit(gitDir),
  };
  return { row, pairs, dropped };
}

function repositoriesFrom(values: { repos?: string; repo?: string }): string[] {
  if (values.repo) return [values.repo];
  if (!values.repos) usage(USAGE);
  return fs
    .readFileSync(values.repos, 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

function summary(rows: ManifestRow[]): string {
  const cells = new Map<string, { repos: number; pairs: number }>();
  for (const r of rows) {
    for (const key of [`${r.language}\t${r.split}`, `ALL\t${r.split}`]) {
      const cell = cells.get(key) ?? { repos: 0, pairs: 0 };
      cell.repos++;
      cell.pairs += r.pairs_kept;
      cells.set(key, cell);
    }
  }
  const out = [...cells].sort(([a], [b]) => a.localeCompare(b)).map(([key, c]) => [...key.split('\t'), String(c.repos), String(c.pairs)]);
  return table(['language', 'split', 'repositories', 'pairs'], out);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      repos: { type: 'string' },
      repo: { type: 'string' },
      mirrors: { type: 'string', default: '../.mirror' },
      manifest: { type: 'string', default: 'bench/corpus/manifest.tsv' },
    },
  });
  if (!values.out) usage(USAGE);
  const repos = repositoriesFrom(values);
  repos.forEach(assertMinable);
  const pairDir = path.join(values.out, 'pairs');
  fs.mkdirSync(pairDir, { recursive: true });
  const statsFile = path.join(values.out, 'stats.json');
  const stats: Record<string, Record<string, number>> = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : {};
  const fresh: ManifestRow[] = [];
  for (const repo of repos) {
    const result = await mineRepository(values.mirrors, repo);
    const file = path.join(pairDir, `${repo.replace('/', '+')}.jsonl`);
    fs.writeFileSync(file, result.pairs.map((p) => JSON.stringify(p) + '\n').join(''));
    stats[repo] = result.dropped;
    fresh.push(result.row);
    process.stderr.write(`${repo}: ${result.row.language} ${result.row.split}, ${result.row.commits_scanned} commits, ${result.pairs.length} pairs\n`);
  }
  const rows = mergeRows(readManifest(values.manifest), fresh);
  writeManifest(values.manifest, rows);
  fs.writeFileSync(statsFile, JSON.stringify(stats, null, 1) + '\n');
  const all = rows.map((r) => fs.readFileSync(path.join(pairDir, `${r.repository.replace('/', '+')}.jsonl`), 'utf8')).join('');
  fs.writeFileSync(path.join(values.out, 'pairs.jsonl'), all);
  process.stdout.write(summary(rows) + '\n');
}

try {
  await main();
} catch (err) {
  // A refusal (an excluded repository, a missing mirror) is one line, not a stack.
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`corpus:mine: ${e.name}: ${e.message}\n`);
  process.exit(1);
}
