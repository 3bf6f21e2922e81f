/** A read worker's warm-up (mcp/read-pool/warm-up.ts): questions of its own about the index it serves, that leave nothing behind. */
import { afterEach, describe, expect, it } from 'vitest';
import { citationProbe, engineOver, type Engine } from '../../src/engine/index.js';
import { WARM_UP_MS, warmUp, warmUpNames } from '../../src/mcp/read-pool/warm-up.js';
import { ownAnswerCacheStats } from '../../src/search/index.js';
import { indexedRepo, type IndexedRepo } from '../helpers/fixture.js';

const FILES: Record<string, string> = {
  'src/parser.ts': 'export class TokenParser {\n  parse(text: string) {\n    return text.split(" ");\n  }\n}\n',
  'src/render.ts': 'const id = 1;\nexport function renderPage(page: string) {\n  return `<p>${page}</p>`;\n}\n',
  'src/store.ts': 'export interface RecordStore {\n  get(key: string): string;\n}\n',
  'src/walk.ts': 'export function walkFiles(root: string) {\n  return [root];\n}\n',
  'README.md': '# Example\n\nA tiny project.\n',
};

const opened: IndexedRepo[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.cleanup();
});

async function served(): Promise<Engine> {
  const fixture = await indexedRepo({ files: FILES, flags: { embedder: 'none' } });
  opened.push(fixture);
  return engineOver(fixture.repo, async (build) => build(citationProbe(fixture.repo, {})));
}

/** A clock that moves `step` ms each time it is read. */
function ticking(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

describe('a read worker warming up', () => {
  it('asks about types and functions the index defines, one per code file, never a local', async () => {
    const engine = await served();
    const names = warmUpNames(engine);
    expect(names.sort()).toEqual(['RecordStore', 'TokenParser', 'renderPage', 'walkFiles']);
  });

  it('asks a lookup and two searches per name, and leaves no answer in the cache', async () => {
    const engine = await served();
    const asked = await warmUp(engine, () => false, () => 0); // a clock that never moves: every question is asked
    expect(asked).toBe(warmUpNames(engine).length * 3);
    expect(ownAnswerCacheStats(engine.repo.store)).toEqual({ entries: 0, hits: 0, misses: 0 });
    // The cache still works: a real question after the warm-up is kept, and counted alone.
    await engine.search({ query: 'TokenParser', mode: 'keyword' });
    expect(ownAnswerCacheStats(engine.repo.store)).toEqual({ entries: 1, hits: 0, misses: 1 });
  });

  it('stops for a real question, and when its time is up', async () => {
    const engine = await served();
    expect(await warmUp(engine, () => true)).toBe(0);
    // Started at 100; asked at 200 and 300 (100 and 200 ms in); at 400 the time is up.
    expect(WARM_UP_MS).toBeGreaterThan(200);
    expect(WARM_UP_MS).toBeLessThanOrEqual(300);
    expect(await warmUp(engine, () => false, ticking(100))).toBe(2);
  });
});
