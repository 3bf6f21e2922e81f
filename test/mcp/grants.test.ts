/**
 * Caller grants over Streamable HTTP with real SDK clients: a tokens file
 * names three callers; tools are advertised per caller, every call is checked
 * again, a read grant never gets a write's effect, a repository without a
 * grant does not exist for the caller, and an unknown token gets 401.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { until } from '../workspace/helpers.js';
import { call, callError, connectNetwork, INITIALIZE, rawRequest, startNetworkServer, stop, type Connected, type NetworkServer } from './harness.js';

const TOKENS = {
  owner: 'owner-token-0123456789abcdef',
  reader: 'reader-token-0123456789abcdef',
  narrow: 'narrow-token-0123456789abcdef',
};

describe('callers and grants (--tokens)', () => {
  let root: string;
  let home: string;
  let server: NetworkServer;
  const clients: Partial<Record<keyof typeof TOKENS, Connected>> = {};
  const as = (who: keyof typeof TOKENS) => clients[who]!.client;

  beforeAll(async () => {
    root = makeRepo({ 'api/pay.ts': 'export function chargeCard() { return 1; }\n', 'web/view.ts': 'export function drawPage() { return 2; }\n' });
    home = tempDir('sightline-home-');
    const file = path.join(home, 'tokens.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        callers: [
          { name: 'owner', token: TOKENS.owner, grants: { '*': 'write' } },
          { name: 'reader', token: TOKENS.reader, grants: { '*': 'read' } },
          { name: 'narrow', token: TOKENS.narrow, grants: { api: 'write', web: 'read' } },
        ],
      }),
      { mode: 0o600 },
    );
    server = await startNetworkServer('http', ['--workspace', root, '--enable-writes', '--tokens', file], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
    for (const who of Object.keys(TOKENS) as (keyof typeof TOKENS)[]) clients[who] = await connectNetwork({ ...server, token: TOKENS[who] });
    await call(as('owner'), 'add_repo', { path: 'api' });
    await call(as('owner'), 'add_repo', { path: 'web' });
    for (const repo of ['api', 'web']) {
      await until(async () => ((await call(as('owner'), 'index_status', { repo })).job.status === 'completed' ? true : undefined), `${repo} indexed`);
    }
  });

  afterAll(async () => {
    for (const c of Object.values(clients)) await c?.close();
    if (server) await stop(server);
    removeDir(root);
    removeDir(home);
  });

  it('an unknown token gets 401; the banner names the tokens file, never a token', async () => {
    for (const authorization of ['Bearer not-a-known-token-at-all', '', `Bearer ${TOKENS.reader}x`]) {
      const r = await rawRequest(server.url, { method: 'POST', headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INITIALIZE });
      expect(r.status, authorization).toBe(401);
    }
    expect(server.stderr()).toMatch(/bearer token of their caller in .*tokens\.json/);
    for (const token of Object.values(TOKENS)) expect(server.stderr()).not.toContain(token);
  });

  it('advertises the mutating tools only to callers who may write somewhere', async () => {
    const names = async (who: keyof typeof TOKENS) => (await as(who).listTools()).tools.map((t) => t.name);
    for (const who of ['owner', 'narrow'] as const) expect(await names(who)).toEqual(expect.arrayContaining(['add_repo', 'remember', 'index', 'list_repos', 'search']));
    const reader = await names('reader');
    expect(reader).toEqual(expect.arrayContaining(['list_repos', 'search', 'recall', 'health']));
    for (const tool of ['add_repo', 'remove_repo', 'reset_index', 'remember', 'update', 'forget', 'claim', 'index']) expect(reader).not.toContain(tool);
  });

  it('a read grant calling a write tool gets a named refusal and never its effect', async () => {
    expect(await callError(as('reader'), 'remember', { repo: 'api', topic: 'ops', id: 'x', title: 'should not land' })).toMatch(/remember .*caller reader holds read grants only/);
    expect(await callError(as('reader'), 'remove_repo', { repo: 'web' })).toMatch(/remove_repo .*caller reader holds read grants only/);
    expect((await call(as('owner'), 'recall', { repo: 'api', key: 'memory:ops/x' })).exists).toBe(false);
    expect((await call(as('owner'), 'list_repos')).count).toBe(2);
  });

  it('grants are per repository: write on one, read on another', async () => {
    expect((await call(as('narrow'), 'remember', { repo: 'api', topic: 'ops', id: 'ok', title: 'lands' })).created).toBe(true);
    expect(await callError(as('narrow'), 'remember', { repo: 'web', topic: 'ops', id: 'no', title: 'refused' })).toMatch(/remember changes repository web, and caller narrow holds a read grant on it/);
    expect(await callError(as('narrow'), 'reset_index', { repo: 'web' })).toMatch(/caller narrow holds a read grant/);
    expect((await call(as('owner'), 'recall', { repo: 'web', key: 'memory:ops/no' })).exists).toBe(false);
    expect((await call(as('narrow'), 'search', { repo: 'web', query: 'drawPage' })).results[0].path).toBe('view.ts');
  });

  it('a caller without a grant on a repository cannot read it, nor learn it is there', async () => {
    const file = path.join(home, 'tokens-2.json');
    fs.writeFileSync(file, JSON.stringify({ callers: [{ name: 'apionly', token: 'apionly-token-0123456789', grants: { api: 'read' } }] }), { mode: 0o600 });
    const second = await startNetworkServer('http', ['--workspace', root, '--tokens', file], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
    const conn = await connectNetwork({ ...second, token: 'apionly-token-0123456789' });
    try {
      expect((await call(conn.client, 'list_repos')).repos.map((r: { id: string }) => r.id)).toEqual(['api']);
      // With one repository visible, repo may be left out, and it is that one.
      expect((await call(conn.client, 'search', { query: 'chargeCard' })).results[0].path).toBe('pay.ts');
      const refused = await callError(conn.client, 'search', { repo: 'web', query: 'drawPage' });
      expect(refused).toMatch(/no repository "web".*its repositories: api$/);
      expect((await call(conn.client, 'health')).repos.map((r: { id: string }) => r.id)).toEqual(['api']);
    } finally {
      await conn.close();
      await stop(second);
    }
  });

  it('a session stays its opener\'s: another caller\'s token on it is refused', async () => {
    const opened = await rawRequest(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    const session = String(opened.headers['mcp-session-id']);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const hijack = await rawRequest(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.reader}`, 'mcp-session-id': session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: list,
    });
    expect(hijack.status).toBe(403);
  });
});

describe('a tokens file is checked whole before serving', () => {
  it('refuses a short token, a bad grant, a shared token, and --tokens on stdio, each with exit 2', async () => {
    const dir = tempDir('sightline-tokens-');
    try {
      const cases: [unknown, RegExp][] = [
        [{ callers: [{ name: 'a', token: 'short', grants: { '*': 'read' } }] }, /at least 16 characters/],
        [{ callers: [{ name: 'a', token: 'a-long-enough-token-1', grants: { '*': 'admin' } }] }, /"read" or "write"/],
        [{ callers: [{ name: 'a', token: 'a-long-enough-token-1', grants: {} }] }, /at least one grant/],
        [{ callers: [{ name: 'a', token: 'a-long-enough-token-1', grants: { '*': 'read' } }, { name: 'b', token: 'a-long-enough-token-1', grants: { '*': 'read' } }] }, /share one token/],
        [{ tokens: {} }, /refused/],
      ];
      for (const [content, message] of cases) {
        const file = path.join(dir, 'tokens.json');
        fs.writeFileSync(file, JSON.stringify(content));
        const r = runCli(['serve', '--transport', 'http', '--port', '0', '--repo', dir, '--tokens', file], { SIGHTLINE_HOME: dir });
        expect(r.code, JSON.stringify(content)).toBe(2);
        expect(r.stderr).toMatch(message);
      }
      const stdio = runCli(['serve', '--repo', dir, '--tokens', path.join(dir, 'tokens.json')], { SIGHTLINE_HOME: dir });
      expect(stdio.code).toBe(2);
      expect(stdio.stderr).toMatch(/--tokens names the callers of http and sse/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('the dashboard under a tokens file', () => {
  it('signs in a caller granted the served repository, and refuses one granted only another', async () => {
    const root = makeRepo({ 'src/pay.ts': 'export function chargeCard() { return 1; }\n' });
    const home = tempDir('sightline-home-');
    const file = path.join(home, 'tokens.json');
    const id = path.basename(root).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '');
    fs.writeFileSync(
      file,
      JSON.stringify({ callers: [{ name: 'mine', token: TOKENS.owner, grants: { [id]: 'read' } }, { name: 'elsewhere', token: TOKENS.narrow, grants: { 'another-repo': 'write' } }] }),
      { mode: 0o600 },
    );
    const server = await startNetworkServer('http', ['--repo', root, '--tokens', file], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
    try {
      const signIn = (token: string) =>
        fetch(new URL('/api/session', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) }).then((r) => r.status);
      expect(await signIn(TOKENS.owner)).toBe(200);
      expect(await signIn(TOKENS.narrow)).toBe(401);
      expect(await signIn('not-a-known-token-at-all')).toBe(401);
    } finally {
      await stop(server);
      removeDir(root);
      removeDir(home);
    }
  });
});
