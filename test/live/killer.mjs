/**
 * Worker thread for the kill -9 test: watches one `sightline index` child
 * through its job record in the index and SIGKILLs it at the point it was
 * given. A thread of its own, so the test's checks on the main thread never
 * delay a kill. Posts the phases it saw, with times, when told to stop.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ dbPath: string, pid: number, kill: null | { phase: string, fraction: number, walkDelay: number } }} */
const { dbPath, pid, kill } = workerData;
let stopped = false;
parentPort.on('message', () => (stopped = true));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function due(job, sinceWalk) {
  if (!kill) return false;
  if (kill.phase === 'walking') return job.phase === 'walking' && sinceWalk >= kill.walkDelay;
  const inPhase = kill.phase === 'writing' ? job.phase === 'parsing' || job.phase === 'writing' : job.phase === kill.phase;
  return inPhase && job.total > 0 && job.done >= kill.fraction * job.total;
}

let db = null;
let walkSeenAt = null;
let last = null;
let killed = false;
const timeline = [];
while (!stopped) {
  try {
    db ??= fs.existsSync(dbPath) ? new Database(dbPath, { readonly: true }) : null;
    const job = db?.prepare('SELECT phase, pid, done, total FROM index_job WHERE id = 1').get();
    if (job && job.pid === pid && job.phase) {
      if (job.phase !== last) timeline.push({ phase: job.phase, at: Date.now() });
      last = job.phase;
      if (job.phase === 'walking') walkSeenAt ??= Date.now();
      if (!killed && due(job, walkSeenAt === null ? 0 : Date.now() - walkSeenAt)) {
        process.kill(pid, 'SIGKILL');
        killed = true;
      }
    }
  } catch {
    // The child is still creating the schema: look again.
  }
  await sleep(2);
}
db?.close();
parentPort.postMessage(timeline);
