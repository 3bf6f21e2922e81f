/**
 * npm run bench:watch -- [path] [--debounce <ms>] [--settle <ms>] [--reps <n>]
 * Edit-to-searchable latency in watch mode: a file is edited, added or
 * deleted, and the clock runs until the index answers accordingly (polled
 * with a direct symbol lookup every 5 ms, so the probe does not slow the pass
 * it waits for; `locate` confirms each answer). Reported
 * both whole and after the settle time a lone edit waits (the rest is the
 * indexer's), with the
 * watch pass's own duration, and how long the first search after each edit
 * takes (what the index keeps between questions is moved by the pass, not
 * read again). Then a burst of 1,000 writes: how many passes,
 * and how long until all of it is searchable. Works on a copy of the given
 * repository (never edits it), or on a generated 2,000-file one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineOver, Repo } from '../src/engine/index.js';
import { locate } from '../src/engine/locate.js';
import { median, percentile, table, usage } from './util.js';

/** Asked after each edit (hybrid, the default mode), never the same answer twice: every pass makes a new index version. */
const NEXT_QUESTION = 'where is the configuration read and validated';

const EXCLUDED = new Set(['.git', 'node_modules', 'dist', 'build', '.venv', '__pycache__']);

function generate(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const abs = path.join(root, `pkg${i % 20}`, `mod${i % 7}`, `file${i}.ts`);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const fns = [0, 1, 2].map((k) => `export function step${k}OfFile${i}(x: number): number {\n  return x * ${k + 1};\n}\n`);
    fs.writeFileSync(abs, `// generated file ${i}\n\n${fns.join('\n')}`);
  }
}

