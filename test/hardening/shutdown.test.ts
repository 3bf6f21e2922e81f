/**
 * Issue 21: stopping `serve` or `index` during the first background pass left
 * its lock row and a `running` job. Every orderly stop now records the pass as
 * ended and frees the lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { INITIALIZE, spawnCli } from '../mcp/harness.js';

/** Enough files that the first pass is still parsing when the signal lands. */
const FILES = Object.fromEntries(
  Array.from({ length: 1_200 }, (_, i) => [`d${i % 30}/f${i}.ts`, Array.from({ length: 60 }, (_, j) => `export function fn${i}_${j}(a: number) { return a + ${j}; }`).join('\n')]),
);

let root: string;
beforeAll(() => {
  root = makeRepo(FILES);
});
afterAll(() => removeDir(root));

function jobRows(home: string): { job?: { status: string }; locks: number } {
  const dir = fs.readdirSync(home).find((d) => fs.existsSync(path.join(home, d, 'index.db')));
  if (!dir) return { locks: 0 };
  const db = new Database(path.join(home, dir, 'index.db'), { readonly: true, fileMustExist: true });
  try {
    return { job: db.prepare('SELECT status FROM index_job').get() as { status: string } | undefined, locks: db.prepare('SELECT count(*) FROM index_lock').pluck().get() as number };
  } catch {
    return { locks: 0 }; // the schema is still being created
  } finally {
    db.close();
  }
}

async function untilRunning(home: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (jobRows(home).job?.status !== 'running') {
    if (Date.now() > deadline) throw new Error('the first pass never started');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('stopping during the first pass', () => {
  it.each([
    ['serve (stdio) on SIGTERM', ['serve', '--repo'], 'SIGTERM'],
    ['serve (stdio) on SIGINT', ['serve', '--repo'], 'SIGINT'],
    ['index on SIGINT', ['index', '--repo'], 'SIGINT'],
    ['index on SIGTERM', ['index', '--repo'], 'SIGTERM'],
  ] as const)('%s frees the lock and ends the job', async (_name, verb, signal) => {
    const home = tempDir('sightline-home-');
    try {
      const child = spawnCli([...verb, root], { SIGHTLINE_HOME: home }, 'pipe');
      if (verb[0] === 'serve') {
        const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'index_status', arguments: {} } };
        child.proc.stdin!.write(`${INITIALIZE}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify(call)}\n`);
      }
      await untilRunning(home);
      child.proc.kill(signal);
      await child.exited;
      expect(jobRows(home)).toEqual({ job: { status: 'failed' }, locks: 0 });
    } finally {
      removeDir(home);
    }
  });
});
