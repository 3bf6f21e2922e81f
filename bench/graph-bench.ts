/**
 * npm run bench:graph -- <path> [samples]
 * What the code graph costs and how fast it answers: cold index time with and without graph
 * extraction (same configuration otherwise, keyword-only so embedding does not hide the cost),
 * the edges it holds, and `explore` latency — callers at depth 1 and impact at depth 3 — over
 * anchors drawn from the repository's own referenced definitions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Repo } from '../src/engine/index.js';
import { explore } from '../src/engine/explore.js';
import { indexRepository, type IndexSummary } from '../src/index/index.js';
import { median, percentile, table, time, usage } from './util.js';

/** A deterministic shuffle, so two runs time the same anchors. */
function sample<T>(items: T[], n: number, seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, n);
}

/** A cold index into a fresh home, keyword-only so the embedding pass does not hide the graph's cost. */
async function coldIndex(root: string, graph: boolean): Promise<{ ms: number; summary: IndexSummary; repo: Repo; home: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-graph-bench-'));
  const repo = Repo.open(root, { flags: { home, embedder: 'none' }, env: {} });
  const { ms, value } = await time(() => indexRepository(repo.root, repo.store, repo.config, { graph }));
  return { ms, summary: value, repo, home };
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) usage('usage: npm run bench:graph -- <path-to-repository> [samples]');
  const samples = Number(process.argv[3] ?? 200);

  const without = await coldIndex(target, false);
  without.repo.close();
  fs.rmSync(without.home, { recursive: true, force: true });
  const withGraph = await coldIndex(target, true);
  const repo = withGraph.repo;
  try {
    const store = repo.store;
    const counts = store.edges.counts();
    const { kinds: byKind, confidences: byConfidence } = store.edges.breakdown();

    // Anchors: definitions other code calls, named by a qualified name only they carry.
    const referenced = store.db
      .prepare(
        `SELECT s.qualified FROM symbols s JOIN edge_targets t ON t.symbol_id = s.id
         GROUP BY s.id HAVING count(*) > 0 AND (SELECT count(*) FROM symbols x WHERE x.qualified = s.qualified) = 1`,
      )
      .pluck()
      .all() as string[];
    const anchors = sample(referenced, samples);
    const files = sample(store.files.list().filter((f) => f.kind === 'code').map((f) => f.path), Math.max(10, Math.floor(samples / 4)));

    const run = (relation: 'callers' | 'impact', anchor: string, depth: number) => time(() => explore(repo, { relation, anchor, depth }));
    for (const a of anchors.slice(0, 20)) await run('callers', a, 1); // warm statement caches
    const callers: number[] = [];
    const impact: number[] = [];
    let refined = 0;
    for (const a of anchors) callers.push((await run('callers', a, 1)).ms);
    for (const a of [...anchors, ...files]) {
      const r = await run('impact', a, 3);
      impact.push(r.ms);
      if (r.value.status === 'refine') refined++;
    }
    const s = withGraph.summary;
    console.log(`repository: ${repo.root} (${s.scanned} files scanned, ${s.added} indexed, ${s.symbols} symbols)`);
    console.log(`cpus: ${os.cpus().length}, node ${process.version}; embedder none in both runs\n`);
    console.log(
      table(
        ['measure', 'value'],
        [
          ['cold index without graph (s)', without.ms / 1000],
          ['cold index with graph (s)', withGraph.ms / 1000],
          ['ratio (must stay <= 2)', withGraph.ms / without.ms],
          ['  of which resolution (s)', (s.graph?.elapsedMs ?? 0) / 1000],
          ['edges', counts.edges],
          ['  resolved / ambiguous / unresolved', `${counts.resolved} / ${counts.ambiguous} / ${counts.unresolved}`],
          ['  by kind', byKind.map((k) => `${k.kind} ${k.n}`).join(', ')],
          ['targets', counts.targets],
          ['  by confidence', byConfidence.map((c) => `${c.confidence} ${c.n}`).join(', ')],
          [`explore callers depth 1, p50 / p95 (ms), ${callers.length} anchors`, `${median(callers).toFixed(2)} / ${percentile(callers, 95).toFixed(2)}`],
          [`explore impact depth 3, p50 / p95 (ms), ${impact.length} anchors`, `${median(impact).toFixed(2)} / ${percentile(impact, 95).toFixed(2)}`],
          ['  impact answers refused as too broad (refine)', refined],
        ],
      ),
    );
  } finally {
    repo.close();
    fs.rmSync(withGraph.home, { recursive: true, force: true });
  }
}

await main();
