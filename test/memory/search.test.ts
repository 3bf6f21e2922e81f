/** Memory is searchable: a search that passes the gate, and a context bundle, carry the entries holding their words, within budget. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, connectStdio, type Connected } from '../mcp/harness.js';

let root: string;
let home: string;
let conn: Connected;

beforeAll(async () => {
  root = makeRepo({
    'src/session.ts': 'export function refreshToken(expiresAt: number) {\n  return expiresAt - 60;\n}\n',
    'src/other.ts': 'export const unrelated = 1;\n',
  });
  home = tempDir('sightline-home-');
  conn = await connectStdio(['--repo', root, '--enable-writes', '--embedder', 'none'], { SIGHTLINE_HOME: home });
  await call(conn.client, 'remember', { topic: 'auth', id: 'refresh', kind: 'decision', title: 'Refresh tokens a minute early', body: 'Clock skew made expiry races; refresh 60 s before expiresAt.' });
  await call(conn.client, 'remember', { topic: 'build', id: 'ci', title: 'CI runs on two cores', body: 'Keep the suite under six minutes.' });
});
afterAll(async () => {
  await conn?.close();
  removeDir(root);
  removeDir(home);
});

it('search answers carry the memory entries that hold the words, with reasons memory and topic', async () => {
  const r = await call(conn.client, 'search', { query: 'refresh token expiry', mode: 'keyword' });
  expect(r.status).toBe('ok');
  expect(r.results[0].path).toBe('src/session.ts');
  expect(r.memory).toEqual([expect.objectContaining({ key: 'memory:auth/refresh', kind: 'decision', title: 'Refresh tokens a minute early', reasons: ['memory', 'topic:auth'] })]);
  expect(r.tokens).toBe(r.results.reduce((s: number, x: { tokens: number }) => s + x.tokens, 0) + r.memory[0].tokens);
});

it('memory counts against max_tokens: what does not fit is counted, not sent', async () => {
  const plain = await call(conn.client, 'search', { query: 'refresh token expiry', mode: 'keyword' });
  const tight = await call(conn.client, 'search', { query: 'refresh token expiry', mode: 'keyword', max_tokens: plain.tokens - plain.memory[0].tokens });
  expect(tight.memory).toBeUndefined();
  expect(tight.memory_omitted).toBe(1);
  expect(tight.tokens).toBeLessThanOrEqual(plain.tokens - plain.memory[0].tokens);
});

it('a search with no remembered words carries none, and the CLI shows what was remembered', async () => {
  expect((await call(conn.client, 'search', { query: 'unrelated', mode: 'keyword' })).memory).toBeUndefined();
  const cli = runCli(['search', 'refresh token', '--repo', root, '--mode', 'keyword'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
  expect(cli.code, cli.stderr).toBe(0);
  expect(cli.stdout).toMatch(/remembered:\n\s+memory:auth\/refresh\s+Refresh tokens a minute early\s+\(decision\)/);
});

it('context bundles carry what was remembered within a share of the ceiling, and response_tokens counts it', async () => {
  const bundle = await call(conn.client, 'context', { task: 'refresh token expiry', budget_tokens: 2000 });
  expect(bundle.memory).toEqual([expect.objectContaining({ key: 'memory:auth/refresh', reasons: ['memory', 'topic:auth'] })]);
  expect(bundle.response_tokens).toBeLessThanOrEqual(2000);
  // At the smallest budget its share cannot hold the entry: the bundle is still within budget, without it.
  const small = await call(conn.client, 'context', { task: 'refresh token expiry', budget_tokens: 128 });
  expect(small.memory).toBeUndefined();
  expect(small.response_tokens).toBeLessThanOrEqual(128);
});
