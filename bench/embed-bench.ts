/**
 * npm run bench:embed -- <path> [--embedder builtin]
 *
 * Semantic retrieval costs on one repository: raw embedding throughput of the
 * embedder, the time to fully embed the repository after its lexical index
 * (the embedding pass alone, in a fresh process, with that process's peak
 * RSS), hybrid and keyword query latency (cache off), and exact vector search
 * over a synthetic 100k-vector matrix. Uses a throwaway SIGHTLINE_HOME.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { embedderSpec, embeddingText, openEmbedder, type EmbedderKind } from '../src/embed/index.js';
import { Repo } from '../src/engine/index.js';
import { search } from '../src/engine/search.js';
import { embedPass } from '../src/index/embed-pass.js';
import { nearest } from '../src/search/vector.js';
import { fmt, median, peakRssMiB, percentile, table, time, usage } from './util.js';

/** Questions an agent asks without naming an identifier; the same list for every repository. */
const QUERIES = [
  'where are command line options parsed',
  'how is the configuration file loaded',
  'escape special characters in generated output',
  'retry the request after a timeout',
  'which function writes the output file to disk',
  'cache results so the second call is fast',
  'warn when a deprecated option is used',
  'sort the entries alphabetically before printing',
  'resolve a relative path against the project root',
  'parse the version number from a string',
  'log an error message and exit',
  'merge two dictionaries of settings',
  'read environment variables for defaults',
  'format a date for display',
  'convert markup to html',
  'handle unicode characters in file names',
  'register a plugin or extension',
  'validate the input and raise an error',
  'build the index of all documents',
  'translate messages into another language',
];

function flags(embedder: string, home: string) {
  return { home, embedder: embedder as EmbedderKind, queryCacheSize: 0 };
}

/** Child mode: run only the embedding pass and report its time and this process's peak RSS. */
async function embedOnly(root: string, home: string, embedder: string): Promise<void> {
  const repo = Repo.open(root, { flags: flags(embedder, home) });
  const cpu = process.cpuUsage();
  const t = await time(() => embedPass(repo.store, repo.config, { inThreadMax: 0 }));
  const used = process.cpuUsage(cpu); // both threads
  process.stdout.write(JSON.stringify({ ms: t.ms, cpuMs: (used.user + used.system) / 1000, embedded: t.value?.embedded ?? 0, error: t.value?.error ?? null, rss: peakRssMiB() }) + '\n');
  repo.close();
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { embedder: { type: 'string', default: 'builtin' }, 'embed-only': { type: 'string' } } });
  if (values['embed-only']) return embedOnly(positionals[0]!, values['embed-only'], values.embedder);
  const target = positionals[0];
  if (!target) usage('usage: npm run bench:embed -- <path-to-repository> [--embedder builtin|onnx|http]');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-embed-bench-'));
  try {
    const lexical = Repo.open(target, { flags: flags('none', home) });
    const lexicalMs = (await time(() => lexical.index())).ms;
    const texts = [...lexical.store.chunks.scan()].map((c) => embeddingText(c));
    lexical.close();

    // Raw throughput on this thread, after a warm-up, over every chunk of the repository.
    const embedder = (await openEmbedder(embedderSpec({ ...lexical.config, embedder: values.embedder as EmbedderKind })))!;
    await embedder.embed(texts.slice(0, 200));
    const rawCpu = process.cpuUsage();
    const raw = await time(() => embedder.embed(texts));
    const rawUsed = process.cpuUsage(rawCpu);
    await embedder.close();

    // The embedding pass alone, in a fresh process: time to fully embed, and its peak RSS.
    const script = fileURLToPath(import.meta.url);
    const child = JSON.parse(execFileSync(process.execPath, [script, target, '--embed-only', home, '--embedder', values.embedder], { encoding: 'utf8' })) as { ms: number; cpuMs: number; embedded: number; error: string | null; rss: number };
    if (child.error) console.error(child.error);

    const repo = Repo.open(target, { flags: flags(values.embedder, home) });
    // Wall clock and CPU time: on a busy machine the CPU time is what a query costs on an idle one.
    const latency = { hybrid: { wall: [] as number[], cpu: [] as number[] }, keyword: { wall: [] as number[], cpu: [] as number[] } };
    search(repo, { query: QUERIES[0]! }); // loads the model and the vectors once
    for (let round = 0; round < 3; round++) {
      for (const q of QUERIES) {
        for (const mode of ['hybrid', 'keyword'] as const) {
          const cpu = process.cpuUsage();
          latency[mode].wall.push((await time(() => search(repo, { query: q, mode }))).ms);
          const used = process.cpuUsage(cpu);
          latency[mode].cpu.push((used.user + used.system) / 1000);
        }
      }
    }
    const dims = repo.store.vectors.identity()?.dims ?? 128;
    repo.close();

    // Exact search cost at scale: 100k random unit vectors of this width.
    const n = 100_000;
    const data = new Float32Array(n * dims).map(() => Math.random() - 0.5);
    const q = new Float32Array(dims).map(() => Math.random() - 0.5);
    const ids = Float64Array.from({ length: n }, (_, i) => i);
    const exact: number[] = [];
    for (let i = 0; i < 20; i++) exact.push((await time(() => nearest({ ids, data, dims }, q, 300))).ms);

    console.log(`repository: ${target} (${texts.length} chunks), embedder: ${values.embedder} (${dims} dims)`);
    console.log(`cpus: ${os.cpus().length}, node ${process.version}\n`);
    console.log(table(['measure', 'value'], [
      ['lexical index (s)', lexicalMs / 1000],
      ['embed, raw on one thread: chunks/s of wall / of CPU', `${fmt(texts.length / (raw.ms / 1000))} / ${fmt(texts.length / ((rawUsed.user + rawUsed.system) / 1e6))}`],
      ['embedding pass: time to fully embed, wall / CPU (s)', `${fmt(child.ms / 1000)} / ${fmt(child.cpuMs / 1000)}`],
      ['embedding pass: chunks/s of wall', child.embedded / (child.ms / 1000)],
      ['embedding pass: peak RSS (MiB)', child.rss],
      ['hybrid query p50, wall / CPU (ms)', `${fmt(median(latency.hybrid.wall))} / ${fmt(median(latency.hybrid.cpu))}`],
      ['hybrid query p95, wall / CPU (ms)', `${fmt(percentile(latency.hybrid.wall, 95))} / ${fmt(percentile(latency.hybrid.cpu, 95))}`],
      ['keyword query p50, wall / CPU (ms)', `${fmt(median(latency.keyword.wall))} / ${fmt(median(latency.keyword.cpu))}`],
      [`exact search 100k×${dims} p50 (ms)`, median(exact)],
    ]));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await main();
