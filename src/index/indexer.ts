/**
 * The incremental indexing pass.
 *
 * 1. Walk the tree (ignore rules, globs, size cap, symlink guard), or look at
 *    only the paths a watcher saw change (survey.ts).
 * 2. For each file, the stat fast-path: same size and an mtime strictly older
 *    than the moment it was last read means unchanged — not read at all.
 * 3. Otherwise read it; identical bytes (same digest) only refresh its stat;
 *    new bytes are parsed into chunks, symbols and terms.
 * 4. Write in batches: each batch is one transaction, and each file inside it
 *    is replaced whole, so a crash leaves every file fully old or fully new.
 * 5. Files the walk no longer sees are removed.
 *
 * The pass is its stages, in order (STAGES below); each reads and adds to
 * the one Pass (pass.ts).
 *
 * Killed at any point, the index holds whole files only, and the next pass
 * resumes: what was written passes the stat fast-path, the rest is redone.
 */
import { memoryPlan, type Config } from '../config/index.js';
import { resolveGraph } from '../graph/index.js';
import { isBusy, type Store } from '../store/index.js';
import { embedPass, type EmbedProgress } from './embed-pass.js';
import { indexHistory } from './history.js';
import { emptySummary, Pass, type IndexOptions, type IndexSummary } from './pass.js';
import { prepareAndWrite } from './prepare-stage.js';
import { indexSource, stampIndexSource } from './source.js';
import { survey } from './survey.js';
import { tidyTerms } from './term-stats.js';

interface Stage {
  /** What it does, for the next reader and for a stack trace. */
  name: string;
  run(pass: Pass): void | Promise<void>;
}

const STAGES: readonly Stage[] = [
  { name: 'prepare and write changed files', run: prepareAndWrite },
  { name: 'remove what is gone', run: sweep },
  { name: 'tidy term statistics', run: (pass) => tidyTerms(pass.store, pass.summary.added + pass.summary.updated) },
  { name: 'fill the names filters an older index lacks', run: ({ store }) => store.fillNameFilters() },
  {
    // Before the graph and history: a first index is keyword-searchable from here (Repo.hasIndex), while
    // graph answers wait for or disclose the references still pending (engine/graph-settled.ts).
    name: 'stamp what the index was built from',
    run: ({ store, summary }) => {
      // A pass that changed no file leaves the digest as it was, without a sort and a digest over every file.
      if (summary.added + summary.updated + summary.removed > 0 || !indexSource(store).digest) stampIndexSource(store);
      store.setMeta('last_indexed_at', new Date().toISOString());
    },
  },
  // Vectors on their own thread while the graph resolves on another (or on this one): one after the
  // other left a core idle for the whole of each. Keyword search answers meanwhile.
  { name: 'resolve the graph and read history, embedding meanwhile', run: graphHistoryAndVectors },
  // Last, so the vectors just written filled freed pages first.
  { name: 'give freed pages back', run: givePagesBack },
];

export async function indexRepository(root: string, store: Store, config: Config, options: IndexOptions = {}): Promise<IndexSummary> {
  const started = performance.now();
  store.setCacheKiB(memoryPlan(config.maxMemoryMB).sqliteCacheKiB);
  options.onProgress?.({ phase: 'walking', done: 0, total: 0, summary: emptySummary() });
  const pass = new Pass(root, store, config, options, await survey(root, store, config, options.paths, options.listings));
  for (const stage of STAGES) await stage.run(pass);
  pass.summary.elapsedMs = Math.round(performance.now() - started);
  pass.progress({ phase: 'done', done: pass.tasks.length, total: pass.tasks.length });
  return pass.summary;
}

/**
 * A pass that wrote most of the index (a first index, a rebuild) rewrites the file packed: the
 * b-trees it filled out of key order (the graph's tables and indexes, the paths) leave pages part
 * empty, 4% of babel's index (2.4 MiB; the rewrite takes about a second). Any other pass gives back
 * only the pages it freed.
 */
function givePagesBack({ store, summary }: Pass): void {
  if (summary.added + summary.updated > store.counts().files / 2) {
    try {
      store.compact();
      return;
    } catch (err) {
      if (!isBusy(err)) throw err; // another process is writing: the file stays unpacked
    }
  }
  store.releaseFreePages();
}

/** Stored files the survey no longer sees go, the skip ledger follows the walk, and the change log keeps its last rows. */
function sweep(pass: Pass): void {
  const { store, seen, surveyed } = pass;
  const gone = [...surveyed.stored.keys()].filter((p) => !seen.has(p));
  const walkSkips = pass.walkSkipsToRecord();
  const skippedNow = new Set(surveyed.walked.skipped.map((s) => s.path));
  store.transaction(() => {
    for (const p of gone) store.removeFile(p);
    for (const p of surveyed.skippedBefore.keys()) if (!seen.has(p) && !skippedNow.has(p)) store.forgetSkipped(p);
    // The walk's own skips go in the ledger too, so stats and doctor count what the pass counted.
    // Size -1: the stat fast-path never takes them for an unchanged content skip.
    const checkedAtMs = Date.now();
    for (const s of walkSkips) store.recordSkipped({ path: s.path, reason: s.reason, detail: s.rule ?? null, size: -1, mtimeMs: 0, checkedAtMs });
    store.changes.trim();
  });
  pass.summary.removed += gone.length;
}

/**
 * The phase stays `resolving` until the graph and history are done (what graph answers wait for);
 * the embedding's progress is told from then on, starting with how far it got meanwhile. A failed
 * graph stops the embedding after its pages in flight, and its error is the one the pass fails with.
 */
async function graphHistoryAndVectors(pass: Pass): Promise<void> {
  pass.progress({ phase: 'resolving', done: 0, total: 0 });
  const embedding: { resolving: boolean; held: EmbedProgress | null } = { resolving: true, held: null };
  const stop = new AbortController();
  const onProgress = (p: EmbedProgress) => (embedding.resolving ? (embedding.held = p) : pass.progress(p));
  const vectors = embedPass(pass.store, pass.config, { signal: stop.signal, onProgress }).then((s) => void (pass.summary.embed = s));
  const graph = graphAndHistory(pass).then(
    () => {
      embedding.resolving = false;
      if (embedding.held) pass.progress(embedding.held);
    },
    (err: unknown) => {
      stop.abort();
      throw err;
    },
  );
  await settledAll([graph, vectors]);
}

/** The graph and the history together: git's processes and this thread's reading of them run while the graph resolves. */
async function graphAndHistory(pass: Pass): Promise<void> {
  const { root, store, options, summary } = pass;
  // Answers the edges the writes left pending, a page at a time, on a thread whose heap the memory ceiling caps.
  const plan = memoryPlan(pass.config.maxMemoryMB);
  const graph = async () => {
    await new Promise(setImmediate); // git is asked first: it runs while the graph resolves, here or on its thread
    if (options.graph !== false) summary.graph = await resolveGraph(store, root, { pageEdges: plan.graphPageEdges, heapMB: plan.graphHeapMB, cacheKiB: plan.sqliteCacheKiB });
  };
  await settledAll([indexHistory(root, store), graph()]);
}

/** Waits for every task to settle (none is left writing to the store), then throws the first failure. */
async function settledAll(tasks: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(tasks)).find((t) => t.status === 'rejected');
  if (failed) throw failed.reason;
}
