/**
 * Memory and claims on a real PostgreSQL: the claims contract SQLite keeps,
 * the versioned migrations, records shared between "servers" (separate
 * pools on one database) and kept apart between repositories, and races
 * decided one at a time per record.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { claim, findMemory, listTopics, recall, releaseClaim, remember, scan, update, type Memory } from '../../src/memory/index.js';
import { citationProbe } from '../../src/engine/index.js';
import { MEMORY_COMPONENT, migrateOnce, teamMemoryStore } from '../../src/team/index.js';
import { claimsContract } from '../memory/claims-contract.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, useIndexedRepo } from '../helpers/fixture.js';
import { usePostgres } from '../helpers/use-postgres.js';

const db = usePostgres();
const fixture = useIndexedRepo({ 'src/a.ts': 'export const a = 1;\n' }, () => ({ databaseUrl: db.url, teamRepo: 'shared' }));
const mem = (): Memory => fixture.repo.memory;
/** Another server's view of the same database: its own pool (a different URL string), the same repository name. */
const otherServer = (name = 'shared'): Memory => ({ ...mem(), store: teamMemoryStore(`${db.url}?application_name=other-${name}`, name) });

async function sql<R extends pg.QueryResultRow>(text: string, args: unknown[] = []): Promise<R[]> {
  const c = new pg.Client(db.url);
  await c.connect();
  try {
    return (await c.query<R>(text, args)).rows;
  } finally {
    await c.end();
  }
}

describe('the claims contract on PostgreSQL', () => {
  claimsContract(mem);
});

