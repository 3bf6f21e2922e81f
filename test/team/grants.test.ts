/**
 * Callers from the team database: `sightline team grant` makes a caller
 * (its token printed once, only its SHA-256 kept), `serve --store` without
 * --tokens authenticates by it, a read grant is refused a write tool by
 * name, and `team revoke` shuts the token out without a restart.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { startTeamServer, tool, type TeamServer } from '../helpers/team-cluster.js';
import { until } from '../workspace/helpers.js';

const db = usePostgres();
const dirs: string[] = [];
const clients: Client[] = [];
let server: TeamServer;

beforeAll(async () => {
  const repo = makeRepo({ 'src/a.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n' });
  const home = tempDir('sightline-home-');
  dirs.push(repo, home);
  server = await startTeamServer({ cli: CLI, repo, home, store: db.url });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  server?.proc.kill('SIGKILL');
  await server?.exited;
  dirs.forEach(removeDir);
});

const team = (...args: string[]) => {
  const r = runCli(['team', ...args, '--json'], { SIGHTLINE_DATABASE_URL: db.url });
  return { code: r.code, answer: JSON.parse(r.stdout || '{}') as Record<string, any>, stdout: r.stdout, stderr: r.stderr };
};

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'reader', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

/** The HTTP status an MCP initialize request with this token gets. */
async function statusFor(token: string): Promise<number> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });
  await res.body?.cancel();
  return res.status;
}

it('grant makes a caller whose token works; a read grant is refused a write tool by name; list never shows a token', async () => {
  const made = team('grant', '--caller', 'reader', '--repo', '*', '--access', 'read');
  expect(made.code).toBe(0);
  expect(made.answer).toMatchObject({ status: 'ok', caller: 'reader', repo: '*', access: 'read', created: true });
  const token = made.answer.token as string;
  expect(token.length).toBeGreaterThanOrEqual(32);

  const listed = team('list');
  expect(listed.answer.callers).toContainEqual({ name: 'reader', grants: { '*': 'read' } });
  expect(listed.stdout).not.toContain(token);

  // Granted after the server started: it is read within the reload interval.
  const reader = await until(() => connect(token).catch(() => undefined), 'the new caller to be accepted', 20_000);
  const found = await tool(reader, 'search', { query: 'parseConfig' });
  expect(found.error).toBeUndefined();
  const refused = await tool(reader, 'remember', { topic: 'notes', id: 'n1', body: 'x' });
  expect(refused.error).toMatch(/remember/);
  expect(refused.error).toMatch(/caller reader holds read grants only/);
  const { tools } = await reader.listTools();
  expect(tools.map((t) => t.name)).not.toContain('remember');

  // Granting more to a caller that exists keeps its token.
  const again = team('grant', '--caller', 'reader', '--repo', 'other', '--access', 'write');
  expect(again.answer).toMatchObject({ created: false });
  expect(again.answer.token).toBeUndefined();
  expect(team('revoke', '--caller', 'reader', '--repo', 'other').answer).toMatchObject({ revoked: 1, caller_removed: false });

  expect(await statusFor('not-a-caller-token-at-all')).toBe(401);
  expect(await statusFor(token)).not.toBe(401);

  const revoked = team('revoke', '--caller', 'reader');
  expect(revoked.answer).toMatchObject({ status: 'ok', caller: 'reader', caller_removed: true });
  await until(async () => ((await statusFor(token)) === 401 ? true : undefined), 'the revoked token to get 401', 20_000);
  // The session it opened before is shut out too: every request is authenticated again.
  await expect(reader.callTool({ name: 'search', arguments: { query: 'parseConfig' } })).rejects.toThrow(/your caller's, from --tokens or `sightline team grant`/);
  expect(team('list').answer.callers.map((c: { name: string }) => c.name)).not.toContain('reader');
});

it('the team verbs refuse bad input by name and need a store', () => {
  expect(team('grant', '--caller', 'bad name', '--repo', '*', '--access', 'read')).toMatchObject({ code: 2 });
  expect(team('grant', '--caller', 'x', '--repo', '../up', '--access', 'read').answer.error).toMatch(/repository id or "\*"/);
  expect(team('revoke', '--caller', 'nobody-here').answer.error).toMatch(/knows no caller nobody-here/);
  const bare = runCli(['team', 'list'], {});
  expect(bare.code).toBe(2);
  expect(bare.stderr).toMatch(/--store postgres/);
});
