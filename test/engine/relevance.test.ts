/** heldByMatches finds in the index exactly the query terms the text holds (termsOf), whatever the spelling of the identifiers around them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldByMatches, indexedTerms } from '../../src/engine/relevance.js';
import { indexed, type Indexed } from '../budget/helpers.js';
import { queryTerms } from '../../src/terms/index.js';

/** mulberry32: a seeded source, so a failing case can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['get', 'user', 'name', 'http', 'server', 'parse', 'config', 'file', 'token', 'target', 'ge', 'x2', 'Ünïcode'];
const SPELL = [
  (ws: string[]) => ws.join('_'),
  (ws: string[]) => ws.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join(''),
  (ws: string[]) => ws.map((w) => w.toUpperCase()).join('_'),
  (ws: string[]) => ws.join(' '),
  (ws: string[]) => ws.join('.'),
];

describe('heldByMatches', () => {
  let fx: Indexed;
  beforeAll(async () => {
    const next = random(11);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
    const phrase = () => pick(SPELL)(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(WORDS)));
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const name = `${pick(['src', 'lib/http', 'test'])}/${pick(WORDS).toLowerCase()}_${i}.${pick(['ts', 'py'])}`;
      files[name] = Array.from({ length: 2 + Math.floor(next() * 5) }, () => `// ${phrase()} ${phrase()}`).join('\n') + '\n';
    }
    fx = await indexed(files);
  });
  afterAll(() => fx.cleanup());

  it('finds in the index postings exactly the terms the FTS fields hold', () => {
    const chunks = [...fx.repo.store.chunks.termSources()].map((c) => ({ chunkId: c.id, ...c }));
    const asked = [...new Set(WORDS.flatMap((w) => queryTerms(`${w} ${w}_http parseConfig`)))];
    const df = fx.repo.store.terms.documentFrequency(asked);
    const fromIndex = heldByMatches(fx.repo.store, asked, df, chunks);
    chunks.forEach((c, i) => {
      const all = indexedTerms(c);
      expect([...fromIndex[i]!].sort(), c.path).toEqual(asked.filter((t) => all.has(t)).sort());
    });
    expect(fromIndex.some((s) => s.size > 0)).toBe(true);
    expect(fromIndex.some((s) => s.size < asked.length)).toBe(true);
  });
});
