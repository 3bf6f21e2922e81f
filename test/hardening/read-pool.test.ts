/**
 * Issue 21, throughput under load: search, locate, read, outline and
 * list_files of MCP sessions are answered by read-pool workers (each with a
 * read-only connection), while the main thread stays the one writer. What a
 * worker answers must be exactly what the main thread answers; an edit on
 * disk and an index pass must show in the next pooled answer; the gate's
 * refusal count must carry across workers; readWorkers 0 keeps every answer
 * on the main thread. Real servers over HTTP, real SDK clients.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { filesMentioning, KEYWORD_ONLY } from '../budget/helpers.js';
import { openIndexFiles } from './helpers.js';
import { call, callError, connectNetwork, startNetworkServer, stop, waitForIndex, type Connected, type NetworkServer } from '../mcp/harness.js';

const FILES = { ...SAMPLE_FILES, ...filesMentioning('lib/alpha', 20, 'widget'), ...filesMentioning('lib/beta', 10, 'widget') };

interface Served {
  server: NetworkServer;
  conn: Connected;
  home: string;
}

const roots: string[] = [];
const running: Served[] = [];

async function serve(root: string, workers: number, args: string[] = []): Promise<Served> {
  const home = tempDir('sightline-home-');
  const server = await startNetworkServer('http', ['--repo', root, '--no-watch', ...args], { SIGHTLINE_HOME: home, SIGHTLINE_READ_WORKERS: String(workers), ...KEYWORD_ONLY });
  const conn = await connectNetwork(server);
  await conn.client.callTool({ name: 'list_files', arguments: {} }); // --no-watch: the first read starts the first pass
  await waitForIndex(conn.client, 60_000);
  const served = { server, conn, home };
  running.push(served);
  return served;
}

async function shutDown(served: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  await served.conn.close();
  served.server.proc.kill('SIGTERM');
  const exit = await served.server.exited;
  removeDir(served.home);
  running.splice(running.indexOf(served), 1);
  return exit;
}

/** How many connections the server process holds to its index file: one for the writer, one per worker that answered. */
function indexConnections(served: Served): number {
  return openIndexFiles(served.server.proc.pid!, served.home).length;
}

