/**
 * Worker threads started from this package's own modules: the compiled module (dist/src), or,
 * running from TypeScript sources (tests), the source through tsx registered inside the thread.
 * node:worker_threads is required when a thread starts, not imported: the embed door, on every
 * search's path, loads this module, and loading worker_threads cost ~6 ms.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker, WorkerOptions } from 'node:worker_threads';

/**
 * The young generation of an index pass's threads (prepare, embed, graph): small, so each
 * collects early instead of growing. At V8's default, the embed and graph threads alone held
 * sphinx's cold pass 30–50 MiB higher (298–320 MiB peak RSS against 265–270), no faster.
 */
export const PASS_YOUNG_GENERATION_MB = 8;

/** Starts `compiled` on a thread, or `source` where no compiled module exists. */
export function startThread(compiled: URL, source: URL, options: WorkerOptions): Worker {
  const require = createRequire(import.meta.url);
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  if (fs.existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const tsx = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href; // the ESM entry
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
