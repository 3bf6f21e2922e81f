/**
 * The server side of a live index: `serve --watch` picks up edits with no
 * call to the index tool, `index_status` shows a pass another process runs,
 * and a query during the first index is answered at once from what exists.
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
  it('serve --watch: an edit becomes findable with no call to the index tool', async () => {
    const root = tmp.dir();
    writeGenerated(root, 30);
    const conn = await server(root, tmp.dir('sightline-home-'), ['--watch'], { SIGHTLINE_WATCH_DEBOUNCE_MS: '50' });
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
    const conn = await server(root, home);
    expect((await call(conn.client, 'index_status')).job.status).toBe('none');
    const cli = spawn(process.execPath, [CLI, 'index', root], { env: { PATH: process.env.PATH, SIGHTLINE_HOME: home }, stdio: 'ignore' });
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    const running = await until('index_status to show the CLI pass', async () => {
      const { job } = await call(conn.client, 'index_status');
      return job.status === 'running' && job.counts.scanned > 0 ? job : null;
    }, 60_000);
    expect(running.pid).toBe(cli.pid);
    expect(await exited).toBe(0);
    expect((await call(conn.client, 'index_status')).job).toMatchObject({ status: 'completed', pid: cli.pid, counts: expect.objectContaining({ added: 1_500 }) });
  });

  it('a query during the first index is answered at once, from what exists, and says so', async () => {
    const root = tmp.dir();
    writeGenerated(root, 1_500);
    const conn = await server(root, tmp.dir('sightline-home-'));
    const first = await call(conn.client, 'locate', { query: 'fn_1499_2_v1' });
    expect(first).toMatchObject({ status: 'ok', retrieval_phase: 'building' });
    // Answered while the pass it started still runs: it did not wait for the index.
    expect((await call(conn.client, 'index_status')).job.status).toBe('running');
    await waitForIndex(conn.client, 60_000);
    const later = await call(conn.client, 'locate', { query: 'fn_1499_2_v1' });
    expect(later.retrieval_phase).toBe('serving');
    expect(later.results[0].path).toMatch(/file1499\.ts$/);
  });
});
