/**
 * Issue 21, a damaged index while serving: `doctor` names a dropped table
 * (it failed on one), and a server that finds its index damaged moves it
 * aside and rebuilds it in the background, keeping agent memory as
 * `index --force` does, and says so in `health`, instead of failing every
 * call. Real CLI, real SDK client over stdio, real damage to a real index.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor, Repo } from '../../src/engine/index.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, connectStdio, type Connected } from '../mcp/harness.js';

let root: string;
const homes: string[] = [];
const clients: Connected[] = [];
beforeAll(() => {
  root = makeRepo(SAMPLE_FILES);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  removeDir(root);
  for (const h of homes) removeDir(h);
});

function indexed(): { home: string; dbPath: string } {
  const home = tempDir('sightline-home-');
  homes.push(home);
  const env = { SIGHTLINE_HOME: home };
  expect(runCli(['index', '--repo', root], env).code).toBe(0);
  expect(runCli(['remember', 'auth', '--id', 'ttl', '--title', 'Sessions expire after 1h', '--enable-writes', '--repo', root], env).code).toBe(0);
  const [dir] = fs.readdirSync(home).filter((d) => fs.existsSync(path.join(home, d, 'index.db')));
  return { home, dbPath: path.join(home, dir!, 'index.db') };
}

function dropTable(dbPath: string, table: string): void {
  const db = new Database(dbPath);
  db.exec(`DROP TABLE ${table}`);
  db.close();
}

function garblePages(dbPath: string): void {
  const size = fs.statSync(dbPath).size;
  const fd = fs.openSync(dbPath, 'r+');
  fs.writeSync(fd, Buffer.alloc(size - 3 * 4096, 0xa7), 0, size - 3 * 4096, 2 * 4096);
  fs.closeSync(fd);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('doctor', () => {
  it.each(['files', 'chunks_fts', 'symbols', 'skipped'])('names a dropped %s table, with the fix', (table) => {
    const { home, dbPath } = indexed();
    dropTable(dbPath, table);
    const repo = Repo.open(root, { flags: { home }, env: {} });
    try {
      const report = doctor(repo);
      expect(report.healthy).toBe(false);
      expect(report.checks).toContainEqual({ name: 'tables', ok: false, detail: `table ${table} is missing: the index is damaged`, fix: 'sightline index --force' });
    } finally {
      repo.close();
    }
  }, 30_000);
});

describe('a server that finds its index damaged', () => {
  it('rebuilds it in the background when a call meets the damage, keeps memory, and says so in health', async () => {
    const { home, dbPath } = indexed();
    dropTable(dbPath, 'files');
    const served = await connectStdio(['--repo', root, '--no-watch'], { SIGHTLINE_HOME: home });
    clients.push(served);
    const first = await served.client.callTool({ name: 'search', arguments: { query: 'session token' } });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    const during = await call(served.client, 'health');
    expect(during.recovered).toMatchObject({ aside: `${dbPath}.damaged`, memory: 'kept', damage: expect.stringMatching(/\bfiles\b/) });
    const ready = await until('the rebuild', async () => {
      const h = await call(served.client, 'health');
      return h.index === 'ready' && h.recovered?.rebuilt ? h : undefined;
    });
    expect(ready.problems).toEqual([]);
    const found = await call(served.client, 'search', { query: 'SessionManager' });
    expect(found.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
    const recalled = await call(served.client, 'recall', { key: 'memory:auth/ttl' });
    expect(recalled.exists).toBe(true);
    expect(served.stderr()).toMatch(/the index was damaged \(.*files.*\); it was moved to/);
  });

  it('rebuilds garbled pages found by its first pass, with no call needed, and health shows it', async () => {
    const { home, dbPath } = indexed();
    garblePages(dbPath);
    const served = await connectStdio(['--repo', root], { SIGHTLINE_HOME: home });
    clients.push(served);
    const healed = await until('the rebuild', async () => {
      const h = (await served.client.callTool({ name: 'health', arguments: {} })) as { content: { text: string }[] };
      const parsed = JSON.parse(h.content[0]!.text);
      return parsed.recovered?.rebuilt && parsed.index === 'ready' ? parsed : undefined;
    });
    expect(healed.recovered.aside).toBe(`${dbPath}.damaged`);
    const found = await call(served.client, 'search', { query: 'SessionManager' });
    expect(found.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
  });
});
