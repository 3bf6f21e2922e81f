/**
 * Issue 21, transport limits: HTTP sessions used to live for good (1,000
 * opened and closed left RSS 10 % higher). Now an idle session expires, a
 * cap answers 503 with what to do, and the server's session count returns to
 * zero after many are opened and closed, and what a closed session held
 * (its server, transport, budget rows) is let go. Real server, real SDK clients.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, INITIALIZE, rawRequest, startNetworkServer, stop, type NetworkServer } from '../mcp/harness.js';

const MAX = 5;
/**
 * Long enough that a session used a moment ago is still open when the test counts it, even on a
 * loaded machine (1.5 s failed here once at load 20).
 */
const IDLE_MS = 4_000;
let root: string;
let home: string;
const servers: NetworkServer[] = [];

beforeAll(() => {
  root = makeRepo(SAMPLE_FILES);
  home = tempDir('sightline-home-');
});
afterAll(async () => {
  for (const s of servers) await stop(s);
  removeDir(root);
  removeDir(home);
});

async function serve(transport: 'http' | 'sse'): Promise<NetworkServer> {
  const env = { SIGHTLINE_HOME: home, SIGHTLINE_MAX_CLIENT_SESSIONS: String(MAX), SIGHTLINE_CLIENT_SESSION_IDLE_MS: String(IDLE_MS) };
  const server = await startNetworkServer(transport, ['--repo', root, '--no-watch'], env);
  servers.push(server);
  return server;
}

