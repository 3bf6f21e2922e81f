/**
 * npm run bench:index -- <path>
 * Cold index, no-change re-index and one-edit re-index of a repository, with
 * throughput, peak RSS and index size. Uses a throwaway SIGHTLINE_HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Repo } from '../src/engine/index.js';
import { stats } from '../src/engine/stats.js';
import { median, peakRssMiB, table, time, usage } from './util.js';

const EDITS = 5;

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) usage('usage: npm run bench:index -- <path-to-repository>');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
  try {
    const repo = Repo.open(target, { flags: { home } });
    // Keyword search answers once the lexical pass (with graph and history) is written; vectors follow.
    const started = performance.now();
    let searchableMs = 0;
    const cold = await time(() => repo.index({ onProgress: (p) => (searchableMs ||= p.phase === 'resolving' || p.phase === 'embedding' || p.phase === 'done' ? performance.now() - started : 0) }));
    const s = stats(repo);
    const mb = s.source_bytes / 1_048_576;
    const noChange: number[] = [];
    for (let i = 0; i < EDITS; i++) noChange.push((await time(() => repo.index())).ms);
    // A new process's first pass reads every directory: later ones keep the listings of those unchanged (walk/listings.ts).
    const fresh = Repo.open(target, { flags: { home } });
    const freshNoChange = (await time(() => fresh.index())).ms;
    fresh.close();

    // Edit one mid-sized source file EDITS times (then restore it). The first
    // edit in a process also loads the parser and tokenizer on this thread.
    const code = repo.store.files.list().filter((f) => f.kind === 'code').sort((a, b) => a.size - b.size);
    const victim = code[Math.floor(code.length / 2)] ?? repo.store.files.list()[0]!;
    const abs = path.join(repo.root, victim.path);
    const original = fs.readFileSync(abs);
    const edits: { ms: number; updated: number }[] = [];
    try {
      for (let i = 0; i < EDITS; i++) {
        fs.appendFileSync(abs, `\n// sightline bench edit ${i}\n`);
        const t = await time(() => repo.index());
        edits.push({ ms: t.ms, updated: t.value.updated });
      }
    } finally {
      fs.writeFileSync(abs, original);
    }
    await repo.index();
    repo.close();

    console.log(`edited: ${victim.path}`);
    console.log(`repository: ${repo.root} (${s.files} files, ${mb.toFixed(1)} MiB, ${s.chunks} chunks, ${s.symbols} symbols)`);
    console.log(`cpus: ${os.cpus().length}, node ${process.version}\n`);
    console.log(
      table(
        ['measure', 'value'],
        [
          ['cold index: searchable (s)', searchableMs / 1000],
          ['cold index: with embeddings (s)', cold.ms / 1000],
          ['files/s (to searchable)', s.files / (searchableMs / 1000)],
          ['MB/s (to searchable)', mb / (searchableMs / 1000)],
          ['graph resolution (s)', (cold.value.graph?.elapsedMs ?? 0) / 1000],
          ['no-change re-index, median (s)', median(noChange) / 1000],
          ['no-change re-index, a new Repo reading every directory (s)', freshNoChange / 1000],
          ['one-edit re-index, first (s)', edits[0]!.ms / 1000],
          [`one-edit re-index, median of next ${EDITS - 1} (s)`, median(edits.slice(1).map((e) => e.ms)) / 1000],
          ['edited file updated each time', String(edits.every((e) => e.updated === 1))],
          ['peak RSS (MiB)', peakRssMiB()],
          ['index size (MiB)', s.index_bytes / 1_048_576],
          ['index / source', s.index_bytes / Math.max(1, s.source_bytes)],
        ],
      ),
    );
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

await main();
