/** The memory tools over a real MCP server (stdio, SDK client) and the CLI verbs that mirror them. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callError, connectStdio, type Connected } from '../mcp/harness.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

let root: string;
let home: string;
let conn: Connected;
let readOnly: Connected;

beforeAll(async () => {
  root = makeRepo({ 'src/a.ts': 'export function parse(s: string) {\n  return s.trim();\n}\n' });
  home = tempDir('sightline-home-');
  conn = await connectStdio(['--repo', root, '--enable-writes', '--embedder', 'none'], { SIGHTLINE_HOME: home });
  readOnly = await connectStdio(['--repo', root, '--embedder', 'none'], { SIGHTLINE_HOME: home });
});
afterAll(async () => {
  await conn?.close();
  await readOnly?.close();
  removeDir(root);
  removeDir(home);
});

it('writes are offered only with --enable-writes; reads always', async () => {
  const names = (c: Connected) => c.client.listTools().then((r) => r.tools.map((t) => t.name));
  const writes = ['remember', 'update', 'forget', 'claim', 'renew_claim', 'release_claim'];
  const reads = ['recall', 'list_topics', 'neighbors', 'scan', 'claim_status'];
  expect(await names(conn)).toEqual(expect.arrayContaining([...writes, ...reads]));
  const offered = await names(readOnly);
  expect(offered).toEqual(expect.arrayContaining(reads));
  for (const w of writes) expect(offered).not.toContain(w);
});

it('remember, claim, a fenced update and recall over MCP, with citation_status on code links', async () => {
  const made = await call(conn.client, 'remember', { topic: 'backlog', id: 'i1', body: 'todo', add_links: { about: ['symbol:src/a.ts#parse'] } });
  expect(made).toMatchObject({ status: 'ok', key: 'memory:backlog/i1', created: true });
  const got = await call(conn.client, 'claim', { key: made.key, owner: 'agent-1' });
  expect(got).toMatchObject({ granted: true, lease_seconds: 30 });
  expect(await callError(conn.client, 'update', { key: made.key, fields: { body: 'done' } })).toMatch(/^ClaimRequired:/);
  expect(await callError(conn.client, 'update', { key: made.key, fields: { body: 'done' }, fencing_token: got.fencing_token + 5 })).toMatch(/^UnissuedToken:/);
  await call(conn.client, 'update', { key: made.key, fields: { body: 'done' }, fencing_token: got.fencing_token });
  const r = await call(conn.client, 'recall', { key: made.key });
  expect(r).toMatchObject({ exists: true, fields: { body: 'done' } });
  expect(r.links[0]).toMatchObject({ target: 'symbol:src/a.ts#parse', path: 'src/a.ts' });
  expect(['verified', 'unverifiable']).toContain(r.links[0].citation_status);
  expect(await call(conn.client, 'claim_status', { key: made.key })).toMatchObject({ claimed: true, owner: 'agent-1', authoritative: false });
  expect(await call(conn.client, 'list_topics')).toMatchObject({ topics: [{ topic: 'backlog', count: 1 }] });
});

it('refuses bad input by name', async () => {
  expect(await callError(conn.client, 'update', { key: 'memory:backlog/i1', fields: { colour: 'red' } })).toMatch(/the fields are title, body, author, provenance/);
  expect(await callError(conn.client, 'remember', { topic: 'x', kind: 'unspecified' })).toMatch(/not a memory kind/);
  expect(await callError(conn.client, 'remember', { topic: 'x', add_links: { about: ['file:../../etc/passwd'] } })).toMatch(/outside the repository/);
  expect(await callError(conn.client, 'scan', { scope: 'packages' })).toMatch(/scope/);
  expect(await callError(conn.client, 'recall', { key: 'memory:backlog/i1', maxtokens: 10 })).toMatch(/recall has no argument "maxtokens" \(did you mean "max_tokens"\?\)/);
});

it('the CLI mirrors the tools, and writes need --enable-writes', () => {
  const env = { SIGHTLINE_HOME: home };
  const refused = runCli(['remember', 'cli', '--body', 'x', '--repo', root, '--json'], env);
  expect(refused.code).toBe(2);
  expect(JSON.parse(refused.stdout).error).toMatch(/--enable-writes/);
  const made = runCli(['remember', 'cli', '--id', 'c1', '--body', 'hello, world', '--tag', 'a', '--repo', root, '--enable-writes', '--json'], env);
  expect(JSON.parse(made.stdout)).toMatchObject({ status: 'ok', key: 'memory:cli/c1' });
  const got = JSON.parse(runCli(['claim', 'memory:cli/c1', '--owner', 'me', '--repo', root, '--enable-writes', '--json'], env).stdout);
  const stale = runCli(['update', 'memory:cli/c1', '--field', 'body=x', '--repo', root, '--enable-writes', '--json'], env);
  expect(stale.code).toBe(5);
  expect(JSON.parse(stale.stdout).error).toMatch(/^ClaimRequired/);
  const released = runCli(['release-claim', 'memory:cli/c1', '--token', String(got.fencing_token), '--repo', root, '--enable-writes', '--json'], env);
  expect(JSON.parse(released.stdout)).toMatchObject({ released: true });
  const recalled = JSON.parse(runCli(['recall', 'memory:cli/c1', '--repo', root, '--json'], env).stdout);
  expect(recalled).toMatchObject({ fields: { body: 'hello, world' }, tags: ['a'] });
  expect(runCli(['claim', '--help'], env).stdout).toMatch(/Examples:/);
});