async function open(server: NetworkServer): Promise<{ client: Client; transport: StreamableHTTPClientTransport | SSEClientTransport }> {
  const requestInit = { headers: { Authorization: `Bearer ${server.token}` } };
  const transport = server.url.pathname === '/sse' ? new SSEClientTransport(server.url, { requestInit }) : new StreamableHTTPClientTransport(server.url, { requestInit });
  const client = new Client({ name: 'churn', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

/** Closes a session the way a polite client does: DELETE for Streamable HTTP, hanging up the stream for SSE. */
async function close(session: Awaited<ReturnType<typeof open>>): Promise<void> {
  if (session.transport instanceof StreamableHTTPClientTransport) await session.transport.terminateSession();
  await session.client.close();
}

const openSessions = async (client: Client) => (await call(client, 'health')).server.open_sessions as number;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Streamable HTTP sessions', () => {
  it('are capped with a clear 503, come back to zero after churn, and expire when idle', async () => {
    const server = await serve('http');
    const held = await Promise.all(Array.from({ length: MAX }, () => open(server)));
    expect(await openSessions(held[0]!.client)).toBe(MAX);
    const refused = await rawRequest(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    expect(refused.status, `${await refused.body}\n${server.stderr()}`).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(await refused.body).error.message).toMatch(/limit of 5 client sessions; close one you are done with, or retry once idle ones expire/);
    for (const s of held) await close(s);

    // Churn: many sessions opened, used and closed, a few at a time.
    for (let round = 0; round < 40; round++) {
      const batch = await Promise.all(Array.from({ length: MAX }, () => open(server)));
      await Promise.all(batch.map((s) => s.client.listTools()));
      for (const s of batch) await close(s);
    }
    const probe = await open(server);
    expect(await openSessions(probe.client)).toBe(1); // only the one asking
    await close(probe);

    // Abandoned sessions (never closed) expire once idle.
    const abandoned = await Promise.all(Array.from({ length: 3 }, () => open(server)));
    await Promise.all(abandoned.map((s) => s.client.listTools()));
    const watcher = await open(server);
    expect(await openSessions(watcher.client)).toBe(4);
    await until('the idle sessions to expire', async () => (await openSessions(watcher.client)) === 1);
    const expired = await abandoned[0]!.client.listTools().then(
      () => 'answered',
      (err: Error) => err.message,
    );
    expect(expired).toMatch(/404|unknown or expired session/);
    await close(watcher);
  }, 120_000);
});

/**
 * The server's live heap after a forced collection, read through a preload
 * that Node starts with --expose-gc: on SIGUSR2 it collects and appends
 * heapUsed to a file. No timing, only what stays reachable.
 */
async function heapProbe(dir: string): Promise<{ env: Record<string, string>; read: (server: NetworkServer) => Promise<number> }> {
  const script = path.join(dir, 'heap-probe.mjs');
  const out = path.join(dir, 'heap.txt');
  fs.writeFileSync(
    script,
    "import fs from 'node:fs';\nprocess.on('SIGUSR2', () => { for (let i = 0; i < 3; i++) globalThis.gc(); fs.appendFileSync(process.env.HEAP_PROBE_FILE, process.memoryUsage().heapUsed + '\\n'); });\n",
  );
  const lines = () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
  return {
    env: { NODE_OPTIONS: `--expose-gc --import ${script}`, HEAP_PROBE_FILE: out },
    read: async (server) => {
      const before = lines().length;
      server.proc.kill('SIGUSR2');
      await until('the heap probe', async () => lines().length > before);
      return lines().at(-1)!;
    },
  };
}

/** Budget-session rows in the one index under `home`. */
function budgetSessions(home: string): number {
  const dir = fs.readdirSync(home).find((d) => fs.existsSync(path.join(home, d, 'index.db')))!;
  const db = new Database(path.join(home, dir, 'index.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM budget_sessions').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('session memory', () => {
  it('comes back when sessions close: the live heap does not grow per session', async () => {
    const dir = tempDir('sightline-heap-');
    try {
      const probe = await heapProbe(dir);
      const server = await startNetworkServer('http', ['--repo', root, '--no-watch'], { SIGHTLINE_HOME: path.join(dir, 'home'), SIGHTLINE_EMBEDDER: 'none', ...probe.env });
      servers.push(server);
      // Each session initializes, asks (a search through the gate and the read pool, or a tool list), and is closed.
      const churn = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const s = await open(server);
          if (i % 2) await s.client.listTools();
          else await s.client.callTool({ name: 'search', arguments: { query: 'session' } });
          await close(s);
        }
      };
      await churn(100); // warm: compiled code, caches, the pool's workers
      const start = await probe.read(server);
      const SESSIONS = 300;
      await churn(SESSIONS);
      const end = await probe.read(server);
      // A session's McpServer, transport and tool registrations are tens of kilobytes; this bound catches one kept.
      expect((end - start) / SESSIONS).toBeLessThan(8_192);
      const last = await open(server);
      expect(await openSessions(last.client)).toBe(1);
      await close(last);
      // What the sessions kept in the index (refusal counts, receipts) went with them.
      expect(budgetSessions(path.join(dir, 'home'))).toBe(0);
    } finally {
      removeDir(dir);
    }
  }, 300_000);
});

describe('SSE sessions', () => {
  /** A raw event stream held open, never posted to: resolves `ended` when the server ends it. */
  function holdStream(server: NetworkServer): Promise<{ status: number; ended: Promise<void> }> {
    return new Promise((resolve, reject) => {
      const req = http.get({ host: server.url.hostname, port: server.url.port, path: '/sse', headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, ended: new Promise((done) => res.once('close', () => done())) });
      });
      req.on('error', reject);
    });
  }

  it('are capped and expire when idle, their streams ended', async () => {
    const server = await serve('sse');
    const held = await Promise.all(Array.from({ length: MAX }, () => holdStream(server)));
    expect(held.map((h) => h.status)).toEqual(Array(MAX).fill(200));
    const refused = await rawRequest(server.url, { headers: { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    await Promise.all(held.map((h) => h.ended)); // the test's timeout is the hang guard
    const fresh = await open(server);
    expect(await openSessions(fresh.client)).toBe(1);
    await close(fresh);
  });
});
