import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { featuresOf, forEachModelTerm } from '../../src/embed/features.js';

/** Written by scripts/embedder/features.py: the trainer's view of the same texts. */
const fixture = JSON.parse(fs.readFileSync(new URL('./fixtures/features.json', import.meta.url), 'utf8')) as {
  vocab: string[];
  buckets: number;
  cases: { text: string; terms: [string, boolean][]; features: Record<string, number> }[];
};

describe('builtin features match the training script', () => {
  const space = { vocab: new Map(fixture.vocab.map((t, i) => [t, i])), buckets: fixture.buckets };
  for (const c of fixture.cases) {
    it(JSON.stringify(c.text.slice(0, 40)), () => {
      const terms: [string, boolean][] = [];
      forEachModelTerm(c.text, (t, single) => terms.push([t, single]));
      expect(terms).toEqual(c.terms);
      const got = Object.fromEntries([...featuresOf(c.text, space)].map(([k, v]) => [String(k), Math.round(v * 1e6) / 1e6]));
      expect(got).toEqual(c.features);
    });
  }
});

describe('builtin features of a run already seen', () => {
  it('are the same from the cache of runs, across texts and after it was emptied when full', () => {
    const space = { vocab: new Map(fixture.vocab.map((t, i) => [t, i])), buckets: fixture.buckets };
    const rounded = (text: string) => Object.fromEntries([...featuresOf(text, space)].map(([k, v]) => [String(k), Math.round(v * 1e6) / 1e6]));
    const expected = fixture.cases.map((c) => c.features);
    expect(fixture.cases.map((c) => rounded(c.text))).toEqual(expected);
    // Every case again, its runs now cached: a shared run must not carry another text's rows.
    expect(fixture.cases.map((c) => rounded(c.text))).toEqual(expected);
    // More distinct runs than the cache holds, then every case again.
    rounded(Array.from({ length: 20_000 }, (_, i) => `filler${i.toString(36)}Run`).join(' '));
    expect(fixture.cases.map((c) => rounded(c.text))).toEqual(expected);
  });
});
