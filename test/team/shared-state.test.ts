/**
 * Two `serve` processes on one real PostgreSQL, each with its own local
 * index (as on two machines behind a load balancer): a budget session's
 * receipts and usage live in the team database, so a session's `context` on
 * B is not re-sent what A delivered, and `stats` on either sums both.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { connectAgent, startTeamServer, tool, type TeamServer } from '../helpers/team-cluster.js';

const db = usePostgres();
const dirs: string[] = [];
const servers: TeamServer[] = [];
const clients: Client[] = [];
let onA: Client;
let onB: Client;

const FILES = {
  'src/parse.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n',
  'src/load.ts': "import { parseConfig } from './parse';\nexport function loadConfig(path: string) {\n  return parseConfig(path);\n}\n",
};
const TASK = { task: 'change how parseConfig parses the config text', budget_tokens: 4000 };

beforeAll(async () => {
  const repo = makeRepo(FILES);
  dirs.push(repo);
  const start = () => {
    const home = tempDir('sightline-home-');
    dirs.push(home);
    return startTeamServer({ cli: CLI, repo, home, store: db.url });
  };
  servers.push(...(await Promise.all([start(), start()])));
  [onA, onB] = await Promise.all(servers.map((s, i) => connectAgent(s, `agent-${i}`)));
  clients.push(onA, onB);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  for (const s of servers) s.proc.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  for (const d of dirs) removeDir(d);
});

const paths = (answer: Record<string, any>) => (answer.entries as { path: string }[]).map((e) => e.path).sort();

it('a session is not re-sent on server B what it was sent on server A; another session is', async () => {
  const first = await tool(onA, 'context', { ...TASK, session: 'shared-1' });
  expect(first.error).toBeUndefined();
  expect(paths(first)).toContain('src/parse.ts');

  const again = await tool(onB, 'context', { ...TASK, session: 'shared-1' });
  expect(again.error).toBeUndefined();
  expect(paths(again)).not.toContain('src/parse.ts');
  expect((again.reused as { path: string }[]).map((r) => r.path)).toContain('src/parse.ts');

  const other = await tool(onB, 'context', { ...TASK, session: 'shared-2' });
  expect(paths(other)).toContain('src/parse.ts');
});

it('usage adds up across servers: stats on either counts the calls both answered', async () => {
  const before = (await tool(onA, 'stats', {})).usage;
  await tool(onB, 'context', { ...TASK, session: 'shared-3' });
  await tool(onA, 'context', { ...TASK, session: 'shared-4' });
  const afterOnB = (await tool(onB, 'stats', {})).usage;
  expect(afterOnB.tools.context.calls).toBe(before.tools.context.calls + 2);
  // The stats call on A was recorded before its answer left, so B counts it too.
  expect(afterOnB.tools.stats.calls).toBe((before.tools.stats?.calls ?? 0) + 1);
  expect(afterOnB.response_tokens).toBeGreaterThan(before.response_tokens);
});
