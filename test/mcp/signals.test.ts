/**
 * How each transport stops: stdio exits 0 on SIGINT and SIGTERM, idle or not,
 * after closing the index; http and sse exit 0 on SIGINT and 143 on SIGTERM,
 * after draining. A cleanly closed SQLite database leaves no -wal file
 * behind, which is how these tests see that the store was closed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, slowToolEnv } from '../helpers/cli.js';
import { SAMPLE_FILES, useRepo } from '../helpers/fixture.js';
import { call, connectNetwork, spawnCli, startNetworkServer, waitForStderr, type NetworkTransport } from './harness.js';

const sample = useRepo(SAMPLE_FILES, ({ root, home }) => expect(runCli(['index', root], { SIGHTLINE_HOME: home }).code).toBe(0));

function walFiles(): string[] {
  return fs.readdirSync(sample.home).flatMap((dir) => fs.readdirSync(path.join(sample.home, dir)).filter((f) => f.endsWith('-wal')));
}

/** One JSON-RPC line to a stdio server, and the line that answers it. */
async function rpc(child: ReturnType<typeof spawnCli>, id: number, method: string, params: object): Promise<void> {
  child.proc.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  const deadline = Date.now() + 10_000;
  while (!child.stdout().includes(`"id":${id}`)) {
    if (Date.now() > deadline) throw new Error(`no answer to ${method}: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('stdio', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('an idle server exits 0 on %s', async (signal) => {
    const child = spawnCli(['serve', '--repo', sample.root], { SIGHTLINE_HOME: sample.home }, 'pipe');
    await waitForStderr(child, /MCP server on stdio/);
    await new Promise((r) => setTimeout(r, 300)); // idle: no traffic at all
    child.proc.kill(signal);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stdout()).toBe('');
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('after serving, %s closes the index and exits 0', async (signal) => {
    const child = spawnCli(['serve', '--repo', sample.root], { SIGHTLINE_HOME: sample.home }, 'pipe');
    await rpc(child, 1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    child.proc.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    await rpc(child, 2, 'tools/call', { name: 'search', arguments: { query: 'session' } });
    expect(walFiles()).not.toEqual([]); // the index is open
    child.proc.kill(signal);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(walFiles()).toEqual([]);
    // stdout held protocol messages only
    for (const line of child.stdout().trim().split('\n')) expect(JSON.parse(line).jsonrpc).toBe('2.0');
  });

  it('answers the calls in flight when the client closes stdin right after them, then exits 0', async () => {
    const child = spawnCli(['serve', '--repo', sample.root], { SIGHTLINE_HOME: sample.home, ...slowToolEnv(400) }, 'pipe');
    await rpc(child, 1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    const send = (message: object) => child.proc.stdin!.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'test_slow', arguments: {} } }); // a body that runs 400 ms
    send({ id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'session' } } }); // a read worker's
    child.proc.stdin!.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const answers = new Map(child.stdout().trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; content: { text: string }[] } }).map((m) => [m.id, m.result]));
    expect(JSON.parse(answers.get(2)!.content[0]!.text).status).toBe('ok');
    expect(JSON.parse(answers.get(3)!.content[0]!.text).results.length).toBeGreaterThan(0);
    expect(walFiles()).toEqual([]);
  });

  it('exits 0 when the client closes stdin', async () => {
    const child = spawnCli(['serve', '--repo', sample.root], { SIGHTLINE_HOME: sample.home }, 'pipe');
    await waitForStderr(child, /MCP server on stdio/);
    child.proc.stdin!.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe.each<NetworkTransport>(['http', 'sse'])('%s', (transport) => {
  it.each([
    ['SIGINT', 0],
    ['SIGTERM', 143],
  ] as const)('%s exits %i, idle', async (signal, code) => {
    const server = await startNetworkServer(transport, ['--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    server.proc.kill(signal);
    expect(await server.exited).toEqual({ code, signal: null });
  });

  it.each([
    ['SIGINT', 0],
    ['SIGTERM', 143],
  ] as const)('%s with a client connected closes its session and the index, and exits %i', async (signal, code) => {
    const server = await startNetworkServer(transport, ['--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    const conn = await connectNetwork(server);
    await call(conn.client, 'search', { query: 'session' });
    expect(walFiles()).not.toEqual([]);
    server.proc.kill(signal);
    expect(await server.exited).toEqual({ code, signal: null });
    expect(walFiles()).toEqual([]);
    await conn.close().catch(() => {});
  });

  it('SIGTERM lets a call in flight answer before it exits 143', async () => {
    const server = await startNetworkServer(transport, ['--repo', sample.root], { SIGHTLINE_HOME: sample.home, ...slowToolEnv(700) });
    const conn = await connectNetwork(server);
    const slow = call(conn.client, 'test_slow');
    await new Promise((r) => setTimeout(r, 200)); // the body is running
    server.proc.kill('SIGTERM');
    expect(await slow).toEqual(expect.objectContaining({ status: 'ok' }));
    expect(await server.exited).toEqual({ code: 143, signal: null });
    await conn.close().catch(() => {});
  });
});
