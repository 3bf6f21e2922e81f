/**
 * The network transports' rules, from outside: every request needs the token
 * (401), a foreign Origin is refused (403), a Host that does not name the
 * server is refused (421), and binding beyond loopback needs --allow-remote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRepo } from '../helpers/fixture.js';
import { ENDPOINT, INITIALIZE, rawRequest, spawnCli, startNetworkServer, stop, type NetworkServer, type NetworkTransport } from './harness.js';

const sample = useRepo();

/** The request a client opens each transport with: initialize over http, the event stream over sse. */
function opening(transport: NetworkTransport, headers: Record<string, string>) {
  return transport === 'http'
    ? { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: INITIALIZE }
    : { method: 'GET', headers: { accept: 'text/event-stream', ...headers } };
}

describe.each<NetworkTransport>(['http', 'sse'])('security over %s', (transport) => {
  let server: NetworkServer;
  let logFile: string;
  beforeAll(async () => {
    logFile = path.join(sample.home, `${transport}.log`);
    server = await startNetworkServer(transport, ['--repo', sample.root, '--access-log', '--log-file', logFile], { SIGHTLINE_HOME: sample.home });
  });
  afterAll(() => stop(server));

  const send = (headers: Record<string, string>) => rawRequest(server.url, opening(transport, { host: server.url.host, ...headers }));
  const bearer = () => ({ authorization: `Bearer ${server.token}` });

  it('mints a 43-character token, prints it on stderr with the header to send (http: and in the dashboard URL), never on stdout', () => {
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.stderr().split(server.token)).toHaveLength(transport === 'http' ? 3 : 2);
    expect(server.stderr()).toContain(`Authorization: Bearer ${server.token}`);
    if (transport === 'http') expect(server.stderr()).toContain(`/#token=${server.token}`);
    expect(server.stdout()).toBe('');
  });

  it('accepts the right token', async () => {
    expect((await send(bearer())).status).toBe(200);
  });

  it('401 without a token or with a wrong one', async () => {
    const none = await send({});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(await none.body).toContain('Authorization: Bearer');
    expect((await send({ authorization: `Bearer ${server.token.slice(0, -1)}x` })).status).toBe(401);
    expect((await send({ authorization: `Basic ${server.token}` })).status).toBe(401);
    expect((await send({ authorization: `Bearer ${server.token}${server.token}` })).status).toBe(401);
  });

  it('403 for an Origin that is neither this server nor loopback', async () => {
    expect((await send({ ...bearer(), origin: 'https://evil.example' })).status).toBe(403);
    expect((await send({ ...bearer(), origin: 'null' })).status).toBe(403);
    expect((await send({ ...bearer(), origin: `http://localhost:${server.url.port}` })).status).toBe(200);
    expect((await send({ ...bearer(), origin: 'http://127.0.0.1:3000' })).status).toBe(200);
  });

  it('421 for a Host that does not name this server (DNS rebinding)', async () => {
    expect((await send({ ...bearer(), host: `evil.example:${server.url.port}` })).status).toBe(421);
    expect((await send({ ...bearer(), host: `127.0.0.1.nip.io:${server.url.port}` })).status).toBe(421);
    expect((await send({ ...bearer(), host: `localhost:${server.url.port}` })).status).toBe(200);
    // Checked before the token: a rebinding page learns nothing about auth.
    expect((await send({ host: 'evil.example' })).status).toBe(421);
  });

  it('404 for other paths, still behind the token', async () => {
    expect((await rawRequest(server.url, { path: '/other', headers: { host: server.url.host } })).status).toBe(401);
    expect((await rawRequest(server.url, { path: '/other', headers: { host: server.url.host, ...bearer() } })).status).toBe(404);
  });

  it('--access-log writes one line per request on stderr: client, request line, status', async () => {
    await rawRequest(server.url, { path: '/probe?x=1', headers: { host: server.url.host } });
    await new Promise((r) => setTimeout(r, 100));
    expect(server.stderr()).toMatch(/^127\.0\.0\.1 "GET \/probe\?x=1 HTTP\/1\.1" 401$/m);
    expect(server.stderr()).toMatch(new RegExp(`^127\\.0\\.0\\.1 "(POST|GET) ${ENDPOINT[transport]} HTTP/1\\.1" 200$`, 'm'));
  });

  it('keeps the token out of the log file', () => {
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain(server.token);
  });
});

describe('the token', () => {
  it('SIGHTLINE_MCP_TOKEN pins it, and is not echoed', async () => {
    const pinned = 'a-pinned-token-long-enough-for-a-test-0123';
    const server = await startNetworkServer('http', ['--repo', sample.root], { SIGHTLINE_HOME: sample.home, SIGHTLINE_MCP_TOKEN: pinned });
    try {
      expect(server.stderr()).not.toContain(pinned);
      expect((await rawRequest(server.url, opening('http', { host: server.url.host, authorization: `Bearer ${pinned}` }))).status).toBe(200);
      expect((await rawRequest(server.url, opening('http', { host: server.url.host }))).status).toBe(401);
    } finally {
      await stop(server);
    }
  });

  it.each(['', '   ', '\t'])('a blank SIGHTLINE_MCP_TOKEN (%j) mints a fresh one and never turns auth off', async (blank) => {
    const server = await startNetworkServer('http', ['--repo', sample.root], { SIGHTLINE_HOME: sample.home, SIGHTLINE_MCP_TOKEN: blank });
    try {
      expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await rawRequest(server.url, opening('http', { host: server.url.host }))).status).toBe(401);
      expect((await rawRequest(server.url, opening('http', { host: server.url.host, authorization: 'Bearer ' }))).status).toBe(401);
      expect((await rawRequest(server.url, opening('http', { host: server.url.host, authorization: `Bearer ${server.token}` }))).status).toBe(200);
    } finally {
      await stop(server);
    }
  });

  it('is fresh at every start', async () => {
    const a = await startNetworkServer('sse', ['--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    const b = await startNetworkServer('sse', ['--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    await Promise.all([stop(a), stop(b)]);
    expect(a.token).not.toBe(b.token);
  });
});

describe('binding beyond loopback', () => {
  it.each<NetworkTransport>(['http', 'sse'])('%s: --host 0.0.0.0 without --allow-remote exits 2 (usage) and says why', async (transport) => {
    const child = spawnCli(['serve', '--transport', transport, '--host', '0.0.0.0', '--port', '0', '--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    expect((await child.exited).code).toBe(2);
    expect(child.stderr()).toContain('--allow-remote');
  });

  it('--allow-remote binds, warns, and still answers only loopback Host names on a wildcard bind', async () => {
    const server = await startNetworkServer('http', ['--host', '0.0.0.0', '--allow-remote', '--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    try {
      expect(server.stderr()).toMatch(/warning: listening on 0\.0\.0\.0/);
      const url = new URL(`http://127.0.0.1:${server.url.port}/mcp`);
      const auth = { authorization: `Bearer ${server.token}` };
      expect((await rawRequest(url, opening('http', { host: url.host, ...auth }))).status).toBe(200);
      expect((await rawRequest(url, opening('http', { host: `0.0.0.0:${url.port}`, ...auth }))).status).toBe(421);
    } finally {
      await stop(server);
    }
  });

  it.each(['127.0.0.1', 'localhost', '::1'])('--host %s needs no flag', async (host) => {
    const server = await startNetworkServer('http', ['--host', host, '--repo', sample.root], { SIGHTLINE_HOME: sample.home });
    await stop(server);
    expect(server.stderr()).not.toContain('warning');
  });
});
