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

/** Starts `compiled` on a thread, or `source` where no compiled module exists. */
export function startThread(compiled: URL, source: URL, options: WorkerOptions): Worker {
  const require = createRequire(import.meta.url);
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  if (fs.existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const tsx = pathToFileURL(require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href; // the ESM entry
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
