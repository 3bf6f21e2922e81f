/** snippetFor picks the lines a line-by-line reading would: the three holding the most query terms, ties earliest, in line order. */
import { describe, expect, it } from 'vitest';
import { snippetFor } from '../../src/engine/snippet.js';
import { forEachTerm, queryTerms } from '../../src/terms/index.js';
import { seeded } from '../budget/helpers.js';

/** The reading it must agree with: every line split into terms, each scored by its query-term hits. */
function reference(text: string, startLine: number, terms: Set<string>): string {
  const lines = text.split('\n');
  const scored = lines
    .map((line, i) => {
      let hits = 0;
      forEachTerm(line, (t) => void (terms.has(t) && hits++));
      return { i, hits };
    })
    .filter((s) => s.hits > 0);
  const chosen = (scored.length ? scored.sort((a, b) => b.hits - a.hits || a.i - b.i) : lines.map((_, i) => ({ i, hits: 0 }))).slice(0, 3).sort((a, b) => a.i - b.i);
  return chosen.map(({ i }) => `${startLine + i}: ${lines[i]!.trimEnd()}`).join('\n');
}

const WORDS = ['get', 'user', 'name', 'HTTP', 'server', 'parse_config', 'getUserName', 'x2', 'Ünïcode', 'token', ' ', '\t', '.', '('];

describe('snippetFor', () => {
  it('agrees with a line-by-line reading over 2,000 seeded texts and queries', () => {
    const next = seeded(3);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
    for (let c = 0; c < 2_000; c++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 8) }, () => Array.from({ length: Math.floor(next() * 6) }, () => pick(WORDS)).join(pick(['', ' ', '_']))).join('\n');
      const terms = new Set(queryTerms(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(WORDS)).join(' ')));
      expect(snippetFor(text, 10, terms), JSON.stringify({ text, terms: [...terms] })).toBe(reference(text, 10, terms));
    }
  });
});
