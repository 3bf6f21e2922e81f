/**
 * The stage that reads what changed: each task is prepared on the worker
 * pool (read, digest, parse) and written in batches, each batch one
 * transaction in which every file is replaced whole, so a crash leaves each
 * file fully old or fully new.
 */
import { memoryPlan } from '../config/index.js';
import type { Pass, Task } from './pass.js';
import { createPreparer } from './pool.js';
import type { Prepared } from './prepare.js';

export async function prepareAndWrite(pass: Pass): Promise<void> {
  const { tasks, options, config } = pass;
  // Files in flight and prepared-but-unwritten are what this stage holds: both follow the ceiling.
  const plan = memoryPlan(config.maxMemoryMB);
  let pending: { task: Task; result: Prepared }[] = [];
  let done = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    pass.progress({ phase: 'writing', done, total: tasks.length });
    pass.store.transaction(() => {
      for (const { task, result } of batch) write(pass, task, result);
    });
  };
  let next = 0;
  const preparer = createPreparer(tasks.length, plan);
  const reader = async () => {
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
      if (done % 25 === 0) pass.progress({ phase: 'parsing', done, total: tasks.length });
      if (pending.length >= plan.batchFiles) flush();
    }
  };
  pass.progress({ phase: 'parsing', done: 0, total: tasks.length });
  try {
    await Promise.all(Array.from({ length: plan.filesInFlight }, reader));
  } finally {
    await preparer.close();
  }
  flush();
}

/** One prepared file into the index (inside the batch's transaction), counted in the summary. */
function write(pass: Pass, task: Task, result: Prepared): void {
  const { store, summary } = pass;
  const { file, stored: prev } = task;
  const drop = () => {
    store.removeFile(file.path);
    summary.removed++;
  };
  switch (result.kind) {
    case 'version':
      store.putFile(result.version);
      pass.counted(result.version);
      if (prev) summary.updated++;
      else summary.added++;
      return;
    case 'same':
      store.files.markSeen(prev!.id, file.mtimeMs, result.size, result.indexedAtMs);
      summary.unchanged++;
      return;
    case 'skip':
      if (result.reason === 'vanished') {
        if (prev) drop();
        return;
      }
      pass.skip(result.reason);
      store.recordSkipped({ path: file.path, reason: result.reason, detail: result.detail, size: file.size, mtimeMs: file.mtimeMs, checkedAtMs: result.checkedAtMs });
      // An unreadable file keeps its last good version; one that became binary or huge is dropped.
      if (prev && result.reason !== 'unreadable') drop();
      return;
  }
}
