/** Memory records against a real index: writes, refusals that change nothing, staleness, scans, neighbors, reset. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationProbe, reset } from '../../src/engine/index.js';
import { findMemory, forget, join, listTopics, neighbors, recall, remember, scan, update, type StoredRecord } from '../../src/memory/index.js';
import { age, useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo({ 'src/a.ts': 'export function parse(s: string) {\n  return s.trim();\n}\n', 'src/b.ts': 'export const b = 2;\n', 'docs/x.md': '# x\n' });
const mem = () => fixture.repo.memory;
const probe = () => citationProbe(fixture.repo);

describe('records', () => {
  it('creates with a generated id, merges by id, and recalls fields, tags and remaining life', async () => {
    const made = await remember(mem(), { topic: 'auth', kind: 'decision', title: 'TTL', body: 'one hour', tags: ['security'], ttl_seconds: 3600 });
    expect(made).toMatchObject({ created: true, kind: 'decision' });
    const [, id] = made.key.split('/');
    const merged = await remember(mem(), { topic: 'auth', id, author: 'agent-1', kind: 'memory' });
    expect(merged).toMatchObject({ created: false, kind: 'decision' }); // kind is set at creation
    const r = (await recall(mem(), { key: made.key }, probe())) as Record<string, any>;
    expect(r).toMatchObject({ exists: true, fields: { title: 'TTL', body: 'one hour', author: 'agent-1' }, tags: ['security'] });
    expect(r.ttl_remaining_seconds).toBeGreaterThan(3500);
    await expect(recall(mem(), { key: 'memory:auth/none' }, probe())).resolves.toEqual({ status: 'ok', key: 'memory:auth/none', exists: false });
  });

  it('update patches per field and keeps the remaining TTL', async () => {
    const { key } = await remember(mem(), { topic: 'auth', id: 'u1', title: 't', body: 'b', ttl_seconds: 600 });
    const before = (await mem().store.read(key)).record!;
    await update(mem(), { key, fields: { Body: 'b2' }, add_tags: ['x'] });
    const after = (await mem().store.read(key)).record!;
    expect(after.fields.title).toEqual(before.fields.title);
    expect(after.fields.body!.value).toBe('b2');
    expect(after.fields.body!.tick).toBeGreaterThan(before.fields.body!.tick);
    expect(after.expiresAtMs).toBe(before.expiresAtMs);
  });

  it('concurrent versions converge: the join is commutative, associative and idempotent', async () => {
    const { key } = await remember(mem(), { topic: 'crdt', id: 'j', title: 'a', body: 'a' });
    const base = (await mem().store.read(key)).record!;
    const x: StoredRecord = { ...base, fields: { ...base.fields, title: { value: 'x', tick: base.updatedTick + 5 } }, updatedTick: base.updatedTick + 5 };
    const y: StoredRecord = { ...base, fields: { ...base.fields, body: { value: 'y', tick: base.updatedTick + 7 } }, tags: { t: { value: true, tick: base.updatedTick + 7 } }, updatedTick: base.updatedTick + 7 };
    expect(join(x, y)).toEqual(join(y, x));
    expect(join(join(base, x), y)).toEqual(join(base, join(x, y)));
    expect(join(x, x)).toEqual(x);
    expect(join(x, y).fields).toMatchObject({ title: { value: 'x' }, body: { value: 'y' } });
  });

  it('refuses bad input by name and changes nothing', async () => {
    const { key } = await remember(mem(), { topic: 'bad', id: 'r', body: 'kept' });
    const before = await mem().store.read(key);
    const refusals: [Promise<unknown>, RegExp][] = [
      [update(mem(), { key, fields: { colour: 'red' } }), /field "colour" is not a memory record field; the fields are title, body, author, provenance/],
      [remember(mem(), { topic: 'bad', kind: 'unspecified' }), /kind "unspecified" is not a memory kind/],
      [remember(mem(), { topic: 'bad', id: 'r', ttl_seconds: 0 }), /ttl_seconds must be a whole number of seconds from 1/],
      [remember(mem(), { topic: 'bad', id: 'r', add_links: { about: ['file:../outside.ts'] } }), /outside the repository/],
      [remember(mem(), { topic: 'bad', id: 'r', body: 'x'.repeat(64 * 1024 + 1) }), /over the limit of 65536/],
      [remember(mem(), { topic: 'bad', id: 'r', add_links: { About: ['file:src/a.ts'] } }), /link relation "About"/],
      [remember(mem(), { topic: 'bad/x' }), /topic "bad\/x"/],
      [update(mem(), { key: 'memory:bad/none', fields: { body: 'x' } }), /no live memory record/],
      [update(mem(), { key: 'file:src/a.ts', fields: { body: 'x' } }), /only memory records/],
    ];
    for (const [call, message] of refusals) await expect(call).rejects.toThrow(message);
    expect(await mem().store.read(key)).toEqual(before);
  });

  it('links go stale when their code changes, and dangle when it has no record', async () => {
    const { key } = await remember(mem(), {
      topic: 'code',
      id: 'links',
      add_links: { about: ['file:src/a.ts', 'symbol:src/a.ts#parse', 'file:src/b.ts', 'file:src/nope.ts'], see: ['memory:code/missing'] },
    });
    let r = (await recall(mem(), { key }, probe())) as Record<string, any>;
    expect(r.dangling_links.sort()).toEqual(['file:src/nope.ts', 'memory:code/missing']);
    expect(r.stale_links.sort()).toEqual(['file:src/nope.ts', 'memory:code/missing']);
    expect(r.links.find((l: any) => l.target === 'file:src/a.ts')).toMatchObject({ citation_status: 'verified', stale: false });
    fs.writeFileSync(path.join(fixture.root, 'src/a.ts'), 'export function parse(s: string) {\n  return s.trim().toLowerCase();\n}\n');
    age(fixture.root, 'src/a.ts', 30);
    await fixture.repo.index();
    r = (await recall(mem(), { key }, probe())) as Record<string, any>;
    expect(r.stale).toBe(true);
    expect(r.stale_links).toEqual(expect.arrayContaining(['file:src/a.ts', 'symbol:src/a.ts#parse']));
    expect(r.stale_links).not.toContain('file:src/b.ts');
  });

  it('forget: a lapse never shortens a later expiry; a hard delete removes; both work on an undecodable value', async () => {
    const { key } = await remember(mem(), { topic: 'f', id: 'long', ttl_seconds: 7200 });
    const lapsed = await forget(mem(), { key, lapse: true, lapse_seconds: 60 });
    expect(Date.parse(lapsed.expires_at!)).toBeGreaterThan(Date.now() + 7000_000);
    const { key: k2 } = await remember(mem(), { topic: 'f', id: 'durable' });
    const l2 = await forget(mem(), { key: k2, lapse: true, lapse_seconds: 5 });
    expect(Date.parse(l2.expires_at!)).toBeLessThan(Date.now() + 6000);
    fixture.repo.store.db.prepare("UPDATE memory_records SET value = '{not json' WHERE key = ?").run(k2);
    await expect(recall(mem(), { key: k2 }, probe())).rejects.toThrow(/cannot be decoded/);
    await expect(forget(mem(), { key: k2, lapse: true, lapse_seconds: 1 })).resolves.toMatchObject({ undecodable: true, forgotten: true });
    await expect(forget(mem(), { key: k2 })).resolves.toMatchObject({ undecodable: true, forgotten: true, lapse: false });
    await expect(forget(mem(), { key: k2 })).resolves.toMatchObject({ existed: false, forgotten: false });
  });
});

describe('browsing', () => {
  it('scan pages in key order, hides expired entries, and refuses tokens of another scope', async () => {
    for (let i = 0; i < 7; i++) await remember(mem(), { topic: 'page', id: `p${i}`, body: `${i}` });
    await remember(mem(), { topic: 'page', id: 'gone', ttl_seconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = (await scan(mem(), { scope: 'memory_topic', topic: 'page', page_size: 3, continuation_token: token })) as Record<string, any>;
      for (const item of page.items) expect(item).toMatchObject({ stale: null, stale_links: null, dangling_links: null });
      keys.push(...page.items.map((i: { key: string }) => i.key));
      token = page.continuation_token ?? undefined;
    } while (token);
    expect(keys).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `memory:page/p${i}`));
    const first = (await scan(mem(), { scope: 'memory_topic', topic: 'page', page_size: 3 })) as Record<string, any>;
    await expect(scan(mem(), { scope: 'memory', continuation_token: first.continuation_token })).rejects.toThrow(/belongs to a memory_topic scan/);
    await expect(scan(mem(), { scope: 'memory', path_prefix: 'src' })).rejects.toThrow(/path_prefix narrows a files scan only/);
    expect((await listTopics(mem())).topics).toContainEqual({ topic: 'page', count: 7 });
  });

  it('search finds entries holding any of the words, LIKE wildcards taken literally, the expired left out', async () => {
    await remember(mem(), { topic: 'find', id: 'literal', title: 'Progress at 100%_done' });
    await remember(mem(), { topic: 'find', id: 'wild', title: 'Progress at 100xydone' });
    await remember(mem(), { topic: 'find', id: 'other', body: 'a zebracorn was seen' });
    await remember(mem(), { topic: 'find', id: 'gone', body: 'a zebracorn that expires', ttl_seconds: 1 });
    const found = async (words: string[]) => (await findMemory(mem(), words, 10)).map((h) => h.key).sort();
    expect(await found(['100%_done'])).toEqual(['memory:find/literal']);
    expect(await found(['100xydone', 'zebracorn'])).toEqual(['memory:find/gone', 'memory:find/other', 'memory:find/wild']);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await found(['zebracorn'])).toEqual(['memory:find/other']);
  });

  it('a files scan token is refused once the index changed', async () => {
    const page = (await scan(mem(), { scope: 'files', page_size: 1 })) as Record<string, any>;
    expect(page.items[0].key).toBe('file:docs/x.md');
    const prefixed = (await scan(mem(), { scope: 'files', path_prefix: 'src' })) as Record<string, any>;
    expect(prefixed.items.map((i: { key: string }) => i.key)).toEqual(['file:src/a.ts', 'file:src/b.ts']);
    await new Promise((r) => setTimeout(r, 5));
    await fixture.repo.index();
    await expect(scan(mem(), { scope: 'files', page_size: 1, continuation_token: page.continuation_token })).rejects.toThrow(/index that has changed/);
  });

  it('neighbors walks links breadth first, bounded, with dangling edges', async () => {
    await remember(mem(), { topic: 'g', id: 'c', add_links: { next: ['memory:g/ghost'] } });
    await remember(mem(), { topic: 'g', id: 'b', add_links: { next: ['memory:g/c'], about: ['file:src/b.ts'] } });
    await remember(mem(), { topic: 'g', id: 'a', add_links: { next: ['memory:g/b'] } });
    const one = (await neighbors(mem(), { key: 'memory:g/a' }, probe())) as Record<string, any>;
    expect(one.nodes.map((n: { key: string }) => n.key)).toEqual(['memory:g/b']);
    const all = (await neighbors(mem(), { key: 'memory:g/a', depth: 3 }, probe())) as Record<string, any>;
    expect(all.nodes.map((n: { key: string; exists: boolean }) => [n.key, n.exists])).toEqual([
      ['memory:g/b', true],
      ['memory:g/c', true],
      ['file:src/b.ts', true],
      ['memory:g/ghost', false],
    ]);
    expect(all.nodes[1]).toMatchObject({ stale: true, dangling_links: ['memory:g/ghost'] });
    const capped = (await neighbors(mem(), { key: 'memory:g/a', depth: 3, max_nodes: 2 }, probe())) as Record<string, any>;
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.nodes).toHaveLength(2);
    const only = (await neighbors(mem(), { key: 'memory:g/a', depth: 3, relation: 'next' }, probe())) as Record<string, any>;
    expect(only.nodes.map((n: { key: string }) => n.key)).not.toContain('file:src/b.ts');
  });
});

describe('reset', () => {
  it('keeps memory and sessions, and links come back when the code is re-indexed', async () => {
    const { key } = await remember(mem(), { topic: 'keep', id: 'k', body: 'survives', add_links: { about: ['file:src/b.ts'] } });
    fixture.repo.store.sessions.refuse('s1', 3);
    fixture.repo.store.sessions.refuse('s1', 3);
    await reset(fixture.repo);
    let r = (await recall(mem(), { key }, probe())) as Record<string, any>;
    expect(r).toMatchObject({ exists: true, fields: { body: 'survives' }, dangling_links: ['file:src/b.ts'] });
    expect(fixture.repo.store.sessions.refusals('s1')).toBe(2);
    await fixture.repo.index();
    r = (await recall(mem(), { key }, probe())) as Record<string, any>;
    expect(r).toMatchObject({ stale: false, dangling_links: [] });
  });
});
