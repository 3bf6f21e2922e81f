/**
 * `sightline serve` options beyond the transports: --enable-writes and the
 * index tool, --log-file, a repository that does not exist, and answers
 * given while the first index is still building.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES, tempDir, useRepo, writeFiles } from '../helpers/fixture.js';
import { call, callError, connectNetwork, connectStdio, spawnCli, startNetworkServer, stop, waitForIndex } from './harness.js';

const sample = useRepo();

describe('sightline serve', () => {
  it('--enable-writes advertises index (not read-only), which updates the index and reports its job', async () => {
    // No watcher: this test is about the passes the index tool starts.
    const conn = await connectStdio(['--repo', sample.root, '--enable-writes', '--no-watch'], { SIGHTLINE_HOME: tempDir('sightline-home-') });
    try {
      const { tools } = await conn.client.listTools();
      const index = tools.find((t) => t.name === 'index');
      expect(index?.annotations?.readOnlyHint).toBe(false);
      const first = await call(conn.client, 'index', { wait: true });
      expect(first.job).toEqual(expect.objectContaining({ status: 'completed', attempts: 1 }));
      expect(first.job.summary.added).toBe(Object.keys(SAMPLE_FILES).length);
      writeFiles(sample.root, { 'src/late.ts': 'export function arrivedLate() {}\n' });
      expect((await call(conn.client, 'locate', { query: 'arrivedLate' })).results).toEqual([]);
      const started = await call(conn.client, 'index', {});
      expect(started.job.attempts).toBe(2);
      await waitForIndex(conn.client);
      expect((await call(conn.client, 'locate', { query: 'arrivedLate' })).results[0].path).toBe('src/late.ts');
      expect((await call(conn.client, 'health')).server.writes_enabled).toBe(true);
    } finally {
      await conn.close();
      fs.rmSync(path.join(sample.root, 'src/late.ts'));
    }
  });

  it('--log-file records tool_call, tool_result (count, estimated tokens) and tool_error as JSON lines, without the token', async () => {
    const logFile = path.join(tempDir('sightline-log-'), 'calls.jsonl');
    const server = await startNetworkServer('http', ['--repo', sample.root, '--log-file', logFile], { SIGHTLINE_HOME: sample.home });
    const conn = await connectNetwork(server);
    try {
      await call(conn.client, 'stats'); // starts the first index
      await waitForIndex(conn.client);
      const found = await call(conn.client, 'locate', { query: 'hashToken' });
      await callError(conn.client, 'outline', { path: '../outside.ts' });
      const lines = fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.every((l) => typeof l.ts === 'string' && typeof l.event === 'string')).toBe(true);
      expect(lines).toContainEqual(expect.objectContaining({ event: 'tool_call', tool: 'locate', args: { query: 'hashToken' } }));
      expect(lines).toContainEqual(
        expect.objectContaining({ event: 'tool_result', tool: 'locate', returned: found.results.length, est_tokens: expect.any(Number), ms: expect.any(Number) }),
      );
      expect(lines).toContainEqual(expect.objectContaining({ event: 'tool_error', tool: 'outline', error: expect.stringContaining('outside the repository') }));
      expect(fs.readFileSync(logFile, 'utf8')).not.toContain(server.token);
    } finally {
      await conn.close();
      await stop(server);
    }
  });

  it('a repository that does not exist exits 2 with one line on stderr and nothing on stdout', async () => {
    const child = spawnCli(['serve', '--repo', path.join(sample.root, 'nope')], { SIGHTLINE_HOME: sample.home });
    expect((await child.exited).code).toBe(2);
    expect(child.stderr().trim().split('\n')).toEqual([expect.stringContaining('does not exist')]);
    expect(child.stdout()).toBe('');
  });

  it('while the first index builds past the wait, a query says building instead of "not in the index"', async () => {
    const conn = await connectStdio(['--repo', sample.root, '--no-watch'], { SIGHTLINE_HOME: tempDir('sightline-home-'), SIGHTLINE_FIRST_INDEX_WAIT_MS: '0' });
    try {
      const building = await call(conn.client, 'outline', { path: 'src/util/crypto.ts' });
      expect(building).toMatchObject({ status: 'building', retrieval_phase: 'building' });
      expect(building.symbols).toBeUndefined();
      await waitForIndex(conn.client);
      expect((await call(conn.client, 'outline', { path: 'src/util/crypto.ts' })).symbols[0].name).toBe('hashToken');
    } finally {
      await conn.close();
    }
  });
});
