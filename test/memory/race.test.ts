/**
 * Eight processes drain one backlog through claims on one index file: every
 * item is processed exactly once, no write lands under a token that is not
 * the live one, and stale or released tokens are always refused.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { remember } from '../../src/memory/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo({ 'src/a.ts': 'export const a = 1;\n' });
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'race-worker.mjs');
const ITEMS = 40;
const WORKERS = 8;

function run(me: string): Promise<Record<string, any>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, fixture.root, fixture.home, me], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))) : reject(new Error(`${me} exited ${code}: ${err}`))));
  });
}

it('8 processes racing claims and writes process each item once, under live tokens only', async () => {
  for (let i = 0; i < ITEMS; i++) await remember(fixture.repo.memory, { topic: 'backlog', id: `item-${String(i).padStart(3, '0')}`, body: 'todo', tags: ['todo'] });
  const events = (await Promise.all(Array.from({ length: WORKERS }, (_, i) => run(`w${i}`)))).flat();
  const processed = events.filter((e) => e.event === 'processed');
  expect(processed.map((e) => e.key).sort()).toEqual(Array.from({ length: ITEMS }, (_, i) => `memory:backlog/item-${String(i).padStart(3, '0')}`));
  // No other writer got in between a holder's claim and its accepted write.
  for (const e of processed) expect(e.author).toBe(e.me);
  // A holder whose lease lapsed and was taken over is fenced out, never admitted.
  for (const e of events.filter((e) => e.event === 'refused')) expect(e.reason).toBe('StaleToken');
  expect(events.filter((e) => e.event === 'accepted_after_release')).toEqual([]);
  for (const e of events.filter((e) => e.event === 'refused_after_release')) expect(['ClaimReleased', 'StaleToken']).toContain(e.reason);
  expect(new Set(processed.map((e) => e.me)).size).toBeGreaterThan(1); // they really raced
}, 120_000);
