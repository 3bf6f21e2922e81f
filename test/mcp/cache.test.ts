/**
 * The answer cache over MCP: every gated call writes session bookkeeping
 * (the refusal ledger), which must not count as an index change, so a
 * repeated search is answered from the cache; an edit to the index still
 * invalidates it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../helpers/fixture.js';
import { call, useServedRepo } from './harness.js';

const served = useServedRepo(SAMPLE_FILES, { args: ['--embedder', 'none'], env: { SIGHTLINE_WATCH_DEBOUNCE_MS: '50' } });

const cache = async () => (await call(served.conn.client, 'stats')).answer_cache as { entries: number; hits: number; misses: number };

describe('answer cache over MCP', () => {
  it('a repeated search is a cache hit; the session bookkeeping between them does not invalidate it', async () => {
    await call(served.conn.client, 'search', { query: 'session' }); // the first search opens agent memory, whose tables migrate once
    const first = await call(served.conn.client, 'search', { query: 'get user name' });
    const before = await cache();
    const again = await call(served.conn.client, 'search', { query: 'get user name' });
    const after = await cache();
    expect(again.results).toEqual(first.results);
    expect(after.hits).toBeGreaterThan(before.hits);
    expect(after.misses).toBe(before.misses);
  });

  it('an index change is a miss: the same question is answered from the new text', async () => {
    const ask = () => call(served.conn.client, 'search', { query: 'hashToken', mode: 'keyword', k: 20 });
    const old = JSON.stringify((await ask()).results.map((r: { path: string; end_line: number }) => [r.path, r.end_line]));
    const before = await cache();
    fs.appendFileSync(path.join(served.root, 'src/util/crypto.ts'), '\nexport function hashTokenTwice(input: string) {\n  return hashToken(hashToken(input));\n}\n');
    let changed = false;
    for (let i = 0; i < 100 && !changed; i++) {
      changed = JSON.stringify((await ask()).results.map((r: { path: string; end_line: number }) => [r.path, r.end_line])) !== old;
      if (!changed) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(changed).toBe(true);
    expect((await cache()).misses).toBeGreaterThan(before.misses);
  });
});
