/**
 * Two `serve --transport http` processes on one real PostgreSQL, each with
 * its own local index (as on two machines), and 8 agents — real MCP SDK
 * clients over Streamable HTTP, split across them — racing claims and writes
 * on one backlog of 200 items. Mid-run one server is killed with SIGKILL while
 * an agent of it holds a claim: that loses nothing but its lease.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { connectAgent, drain, itemKey, seedBacklog, startTeamServer, todoKeys, tool, type AgentEvent, type TeamServer } from '../helpers/team-cluster.js';

const db = usePostgres();
const ITEMS = 200;
const AGENTS_PER_SERVER = 4;
const LEASE_SECONDS = 2;
const dirs: string[] = [];
const servers: TeamServer[] = [];
const clients: Client[] = [];

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  for (const d of dirs) removeDir(d);
});

const waitFor = async (what: string, test: () => boolean) => {
  for (let i = 0; !test(); i++) {
    if (i > 1200) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

it('8 agents on 2 servers process every item exactly once, under one live token at a time, and a killed server loses only its lease', async () => {
  const repo = makeRepo({ 'src/a.ts': 'export function parse(s: string) {\n  return s.trim();\n}\n' });
  dirs.push(repo);
  const start = (storeByEnv: boolean) => {
    const home = tempDir('sightline-home-');
    dirs.push(home);
    return startTeamServer({ cli: CLI, repo, home, store: db.url, storeByEnv });
  };
  // One server is told by --store, the other by SIGHTLINE_DATABASE_URL: both reach the same database.
  const [a, b] = await Promise.all([start(false), start(true)]);
  servers.push(a, b);
  const agentsOf = async (server: TeamServer, prefix: string) => Promise.all(Array.from({ length: AGENTS_PER_SERVER }, (_, i) => connectAgent(server, `${prefix}${i}`)));
  const [onA, onB] = await Promise.all([agentsOf(a, 'a'), agentsOf(b, 'b')]);
  clients.push(...onA, ...onB);

  const health = await Promise.all([tool(onA[0]!, 'health', {}), tool(onB[0]!, 'health', {})]);
  for (const h of health) expect(h).toMatchObject({ memory_store: db.url, team_repo: 'team-repo' });

  await seedBacklog(onA[0]!, ITEMS);
  expect(await todoKeys(onB[0]!)).toHaveLength(ITEMS); // written through A, seen through B

  const events: AgentEvent[] = [];
  // b0 stops holding the first claim it is granted after a few items went by: its server dies under it.
  let victimKey: string | null = null;
  const victim = (key: string) => events.filter((e) => e.event === 'processed').length >= 20 && victimKey === null && (victimKey = key) !== null;
  const runs = [
    ...onA.map((c, i) => drain(c, `a${i}`, { leaseSeconds: LEASE_SECONDS, stallChance: 0.03 }, events)),
    ...onB.map((c, i) => drain(c, `b${i}`, { leaseSeconds: LEASE_SECONDS, stallChance: 0.03, holdForever: i === 0 ? victim : undefined, serverGone: () => killed }, events)),
  ];
  let killed = false;
  await waitFor('the victim to hold a claim', () => victimKey !== null);
  killed = true;
  b.proc.kill('SIGKILL');
  await b.exited;
  // Its agents' calls in flight end now rather than at the SDK's request timeout.
  await Promise.allSettled(onB.map((c) => c.close()));
  const outcomes = await Promise.all(runs);
  expect(outcomes.slice(0, AGENTS_PER_SERVER)).toEqual(Array(AGENTS_PER_SERVER).fill('done'));
  expect(outcomes[AGENTS_PER_SERVER]).toBe('holding');
  for (const o of outcomes.slice(AGENTS_PER_SERVER + 1)) expect(['done', 'server_gone']).toContain(o);

  // Every item processed exactly once, the victim's among them (taken over after its lease lapsed).
  const processed = events.filter((e) => e.event === 'processed');
  const logged = new Set(processed.map((e) => e.key));
  expect(logged.size).toBe(processed.length); // no item done twice
  // A write of server B may have committed while B died before answering: such an item is done, by a B agent, once.
  const unanswered = Array.from({ length: ITEMS }, (_, i) => itemKey(i)).filter((k) => !logged.has(k));
  expect(unanswered.length).toBeLessThanOrEqual(AGENTS_PER_SERVER);
  for (const key of unanswered) expect((await tool(onA[0]!, 'recall', { key })).fields.body).toMatch(/^done:b\d$/);
  // The victim's item is finished once by another agent after its lease lapsed: one of A's, or one of B's when B outlived the lease (a loaded machine).
  const takenOver = processed.find((e) => e.key === victimKey);
  if (takenOver) expect(takenOver.me).not.toBe('b0');
  else expect(unanswered).toContain(victimKey);
  for (const e of processed) expect(e.author).toBe(e.me); // nobody wrote between a holder's claim and its write
  const onlyA = await todoKeys(onA[0]!);
  expect(onlyA).toEqual([]);

  // Never two holders with a live token: each grant of a key came after the previous one was released or lapsed.
  const grants = events.filter((e): e is Extract<AgentEvent, { event: 'granted' }> => e.event === 'granted');
  const releases = new Map(events.flatMap((e) => (e.event === 'released' ? [[`${e.key}#${e.token}`, e.releaseSentAtMs] as const] : [])));
  const byKey = new Map<string, typeof grants>();
  for (const g of grants) byKey.set(g.key, [...(byKey.get(g.key) ?? []), g]);
  for (const list of byKey.values()) {
    list.sort((x, y) => x.token - y.token);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const freedAt = Math.min(prev.leaseExpiresAtMs, releases.get(`${prev.key}#${prev.token}`) ?? Infinity);
      expect(list[i]!.grantedAtMs, `${prev.key}: token ${list[i]!.token} granted while ${prev.token} was live`).toBeGreaterThanOrEqual(freedAt - 1);
    }
  }
  expect(grants.length).toBeGreaterThan(ITEMS); // at least the victim's item was granted twice

  // Stale tokens refused: a taken-over holder's write, every write after a release, and the victim's token now.
  for (const e of events.filter((e) => e.event === 'refused')) expect(e.reason).toBe('StaleToken');
  for (const e of events.filter((e) => e.event === 'after_release')) expect(['ClaimReleased', 'StaleToken']).toContain(e.reason);
  const victimGrant = grants.find((g) => g.key === victimKey && g.me === 'b0')!;
  const late = await tool(onA[0]!, 'update', { key: victimKey!, fields: { body: 'from the dead' }, fencing_token: victimGrant.token });
  expect(late.error).toMatch(/^StaleToken:/);
  expect(new Set(processed.map((e) => e.me)).size).toBeGreaterThan(2); // they really raced
}, 240_000);
