/** pack(): reserved units (`min`) survive whatever later candidates add, and the whole stays within budget. */
import { describe, expect, it } from 'vitest';
import { countTokens, pack, type PackCandidate } from '../../src/budget/index.js';

const word = (i: number) => `unit${i} alpha beta gamma delta`;
const candidate = (name: string, units: number, min?: number): PackCandidate<{ name: string; text: string[] }> => ({
  units,
  min,
  build: (take) => ({ name, text: Array.from({ length: take }, (_, i) => word(i)) }),
});
const render = (entries: unknown[], n: number) => JSON.stringify({ entries, response_tokens: n });

describe('pack with reserved units', () => {
  it('keeps every reserved entry at its minimum, then gives the rest best first', () => {
    const candidates = [candidate('a', 6, 2), candidate('b', 6, 2), candidate('c', 6)];
    const reservedOnly = countTokens(render([candidates[0]!.build(2), candidates[1]!.build(2)], 999));
    const budget = reservedOnly + 30;
    const packed = pack({ budget, top: 5, candidates, render });
    expect(packed.responseTokens).toBeLessThanOrEqual(budget);
    const take = Object.fromEntries(packed.picks.map((p) => [candidates[p.candidate]!.build(0).name, p.take]));
    expect(take.a).toBeGreaterThan(2); // the first reserved entry grows first
    expect(take.b).toBe(2); // the second keeps its reserved units although nothing more fits
    expect(take.c).toBeUndefined();
  });

  it('never goes over the budget, even when what was reserved does not fit', () => {
    const candidates = [candidate('a', 4, 2), candidate('b', 4, 2), candidate('c', 4, 2)];
    const budget = countTokens(render([candidates[0]!.build(2)], 999)) + 4; // room for the first reservation only
    const packed = pack({ budget, top: 5, candidates, render });
    expect(packed.responseTokens).toBeLessThanOrEqual(budget);
    expect(packed.picks.map((p) => p.candidate)).toEqual([0]);
  });

  it('without reservations packs as before: best first, the last entry shrinks or goes', () => {
    const candidates = [candidate('a', 3), candidate('b', 3)];
    const budget = countTokens(render([candidates[0]!.build(3), candidates[1]!.build(1)], 999)) + 8;
    const packed = pack({ budget, top: 5, candidates, render });
    expect(packed.picks).toEqual([
      { candidate: 0, take: 3 },
      { candidate: 1, take: 1 },
    ]);
  });
});
