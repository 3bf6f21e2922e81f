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
 * Killed at any point, the index holds whole files only, and the next pass
 * resumes: what was written passes the stat fast-path, the rest is redone.
 */
import type { Config } from '../config/index.js';
import { resolveGraph, type ResolveSummary } from '../graph/index.js';
import type { FileVersion, Store, StoredFile } from '../store/index.js';
import type { WalkedFile } from '../walk/index.js';
import { embedPass, type EmbedSummary } from './embed-pass.js';
import { gitHead, indexHistory } from './history.js';
import { createPreparer } from './pool.js';
import { survey, unchangedSince } from './survey.js';
import { tidyTerms } from './term-stats.js';
import type { Prepared } from './prepare.js';
import { stampIndexSource } from './source.js';

export type IndexPhase = 'walking' | 'parsing' | 'writing' | 'embedding' | 'done';

export interface IndexProgress {
  phase: IndexPhase;
  done: number;
  total: number;
  /** The pass's counters so far (live: read it, do not keep it). */
  summary: Readonly<IndexSummary>;
}

export interface IndexOptions {
  onProgress?: (p: IndexProgress) => void;
  /** Awaited before each file is prepared: may wait (yield to queries) or throw (stop the pass). */
  checkpoint?: () => Promise<void>;
  /** Only these repo-relative paths (what a watcher saw change); default: the whole tree. See survey.ts. */
  paths?: readonly string[];
  /** Extract and resolve the code graph (default true; off only to measure what it costs). */
  graph?: boolean;
}

export interface IndexSummary {
  scanned: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Files seen but not indexed, by reason (gitignore, binary, too_large, …). */
  skipped: Record<string, number>;
  chunks: number;
  symbols: number;
  /** The code graph's resolution pass: edges pending, edges answered. */
  graph?: ResolveSummary;
  /** The embedding pass that followed (embed-pass.ts); null with no embedder. */
  embed?: EmbedSummary | null;
  elapsedMs: number;
}

const BATCH_FILES = 64;
const READ_CONCURRENCY = 8;

type Task = { file: WalkedFile; stored?: StoredFile };

export async function indexRepository(
  root: string,
  store: Store,
  config: Config,
  options: IndexOptions = {},
): Promise<IndexSummary> {
  const started = performance.now();
  const onProgress = options.onProgress ?? (() => {});
  const summary: IndexSummary = {
    scanned: 0, added: 0, updated: 0, removed: 0, unchanged: 0, skipped: {}, chunks: 0, symbols: 0, elapsedMs: 0,
  };
  const skip = (reason: string) => (summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1);
  const progress = (p: Omit<IndexProgress, 'summary'>) => onProgress({ ...p, summary });

  progress({ phase: 'walking', done: 0, total: 0 });
  const { walked, stored, skippedBefore } = await survey(root, store, config, options.paths);
  summary.scanned = walked.files.length;
  for (const s of walked.skipped) skip(s.reason);
  const walkSkips = walked.skipped.filter((s) => {
    const before = skippedBefore.get(s.path);
    return !before || before.reason !== s.reason || before.detail !== (s.rule ?? null);
  });

  const seen = new Set<string>();
  const tasks: Task[] = [];
  for (const file of walked.files) {
    seen.add(file.path);
    const prev = stored.get(file.path);
    const prevSkip = skippedBefore.get(file.path);
    if (prev && unchangedSince(file, prev.size, prev.indexedAtMs)) summary.unchanged++;
    else if (!prev && prevSkip && prevSkip.reason !== 'unreadable' && unchangedSince(file, prevSkip.size, prevSkip.checkedAtMs)) skip(prevSkip.reason);
    else tasks.push({ file, stored: prev });
  }
  let pending: { task: Task; result: Prepared }[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    progress({ phase: 'writing', done: done, total: tasks.length });
    store.transaction(() => {
      for (const { task, result } of batch) apply(task, result);
    });
  };
  const apply = (task: Task, result: Prepared) => {
    const { file, stored: prev } = task;
    switch (result.kind) {
      case 'version':
        store.putFile(result.version);
        countVersion(result.version);
        if (prev) summary.updated++;
        else summary.added++;
        return;
      case 'same':
        store.files.markSeen(prev!.id, file.mtimeMs, result.size, result.indexedAtMs);
        summary.unchanged++;
        return;
      case 'skip':
        if (result.reason === 'vanished') {
          if (prev) { store.removeFile(file.path); summary.removed++; }
          return;
        }
        skip(result.reason);
        store.recordSkipped({ path: file.path, reason: result.reason, detail: result.detail, size: file.size, mtimeMs: file.mtimeMs, checkedAtMs: result.checkedAtMs });
        // An unreadable file keeps its last good version; one that became binary or huge is dropped.
        if (prev && result.reason !== 'unreadable') { store.removeFile(file.path); summary.removed++; }
        return;
    }
  };
  const countVersion = (v: FileVersion) => {
    summary.chunks += v.chunks.length;
    summary.symbols += v.symbols.length;
  };

  let done = 0;
  let next = 0;
  const preparer = createPreparer(tasks.length);
  const worker = async () => {
    while (next < tasks.length) {
      await options.checkpoint?.();
      if (next >= tasks.length) return;
      const task = tasks[next++]!;
      const result = await preparer.prepare({
        path: task.file.path,
        abs: task.file.abs,
        mtimeMs: task.file.mtimeMs,
        maxFileBytes: config.maxFileBytes,
        storedDigest: task.stored?.digest,
        references: options.graph,
      });
      pending.push({ task, result });
      done++;
      if (done % 25 === 0) progress({ phase: 'parsing', done, total: tasks.length });
      if (pending.length >= BATCH_FILES) flush();
    }
  };
  progress({ phase: 'parsing', done: 0, total: tasks.length });
  try {
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  } finally {
    await preparer.close();
  }
  flush();

  const gone = [...stored.keys()].filter((p) => !seen.has(p));
  for (const s of walked.skipped) seen.add(s.path);
  store.transaction(() => {
    for (const p of gone) store.removeFile(p);
    for (const p of skippedBefore.keys()) if (!seen.has(p)) store.forgetSkipped(p);
    // The walk's own skips go in the ledger too, so stats and doctor count what the pass counted.
    // Size -1: the stat fast-path above never takes them for an unchanged content skip.
    const checkedAtMs = Date.now();
    for (const s of walkSkips) store.recordSkipped({ path: s.path, reason: s.reason, detail: s.rule ?? null, size: -1, mtimeMs: 0, checkedAtMs });
  });
  summary.removed += gone.length;
  tidyTerms(store, summary.added + summary.updated);
  // Asking git where HEAD is starts first and runs while the graph resolves on this thread.
  const head = gitHead(root);
  if (options.graph !== false) summary.graph = resolveGraph(store, root); // answers the edges the writes above left pending
  await indexHistory(root, store, head);
  stampIndexSource(store);
  store.setMeta('last_indexed_at', new Date().toISOString());
  // Vectors after the lexical pass, on their own thread: keyword search answers meanwhile.
  summary.embed = await embedPass(store, config, { onProgress: progress });
  summary.elapsedMs = Math.round(performance.now() - started);
  progress({ phase: 'done', done: tasks.length, total: tasks.length });
  return summary;
}