/** The server process's threads (/proc): each read worker the pool starts is one more. */
function threads(served: { server: NetworkServer }): number {
  return Number(/^Threads:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${served.server.proc.pid}/status`, 'utf8'))![1]);
}

/** Resolves once `ready()` holds, checking every 20 ms for up to 10 s. */
async function waitUntil(ready: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !ready(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
  }
}

/** The same calls, with their raw answers (or error sentences), in order. */
async function answers(conn: Connected, calls: [string, Record<string, unknown>][]): Promise<string[]> {
  const out: string[] = [];
  for (const [name, args] of calls) {
    const r = await conn.client.callTool({ name, arguments: args });
    out.push(`${r.isError ? 'error ' : ''}${(r.content as { text: string }[])[0]!.text}`);
  }
  return out;
}

const QUESTIONS: [string, Record<string, unknown>][] = [
  ['search', { query: 'session manager' }],
  ['search', { query: 'hash the token', files: true }],
  ['search', { query: 'export (class|function) \\w+', regex: true, force: true }],
  ['search', { query: 'session', scope: 'src/**', k: 3 }],
  ['search', { query: 'widget' }],
  ['search', { query: 'widget', force: true, max_tokens: 300 }],
  ['search', { query: 'a(b', regex: true }],
  ['locate', { query: 'SessionManager' }],
  ['locate', { query: "a' OR \"b" }],
  ['read', { target: 'src/auth/session.ts' }],
  ['read', { target: 'SessionManager' }],
  ['read', { target: 'no/such/file.ts' }],
  ['outline', { path: 'src/auth/session.ts' }],
  ['outline', { path: '../outside.ts' }],
  ['list_files', {}],
  ['list_files', { glob: 'lib/**/*.ts', max_results: 4 }],
  ['list_files', { glob: '' }],
];

describe('the read pool', () => {
  let root: string;
  let pooled: Served;
  let inProcess: Served;

  beforeAll(async () => {
    root = makeRepo(FILES);
    roots.push(root);
    [pooled, inProcess] = await Promise.all([serve(root, 2, ['--enable-writes']), serve(root, 0)]);
  }, 120_000);
  afterAll(async () => {
    for (const s of [...running]) await stop(s.server);
    for (const r of roots) removeDir(r);
  });

  it('answers exactly what the main thread answers, refusals and errors included', async () => {
    expect((await call(pooled.conn.client, 'health')).server.read_workers).toBe(2);
    expect((await call(inProcess.conn.client, 'health')).server.read_workers).toBe(0);
    const [fromPool, fromMain] = await Promise.all([answers(pooled.conn, QUESTIONS), answers(inProcess.conn, QUESTIONS)]);
    expect(fromPool).toEqual(fromMain);
    const failed = QUESTIONS.filter((_, i) => fromPool[i]!.startsWith('error ')).map(([name, args]) => `${name} ${JSON.stringify(args)}`);
    expect(failed).toEqual(['search {"query":"a(b","regex":true}', 'read {"target":"no/such/file.ts"}', 'outline {"path":"../outside.ts"}', 'list_files {"glob":""}']);
    // The pooled answers came from workers' own connections; readWorkers 0 holds the writer's only.
    expect(indexConnections(pooled)).toBeGreaterThanOrEqual(2);
    expect(indexConnections(inProcess)).toBe(1);
  }, 120_000);

  it('spreads concurrent calls over both workers, each answering what it would alone', async () => {
    const alone = await answers(inProcess.conn, QUESTIONS);
    const together = await Promise.all(QUESTIONS.map(async ([name, args]) => (await answers(pooled.conn, [[name, args]]))[0]!));
    // One refusal count differs by order (widget is asked once in each list, but the session saw it before): compare the rest.
    const strip = (list: string[]) => list.map((a) => a.replace(/"refusal_count":\d+/, '"refusal_count":N'));
    expect(strip(together)).toEqual(strip(alone));
    expect(indexConnections(pooled)).toBe(3);
  }, 120_000);

  it('counts a session’s refusals across workers until the gate opens, as the main thread does', async () => {
    const run = async (served: Served) => {
      const conn = await connectNetwork(served.server); // a session of its own, starting at no refusals
      try {
        const seen: string[] = [];
        for (let round = 0; round < 4; round++) {
          // The broad search lands at a different place in each burst, so on a different worker.
          const burst: Promise<Record<string, any>>[] = [call(conn.client, 'outline', { path: 'src/auth/session.ts' }), call(conn.client, 'list_files', { max_results: 1 })];
          const broad = call(conn.client, 'search', { query: 'widget' });
          burst.splice(round % 3, 0, broad);
          await Promise.all(burst);
          const answer = await broad;
          seen.push(answer.status === 'refine' ? `refine ${answer.refusal_count}` : `${answer.status} ${answer.gate_note ? 'opened' : ''}`);
        }
        return seen;
      } finally {
        await conn.close();
      }
    };
    const [fromPool, fromMain] = await Promise.all([run(pooled), run(inProcess)]);
    expect(fromMain).toEqual(['refine 1', 'refine 2', 'refine 3', 'ok opened']);
    expect(fromPool).toEqual(fromMain);
  }, 120_000);

  it('counts concurrent refusals of one session on two workers once each: none goes uncounted', async () => {
    const conn = await connectNetwork(pooled.server); // a session of its own, starting at no refusals
    // Two broad searches at once land on the two idle workers; each counts its own refusal, in one step on the writer.
    const pair = async () => {
      const both = await Promise.all([call(conn.client, 'search', { query: 'widget' }), call(conn.client, 'search', { query: 'widget' })]);
      return both.map((a) => (a.status === 'refine' ? `refine ${a.refusal_count}` : a.gate_note?.startsWith('the gate opened') ? 'opened' : a.status)).sort();
    };
    try {
      expect(await pair()).toEqual(['refine 1', 'refine 2']);
      expect(await pair()).toEqual(['opened', 'refine 3']); // the third refusal, then the gate opens once
      expect(await pair()).toEqual(['refine 1', 'refine 2']); // a new run
    } finally {
      await conn.close();
    }
  });

  it('sees an edit on disk and a new index pass in the next pooled answer', async () => {
    const file = path.join(root, 'src/auth/session.ts');
    const before = await call(pooled.conn.client, 'read', { target: 'src/auth/session.ts' });
    fs.appendFileSync(file, '\nexport const FRESHLY_WRITTEN_MARKER = 1;\n');
    const after = await call(pooled.conn.client, 'read', { target: 'src/auth/session.ts' });
    expect(JSON.stringify(after)).toContain('FRESHLY_WRITTEN_MARKER');
    expect(JSON.stringify(before)).not.toContain('FRESHLY_WRITTEN_MARKER');
    // The read indexed the file again (on the main thread), so a search now finds the new name.
    const found = await call(pooled.conn.client, 'search', { query: 'FRESHLY_WRITTEN_MARKER', force: true });
    expect(found.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');

    fs.writeFileSync(path.join(root, 'src/added_by_pass.ts'), 'export function addedByThePass(): number {\n  return 42;\n}\n');
    expect((await call(pooled.conn.client, 'list_files', { glob: 'src/added_by_pass.ts' })).total).toBe(0);
    await call(pooled.conn.client, 'index', {});
    await waitForIndex(pooled.conn.client, 60_000);
    expect((await call(pooled.conn.client, 'list_files', { glob: 'src/added_by_pass.ts' })).total).toBe(1);
    const located = await call(pooled.conn.client, 'locate', { query: 'addedByThePass' });
    expect(JSON.stringify(located)).toContain('src/added_by_pass.ts');
  }, 120_000);

  it('starts workers on demand: none before a client begins a session, one as it does, the second when a question finds the first busy', async () => {
    const home = tempDir('sightline-home-');
    const server = await startNetworkServer('http', ['--repo', root, '--no-watch'], { SIGHTLINE_HOME: home, SIGHTLINE_READ_WORKERS: '2', ...KEYWORD_ONLY });
    const unused = threads({ server });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(threads({ server })).toBe(unused); // no client, no worker
    const served = { server, conn: await connectNetwork(server), home };
    running.push(served);
    expect((await call(served.conn.client, 'health')).server.read_workers).toBe(2); // what it may start
    // Started as the session began, before any question: the session's first search does not wait for it.
    await waitUntil(() => threads(served) > unused);
    const one = threads(served);
    await call(served.conn.client, 'list_files', {}); // the first read, and the first pass
    await waitForIndex(served.conn.client, 60_000);
    for (const [name, args] of QUESTIONS.slice(0, 5)) await served.conn.client.callTool({ name, arguments: args });
    expect(threads(served)).toBe(one);
    expect(indexConnections(served)).toBe(2); // the writer's and one worker's
    await Promise.all(QUESTIONS.map(([name, args]) => served.conn.client.callTool({ name, arguments: args })));
    expect(threads(served)).toBeGreaterThan(one);
    expect(indexConnections(served)).toBe(3);
    expect(await shutDown(served)).toEqual({ code: 143, signal: null });
  }, 120_000);

  it('exits cleanly after pooled calls: 143 on SIGTERM, the index closed', async () => {
    await Promise.all(Array.from({ length: 8 }, () => call(pooled.conn.client, 'search', { query: 'session manager' })));
    expect(await callError(pooled.conn.client, 'outline', { path: '../outside.ts' })).toMatch(/outside|escape|repository/);
    expect(await shutDown(pooled)).toEqual({ code: 143, signal: null });
    expect(await shutDown(inProcess)).toEqual({ code: 143, signal: null });
  });
});
