/**
 * reset_index answers at once and drops the code index in the background,
 * as the repository's job: while the sweep runs (here it waits for the index
 * lock another process holds) health, list_repos and index_status say
 * `resetting`, memory answers, and once it ends index_status says what it
 * dropped; add_repo indexes the repository again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoId } from '../../src/engine/index.js';
import { withIndexLock } from '../../src/index/index.js';
import { Store } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, connectStdio, type Connected } from '../mcp/harness.js';
import { until } from './helpers.js';

let root: string;
let home: string;
let conn: Connected;

beforeAll(async () => {
  root = makeRepo({ 'svc/orders.ts': 'export function placeOrder(id: string) {\n  return id;\n}\n' });
  home = tempDir('sightline-home-');
  conn = await connectStdio(['--workspace', root, '--enable-writes'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
});

afterAll(async () => {
  await conn?.close();
  for (const dir of [root, home]) removeDir(dir);
});

const job = async () => (await call(conn.client, 'index_status', { repo: 'svc' })).job;
const completed = () => until(async () => ((await job()).status === 'completed' ? job() : undefined), 'the job to complete');

it('answers at once in phase resetting, sweeps in the background, then reports what it dropped', async () => {
  await call(conn.client, 'add_repo', { path: 'svc' });
  await completed();
  await call(conn.client, 'remember', { repo: 'svc', topic: 'orders', id: 'ids', title: 'Order ids are opaque' });

  // Another process holds the index lock, so the sweep waits behind it for as long as this test likes.
  const store = Store.open(path.join(home, repoId(fs.realpathSync(path.join(root, 'svc'))), 'index.db'));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holding = withIndexLock(store, {}, async () => {
    locked();
    await held;
  });
  await lockTaken;
  try {
    const answer = await call(conn.client, 'reset_index', { repo: 'svc' });
    expect(answer).toMatchObject({ repo: 'svc', existed: true, phase: 'resetting', memory_preserved: true });
    expect(answer.job).toMatchObject({ status: 'running', phase: 'resetting' });

    expect(await job()).toMatchObject({ status: 'running', phase: 'resetting' });
    expect(await call(conn.client, 'health', { repo: 'svc' })).toMatchObject({ retrieval_phase: 'resetting', retrieval_ready: false });
    const workspace = await call(conn.client, 'health');
    expect(workspace.reason).toContain('svc (resetting)');
    expect(workspace.repos[0]).toMatchObject({ id: 'svc', job: 'running', job_phase: 'resetting' });
    const row = (await call(conn.client, 'list_repos')).repos[0];
    expect(row).toMatchObject({ id: 'svc', job: 'running', job_phase: 'resetting', indexed_root: null, file_count: null });
    expect((await call(conn.client, 'recall', { repo: 'svc', key: 'memory:orders/ids' })).fields.title).toBe('Order ids are opaque');
  } finally {
    release();
    await holding;
    store.close();
  }

  const done = await completed();
  expect(done).toMatchObject({ phase: 'done', reset: { dropped: { files: 1 } } });
  expect((await call(conn.client, 'health', { repo: 'svc' })).retrieval_phase).not.toBe('resetting');
  expect((await call(conn.client, 'recall', { repo: 'svc', key: 'memory:orders/ids' })).fields.title).toBe('Order ids are opaque');

  await call(conn.client, 'add_repo', { path: 'svc' });
  await until(async () => ((await job()).summary ? job() : undefined), 'the index to be built again');
  expect((await call(conn.client, 'search', { query: 'placeOrder', repo: 'svc' })).results[0].path).toBe('orders.ts');
});
