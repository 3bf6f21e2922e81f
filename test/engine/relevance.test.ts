/** heldTerms finds exactly the query terms termsOf would, whatever the spelling of the identifiers around them. */
import { describe, expect, it } from 'vitest';
import { heldTerms, termsOf } from '../../src/engine/relevance.js';
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

describe('heldTerms', () => {
  it('agrees with termsOf on the query terms, over 2,000 seeded texts and queries', () => {
    const next = random(7);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
    const phrase = () => pick(SPELL)(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(WORDS)));
    for (let i = 0; i < 2_000; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, phrase).join(' ')).join('\n');
      const asked = queryTerms(Array.from({ length: 1 + Math.floor(next() * 3) }, phrase).join(' '));
      const all = termsOf('src/a.ts', 'src/a.ts > thing', text);
      expect([...heldTerms(asked, 'src/a.ts', 'src/a.ts > thing', text)].sort(), `case ${i}: ${JSON.stringify({ text, asked })}`).toEqual(asked.filter((t) => all.has(t)).sort());
    }
  });
});
