/**
 * The server side of a live index: a plain `serve` (what init writes) picks
 * up edits with no call to the index tool, `index_status` shows a pass
 * another process runs, and a query during the first index waits a bounded
 * time for it, then says it is building instead of answering "nothing found".
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { writeFiles } from '../helpers/fixture.js';
import { call, connectStdio, waitForIndex } from '../mcp/harness.js';
import { scratch, until, writeGenerated } from './helpers.js';

const tmp = scratch();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  tmp.cleanup();
});

async function server(root: string, home: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const conn = await connectStdio(['--repo', root, ...args], { SIGHTLINE_HOME: home, ...env });
  closers.push(() => conn.close());
  return conn;
}

describe('a live index behind MCP', () => {
  it('a plain serve watches by default: an edit becomes findable with no call to the index tool', async () => {
    const root = tmp.dir();
    writeGenerated(root, 30);
    const conn = await server(root, tmp.dir('sightline-home-'), [], { SIGHTLINE_WATCH_DEBOUNCE_MS: '50' });
    await waitForIndex(conn.client, 60_000);
    writeFiles(root, { 'pkg2/edited.py': 'def written_while_serving():\n    return 1\n' });
    const hit = await until('the new definition to be found', async () => (await call(conn.client, 'locate', { query: 'written_while_serving' })).results[0], 30_000, 100);
    expect(hit.path).toBe('pkg2/edited.py');
    const job = await until('the pass to end', async () => {
      const s = (await call(conn.client, 'index_status')).job;
      return s.status === 'completed' ? s : null;
    });
    expect(job.attempts).toBeGreaterThanOrEqual(2); // the catch-up pass, then the one the edit set off
  });

  it('index_status reports a pass that another process runs, with its pid and live counts', async () => {
    const root = tmp.dir();
    writeGenerated(root, 1_500);
    const home = tmp.dir('sightline-home-');
    const conn = await server(root, home, ['--no-watch']); // else the server's own catch-up pass would run first
    expect((await call(conn.client, 'index_status')).job.status).toBe('none');
    const cli = spawn(process.execPath, [CLI, 'index', root], { env: { PATH: process.env.PATH, SIGHTLINE_HOME: home }, stdio: 'ignore' });
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    const running = await until('index_status to show the CLI pass', async () => {
      const { job } = await call(conn.client, 'index_status');
      return job.status === 'running' && job.counts.scanned > 0 ? job : null;
    });
    expect(running.pid).toBe(cli.pid);
    expect(await exited).toBe(0);
    expect((await call(conn.client, 'index_status')).job).toMatchObject({ status: 'completed', pid: cli.pid, counts: expect.objectContaining({ added: 1_500 }) });
  });

  it('a query the first index cannot answer in time gets a building answer with progress, never an empty ok', async () => {
    const root = tmp.dir();
    writeGenerated(root, 1_500);
    const conn = await server(root, tmp.dir('sightline-home-'), ['--no-watch'], { SIGHTLINE_FIRST_INDEX_WAIT_MS: '0' });
    const first = await call(conn.client, 'locate', { query: 'fn_1499_2_v1' });
    expect(first).toMatchObject({ status: 'building', retrieval_phase: 'building', progress: expect.objectContaining({ done: expect.any(Number), total: expect.any(Number) }) });
    expect(first.retry_after_ms).toBeGreaterThanOrEqual(1_000);
    expect(first.note).toMatch(/still being built.*ask again/);
    expect(first.results).toBeUndefined();
    // The query started the pass; it did not wait for it.
    expect((await call(conn.client, 'index_status')).job.status).toBe('running');
    await waitForIndex(conn.client, 60_000);
    const later = await call(conn.client, 'locate', { query: 'fn_1499_2_v1' });
    expect(later.retrieval_phase).toBe('serving');
    expect(later.results[0].path).toMatch(/file1499\.ts$/);
  });

  it('a query during the first index waits for it to become searchable, then answers', async () => {
    const root = tmp.dir();
    writeGenerated(root, 200);
    const conn = await server(root, tmp.dir('sightline-home-'), ['--no-watch'], { SIGHTLINE_FIRST_INDEX_WAIT_MS: '60000' });
    const first = await call(conn.client, 'locate', { query: 'fn_199_2_v1' });
    expect(first.status).toBe('ok');
    expect(first.results[0].path).toMatch(/file199\.ts$/);
  });
});
