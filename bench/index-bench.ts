/**
 * npm run bench:index -- <path>
 * Cold index, no-change re-index and one-edit re-index of a repository, with
 * throughput, peak RSS and index size. Uses a throwaway SIGHTLINE_HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Repo, stats } from '../src/engine/index.js';
import { peakRssMiB, table, time, usage } from './util.js';

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) usage('usage: npm run bench:index -- <path-to-repository>');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
  try {
    const repo = Repo.open(target, { flags: { home } });
    const cold = await time(() => repo.index());
    const s = stats(repo);
    const mb = s.source_bytes / 1_048_576;
    const noChange = await time(() => repo.index());

    // Edit one mid-sized source file (then restore it).
    const victim = repo.store.files.list().filter((f) => f.kind === 'code').sort((a, b) => a.size - b.size)[Math.floor(s.files / 2)] ?? repo.store.files.list()[0]!;
    const abs = path.join(repo.root, victim.path);
    const original = fs.readFileSync(abs);
    let oneEdit;
    try {
      fs.appendFileSync(abs, '\n// sightline bench edit\n');
      oneEdit = await time(() => repo.index());
    } finally {
      fs.writeFileSync(abs, original);
    }
    await repo.index();
    repo.close();

    console.log(`repository: ${repo.root} (${s.files} files, ${mb.toFixed(1)} MiB, ${s.chunks} chunks, ${s.symbols} symbols)`);
    console.log(`cpus: ${os.cpus().length}, node ${process.version}\n`);
    console.log(
      table(
        ['measure', 'value'],
        [
          ['cold index (s)', cold.ms / 1000],
          ['files/s', s.files / (cold.ms / 1000)],
          ['MB/s', mb / (cold.ms / 1000)],
          ['no-change re-index (s)', noChange.ms / 1000],
          ['one-edit re-index (s)', oneEdit.ms / 1000],
          ['edited file updated', String(oneEdit.value.updated)],
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
