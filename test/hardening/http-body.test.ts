/**
 * Issue 21: hostile HTTP bodies get an answer, not a dropped socket. A real
 * server (`sightline serve --transport http|sse`) gets raw requests: a body
 * nested 100,000 deep, and one over the 4 MiB bound; then an SDK client
 * still works on the same server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, connectNetwork, INITIALIZE, rawRequest, startNetworkServer, stop, type NetworkServer, type NetworkTransport } from '../mcp/harness.js';

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
/** Valid JSON whose strings hold brackets: nesting is counted outside strings only. */
const BRACKETS_IN_STRINGS = JSON.stringify({ ...JSON.parse(INITIALIZE), id: 7, params: { ...JSON.parse(INITIALIZE).params, clientInfo: { name: `"[{\\${'['.repeat(500)}`, version: '1' } } });
const OVERSIZED = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'x'.repeat(5 * 1024 * 1024) } } });

let root: string;
let home: string;
const servers: NetworkServer[] = [];

beforeAll(() => {
  root = makeRepo(SAMPLE_FILES);
  home = tempDir('sightline-home-');
});
afterAll(async () => {
  await Promise.all(servers.map(stop));
  removeDir(root);
  removeDir(home);
});

async function serve(transport: NetworkTransport): Promise<NetworkServer> {
  const server = await startNetworkServer(transport, ['--repo', root], { SIGHTLINE_HOME: home });
  servers.push(server);
  return server;
}

function post(server: NetworkServer, body: string, path?: string) {
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return rawRequest(server.url, { method: 'POST', path, headers, body });
}

async function errorOf(answer: Awaited<ReturnType<typeof post>>) {
  return JSON.parse(await answer.body).error as { code: number; message: string };
}

describe('HTTP bodies are bounded before they are parsed', () => {
  it('streamable HTTP: 400 with a parse error for deep nesting, 413 past 4 MiB, and the server goes on', async () => {
    const server = await serve('http');
    const deep = await post(server, DEEP);
    expect(deep.status).toBe(400);
    expect(await errorOf(deep)).toEqual({ code: -32700, message: 'parse error: arrays and objects may nest at most 64 deep' });

    const big = await post(server, OVERSIZED);
    expect(big.status).toBe(413);
    expect((await errorOf(big)).message).toBe('a request body may have at most 4194304 bytes: send smaller arguments');

    const garbled = await post(server, '{"jsonrpc": "2.0", ');
    expect(garbled.status).toBe(400);
    expect((await errorOf(garbled)).code).toBe(-32700);

    const init = await post(server, BRACKETS_IN_STRINGS);
    expect(init.status, await init.body).toBe(200);
    const conn = await connectNetwork(server);
    expect((await call(conn.client, 'read', { target: 'README.md' })).content).toContain('A tiny repository');
    await conn.close();
  });

  it('SSE: a deep body posted to a session is refused the same way, and the session still answers', async () => {
    const server = await serve('sse');
    const conn = await connectNetwork(server);
    const stream = await rawRequest(server.url, { headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' } });
    const sessionPath = (await stream.body).match(/data: (\/messages\?sessionId=[\w-]+)/)![1]!;
    const deep = await post(server, DEEP, sessionPath);
    expect(deep.status).toBe(400);
    expect((await errorOf(deep)).code).toBe(-32700);
    expect((await call(conn.client, 'read', { target: 'README.md' })).content).toContain('A tiny repository');
    await conn.close();
  });
});