function args(): { source: string | null; debounceMs: number; settleMs: number; reps: number } {
  const argv = process.argv.slice(2);
  const flag = (name: string, fallback: number) => {
    const i = argv.indexOf(name);
    if (i === -1) return fallback;
    const v = Number(argv.splice(i, 2)[1]);
    if (!Number.isInteger(v) || v < 0) usage(`${name} needs a whole number`);
    return v;
  };
  const debounceMs = flag('--debounce', 300);
  const settleMs = flag('--settle', 30);
  const reps = flag('--reps', 15);
  return { source: argv[0] ?? null, debounceMs, settleMs, reps };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const { source, debounceMs, settleMs, reps } = args();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-watch-bench-'));
  const root = path.join(scratch, 'repo');
  const home = path.join(scratch, 'home');
  try {
    if (source) fs.cpSync(source, root, { recursive: true, filter: (p) => !EXCLUDED.has(path.basename(p)) });
    else generate(root, 2_000);
    const repo = Repo.open(root, { flags: { home, watchDebounceMs: debounceMs, watchSettleMs: settleMs, reconcileIntervalMs: 0 } });
    const engine = engineOver(repo);
    const { job } = engine;
    const passMs: number[] = [];
    job.onPass((r) => r.ok && passMs.push(r.summary.elapsedMs));
    const live = await engine.keepLive({ onError: (err) => process.stderr.write(`watch: ${String(err)}\n`) });
    while (job.snapshot().status !== 'completed') await sleep(50);
    await sleep(500); // let the catch-up pass's events settle
    const files = repo.store.counts().files;

    /** Milliseconds from `act` until `done` holds, polled every 5 ms. */
    const clock = async (act: () => void, done: () => boolean): Promise<number> => {
      const t0 = performance.now();
      act();
      while (!done()) {
        if (performance.now() - t0 > 30_000) throw new Error('not searchable after 30 s');
        await sleep(5);
      }
      return performance.now() - t0;
    };
    const defined = (name: string) => repo.store.symbols.named(name).length > 0;
    /** The probe, then the query an agent would make, which must agree. */
    const found = (name: string) => {
      const hit = defined(name);
      if (hit !== locate(repo, { query: name, kind: 'definition' }).results.length > 0) throw new Error(`locate disagrees about ${name}`);
      return hit;
    };
    const probe = (name: string, want: boolean) => () => defined(name) === want && found(name) === want;
    const rows: (string | number)[][] = [];
    /** A question an agent asks next, timed once the edit is searchable and the pass is done (its vectors written). */
    const searchNext = async (): Promise<number> => {
      while (job.snapshot().status !== 'completed') await sleep(5);
      const t0 = performance.now();
      await engine.search({ query: NEXT_QUESTION });
      return performance.now() - t0;
    };
    const measure = async (label: string, run: (i: number) => Promise<number>) => {
      const ms: number[] = [];
      const searchMs: number[] = [];
      passMs.length = 0;
      for (let i = 0; i < reps; i++) {
        ms.push(await run(i));
        searchMs.push(await searchNext());
        await sleep(debounceMs + 200); // the tree quiet again before the next edit
      }
      const after = ms.map((m) => m - Math.min(settleMs, debounceMs));
      rows.push([label, median(ms), percentile(ms, 90), median(after), percentile(after, 90), median(passMs), median(searchMs), percentile(searchMs, 90)]);
    };

    // A median-sized source file: the cost of an edit grows with the file it lands in.
    const code = repo.store.files.list().filter((f) => f.language === 'typescript' || f.language === 'python').sort((a, b) => a.size - b.size);
    const target = code[Math.floor(code.length / 2)]!;
    const targetAbs = path.join(root, target.path);
    const original = fs.readFileSync(targetAbs, 'utf8');
    const definition = (name: string) => (target.language === 'python' ? `\ndef ${name}():\n    return 1\n` : `\nexport function ${name}() { return 1; }\n`);
    // Warm-up: the first edit loads the parser and tokenizer on this thread (the catch-up pass used workers).
    await clock(() => fs.writeFileSync(targetAbs, original + definition('benchWarmUp')), probe('benchWarmUp', true));
    await sleep(debounceMs + 500);
    await measure('edit a file', (i) => clock(() => fs.writeFileSync(targetAbs, original + definition(`benchEdited${i}`)), probe(`benchEdited${i}`, true)));
    fs.writeFileSync(targetAbs, original);
    await sleep(debounceMs + 500);
    await measure('add a file', (i) =>
      clock(() => fs.writeFileSync(path.join(root, `bench_added_${i}.ts`), `export function benchAdded${i}() { return ${i}; }\n`), probe(`benchAdded${i}`, true)),
    );
    await measure('delete a file', (i) => clock(() => fs.rmSync(path.join(root, `bench_added_${i}.ts`)), probe(`benchAdded${i}`, false)));

    // A branch switch: a thousand files written at once.
    const before = passMs.length;
    const burstMs = await clock(
      () => {
        for (let i = 0; i < 1_000; i++) {
          const abs = path.join(root, 'burst', `b${i % 10}`, `burst${i}.ts`);
          fs.mkdirSync(path.dirname(abs), { recursive: true });
          fs.writeFileSync(abs, `export function burstFile${i}() { return ${i}; }\n`);
        }
      },
      () => defined('burstFile999') && defined('burstFile0') && job.snapshot().status === 'completed',
    );
    await sleep(debounceMs + 1_000);
    const burstPasses = passMs.length - before;

    await live.close();
    repo.close();
    console.log(`repository: ${source ?? 'generated'} (${files} files), debounce ${debounceMs} ms, settle ${settleMs} ms, ${reps} edits each; cpus: ${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(1)}, node ${process.version}`);
    console.log(`edited: ${target.path} (${target.size} bytes, ${target.lineCount} lines)\n`);
    console.log(table(['edit', 'to searchable p50 (ms)', 'p90', 'after settle p50 (ms)', 'p90', 'pass p50 (ms)', 'next search p50 (ms)', 'p90'], rows));
    console.log(`\nburst of 1,000 new files: ${burstPasses} pass(es), all searchable after ${(burstMs / 1000).toFixed(2)} s`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