describe('the team database', () => {
  it('keeps memory in PostgreSQL, at the schema version this build knows', async () => {
    await remember(mem(), { topic: 'auth', id: 'ttl', title: 'Sessions expire after 1h', body: 'one hour' });
    expect(await sql('SELECT component, version FROM schema_version')).toEqual([{ component: 'memory', version: MEMORY_COMPONENT.migrations.length }]);
    expect(await sql("SELECT repo, key FROM memory_records WHERE key = 'memory:auth/ttl'")).toEqual([{ repo: 'shared', key: 'memory:auth/ttl' }]);
    expect(fixture.repo.store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'memory_records'").pluck().get()).toBe(0);
  });

  it('refuses a schema newer than this build, by name, and changes nothing', async () => {
    await sql("UPDATE schema_version SET version = 99 WHERE component = 'memory'");
    try {
      const url = `${db.url}?application_name=newer`;
      await expect(migrateOnce(url, MEMORY_COMPONENT)).rejects.toThrow(/holds memory schema version 99, newer than this sightline's 1: upgrade sightline/);
      await expect(teamMemoryStore(url, 'shared').read('memory:auth/ttl')).rejects.toThrow(/newer than this sightline's/);
    } finally {
      await sql("UPDATE schema_version SET version = 1 WHERE component = 'memory'");
    }
    expect((await mem().store.read('memory:auth/ttl')).record?.fields.title?.value).toBe('Sessions expire after 1h');
  });

  it('shares records between servers and keeps repositories apart', async () => {
    await remember(mem(), { topic: 'team', id: 'one', title: 'Written by server A', tags: ['shared'] });
    const b = otherServer();
    await update(b, { key: 'memory:team/one', fields: { body: 'and edited by server B' } });
    const seen = (await recall(mem(), { key: 'memory:team/one' }, citationProbe(fixture.repo))) as Record<string, unknown>;
    expect(seen).toMatchObject({ exists: true, fields: { title: 'Written by server A', body: 'and edited by server B' }, tags: ['shared'] });
    expect((await listTopics(b)).topics).toContainEqual({ topic: 'team', count: 1 });
    expect((await findMemory(b, ['edited'], 3)).map((h) => h.key)).toEqual(['memory:team/one']);
    expect((await scan(b, { scope: 'memory_topic', topic: 'team' })).items.map((i) => i.key)).toEqual(['memory:team/one']);
    const elsewhere = otherServer('another-repo');
    expect((await elsewhere.store.read('memory:team/one')).record).toBeUndefined();
    expect((await listTopics(elsewhere)).topics).toEqual([]);
  });

  it('grants one claim to a race across servers, with tokens strictly increasing per record', async () => {
    await remember(mem(), { topic: 'race', id: 'r', body: 'todo' });
    const key = 'memory:race/r';
    const servers = [mem(), otherServer()];
    const race = await Promise.all(Array.from({ length: 40 }, (_, i) => claim(servers[i % 2]!, { key, owner: `agent-${i}` })));
    const winners = race.filter((r) => r.granted);
    expect(winners).toHaveLength(1);
    expect(race.filter((r) => !r.granted).every((r) => r.reason === 'contended')).toBe(true);
    let last = (winners[0] as { fencing_token: number }).fencing_token;
    await releaseClaim(servers[1]!, { key, fencing_token: last });
    for (let i = 0; i < 6; i++) {
      const r = (await claim(servers[i % 2]!, { key, owner: `agent-${i}` })) as { granted: boolean; fencing_token: number };
      expect(r.granted).toBe(true);
      expect(r.fencing_token).toBeGreaterThan(last);
      await expect(update(servers[(i + 1) % 2]!, { key, fields: { body: 'stale' }, fencing_token: last })).rejects.toThrow(/^StaleToken:/);
      last = r.fencing_token;
      await releaseClaim(servers[(i + 1) % 2]!, { key, fencing_token: last });
    }
  });

  it('merges concurrent writes to different fields from both servers (no lost update)', async () => {
    await remember(mem(), { topic: 'crdt', id: 'm', title: 't0' });
    const servers = [mem(), otherServer()];
    await Promise.all(Array.from({ length: 20 }, (_, i) => update(servers[i % 2]!, { key: 'memory:crdt/m', add_tags: [`tag-${i}`] })));
    const r = (await mem().store.read('memory:crdt/m')).record!;
    expect(Object.keys(r.tags).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `tag-${i}`).sort());
  });
});

describe('choosing the team store', () => {
  it('the CLI verbs take --store over SIGHTLINE_DATABASE_URL, and without either stay on SQLite', () => {
    const env = { SIGHTLINE_HOME: tempDir('sightline-home-'), SIGHTLINE_TEAM_REPO: 'shared', SIGHTLINE_EMBEDDER: 'none' };
    const wrote = runCli(['remember', 'cli', '--id', 'x', '--body', 'from the command line', '--store', db.url, '--enable-writes', '--json', '--repo', fixture.root], { ...env, SIGHTLINE_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(wrote.code, wrote.stderr).toBe(0);
    const byEnv = runCli(['recall', 'memory:cli/x', '--json', '--repo', fixture.root], { ...env, SIGHTLINE_DATABASE_URL: db.url });
    expect(JSON.parse(byEnv.stdout)).toMatchObject({ exists: true, fields: { body: 'from the command line' } });
    const local = runCli(['recall', 'memory:cli/x', '--json', '--repo', fixture.root], env);
    expect(JSON.parse(local.stdout)).toMatchObject({ exists: false });
    const unreachable = runCli(['recall', 'memory:cli/x', '--json', '--repo', fixture.root, '--store', 'postgres://u:hunter2@127.0.0.1:1/none'], env);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/cannot use the team database postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none/);
    expect(unreachable.stderr + unreachable.stdout).not.toMatch(/hunter2/);
  }, 120_000);

  it('refuses a URL that is not postgres:// when the repository opens', () => {
    expect(() => Repo.open(tempDir(), { flags: { databaseUrl: 'mysql://db/x' }, env: {} })).toThrow(/must be a postgres:\/\/ URL, not mysql:/);
  });

  it('names an unreachable database without its password', async () => {
    const store = teamMemoryStore('postgres://u:hunter2@127.0.0.1:1/x', 'r');
    const err = await store.read('memory:a/b').catch((e: Error) => e);
    expect(String(err)).toMatch(/cannot use the team database postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x/);
    expect(String(err)).not.toMatch(/hunter2/);
  });
});
