/** The gate's rules on their own: limits, the compound margin, the deadlock cap, force, trimming, distribution, usage. */
import { describe, expect, it } from 'vitest';
import {
  assess,
  distribution,
  dropSuggestions,
  gate,
  jsonTokens,
  memoryLedger,
  scopeSuggestions,
  selfCountedJson,
  summarize,
  trimToBudget,
  UsageMeter,
  type GateHit,
  type GateLimits,
  type GateSummary,
} from '../../src/budget/index.js';

const LIMITS: GateLimits = { maxFiles: 25, maxHits: 120, maxTokens: 6000, minRelevance: 0.35, absoluteMaxTokens: 24000, compoundMargin: 0.15, maxRefusals: 3 };
const summary = (s: Partial<GateSummary>): GateSummary => ({ total_found: 10, files: 5, est_tokens: 1000, top_score: 0.9, ...s });

describe('assess', () => {
  it('passes an answer within every limit', () => {
    expect(assess(summary({}), 10, LIMITS)).toBeNull();
  });

  it('names the one limit missed', () => {
    expect(assess(summary({ files: 40 }), 40, LIMITS)).toBe('breadth');
    expect(assess(summary({ total_found: 200 }), 200, LIMITS)).toBe('volume');
    expect(assess(summary({ est_tokens: 40_000 }), 10, LIMITS)).toBe('volume');
    expect(assess(summary({ top_score: 0.2 }), 10, LIMITS)).toBe('relevance');
  });

  it('lets a single near miss within 15 % pass, but not a bigger one', () => {
    expect(assess(summary({ files: 28 }), 28, LIMITS)).toBeNull(); // 25 * 1.15 = 28.75
    expect(assess(summary({ files: 29 }), 29, LIMITS)).toBe('breadth');
    expect(assess(summary({ total_found: 138 }), 138, LIMITS)).toBeNull(); // 120 * 1.15 = 138
    expect(assess(summary({ total_found: 139 }), 139, LIMITS)).toBe('volume');
    expect(assess(summary({ top_score: 0.3 }), 10, LIMITS)).toBeNull(); // 0.35 * 0.85 = 0.2975
    expect(assess(summary({ top_score: 0.29 }), 10, LIMITS)).toBe('relevance');
  });

  it('calls two misses compound, near misses included', () => {
    expect(assess(summary({ files: 26, total_found: 121 }), 121, LIMITS)).toBe('compound');
    expect(assess(summary({ files: 60, total_found: 400, est_tokens: 90_000 }), 400, LIMITS)).toBe('compound');
  });

  it('never refuses an empty answer', () => {
    expect(assess(summary({ total_found: 0, files: 0, top_score: 0 }), 0, LIMITS)).toBeNull();
  });
});

describe('gate', () => {
  const broad: GateHit[] = Array.from({ length: 60 }, (_, i) => ({ path: `src/m${i % 30}/f${i}.ts`, relevance: 1 }));
  const run = (ledger = memoryLedger(), force = false) =>
    gate({ hits: broad, estTokens: 3000, force, limits: LIMITS, ledger, suggest: () => [], forcedYield: 7 });

  it('refuses with a summary, a distribution and a computed use_force suggestion', () => {
    const d = run();
    expect(d.pass).toBe(false);
    if (d.pass) return;
    expect(d.refine).toMatchObject({ status: 'refine', reason: 'breadth', summary: { total_found: 60, files: 60, est_tokens: 3000, top_score: 1 }, refusal_count: 1 });
    expect(d.refine.distribution[0]).toEqual({ dir: 'src/m0', hits: 2, files: 2 });
    expect(d.refine.suggestions).toEqual([expect.objectContaining({ action: 'use_force', would_yield: 7 })]);
  });

  it('opens after three refusals in a row in one session, says so, and starts counting again', () => {
    const ledger = memoryLedger();
    const counts = [1, 2, 3].map(() => {
      const d = run(ledger);
      return d.pass ? 0 : d.refine.refusal_count;
    });
    expect(counts).toEqual([1, 2, 3]);
    const fourth = run(ledger);
    expect(fourth.pass).toBe(true);
    if (fourth.pass) expect(fourth.note).toMatch(/opened after 3 refusals in a row/);
    const fifth = run(ledger);
    expect(fifth.pass ? 0 : fifth.refine.refusal_count).toBe(1);
  });

  it('a pass in between resets the run of refusals', () => {
    const ledger = memoryLedger();
    run(ledger);
    run(ledger);
    gate({ hits: broad.slice(0, 3), estTokens: 10, limits: LIMITS, ledger, suggest: () => [], forcedYield: 3 });
    expect(ledger.count()).toBe(0);
  });

  it('force passes and says what it overrode', () => {
    const d = run(memoryLedger(), true);
    expect(d).toMatchObject({ pass: true, note: expect.stringMatching(/forced past the gate \(breadth\)/) });
  });

  it('counts demoted hits (tests, docs, translations, copies …) only when nothing else is relevant', () => {
    const demoted: GateHit[] = Array.from({ length: 40 }, (_, i) => ({ path: `locale/l${i}/m.po`, relevance: 0.9, demoted: true }));
    const code: GateHit[] = [{ path: 'src/a.ts', relevance: 0.8 }, { path: 'src/b.ts', relevance: 0.2 }];
    expect(summarize([...demoted, ...code], 100, LIMITS)).toMatchObject({ total_found: 1, files: 1, top_score: 0.9 });
    expect(summarize(demoted, 100, LIMITS)).toMatchObject({ total_found: 40, files: 40 });
  });

  it('answers a best hit just under min_relevance, saying the matches are weak and total counts none', () => {
    const best = (relevance: number) => gate({ hits: [{ path: 'src/a.ts', relevance }], estTokens: 100, limits: LIMITS, ledger: memoryLedger(), suggest: () => [], forcedYield: 1 });
    const d = best(0.31);
    expect(d).toMatchObject({ pass: true, summary: { total_found: 0, top_score: 0.31 } });
    expect(d.pass && d.note).toBe("weak matches: the best holds 31 % of the question's weight, under the 35 % a hit needs to count; answered with the nearest, which total does not count");
    const near = best(0.348);
    expect(near.pass && near.note).toMatch(/^weak matches: the best holds 34 % of the question's weight, under the 35 %/);
    const strong = best(0.5);
    expect(strong.pass && strong.note).toBeUndefined();
  });

  it('counts only hits at or above min_relevance', () => {
    const weak: GateHit[] = [...broad.slice(0, 5), ...Array.from({ length: 200 }, (_, i) => ({ path: `x/${i}.ts`, relevance: 0.1 }))];
    expect(gate({ hits: weak, estTokens: 10, limits: LIMITS, ledger: memoryLedger(), suggest: () => [], forcedYield: 1 })).toMatchObject({ pass: true, summary: { total_found: 5, files: 5 } });
  });
});

describe('distribution', () => {
  it('counts hits one level below the deepest common directory, most first', () => {
    const paths = ['src/auth/a.ts', 'src/auth/b.ts', 'src/auth/deep/c.ts', 'src/core/d.ts', 'src/e.ts', 'src/auth/a.ts'];
    expect(distribution(paths)).toEqual([
      { dir: 'src/auth', hits: 4, files: 3 },
      { dir: 'src', hits: 1, files: 1 },
      { dir: 'src/core', hits: 1, files: 1 },
    ]);
    expect(distribution(['a.ts', 'lib/b.ts'])).toEqual([
      { dir: '.', hits: 1, files: 1 },
      { dir: 'lib', hits: 1, files: 1 },
    ]);
  });
});

describe('scopeSuggestions', () => {
  const hitsIn = (dir: string, files: number, perFile = 1): GateHit[] =>
    Array.from({ length: files * perFile }, (_, i) => ({ path: `${dir}/f${i % files}.md`, relevance: 1 }));
  const yieldOf = (hits: GateHit[]) => (scope: string) => ({ hits: hits.filter((h) => h.path.startsWith(`${scope}/`)).length, estTokens: 0 });

  it('offers the directories that would pass, the most hits first, wherever the split put them', () => {
    // docs has too many files, so it is split into its subdirectories; src fits whole and holds more hits than any of them.
    const hits = [...hitsIn('docs/patterns', 7), ...hitsIn('docs/deploying', 5), ...hitsIn('docs/api', 15), ...hitsIn('docs/tutorial', 3), ...hitsIn('src', 10, 4), ...hitsIn('tests', 8, 2)];
    const offered = scopeSuggestions(hits, LIMITS, yieldOf(hits));
    // In the order visited it was src, docs/api, docs/patterns: tests (16 hits) lost to a 7-hit piece of docs.
    expect(offered.map((s) => [s.arg, s.would_yield])).toEqual([
      ['src', 40],
      ['tests', 16],
      ['docs/api', 15],
    ]);
  });
});

describe('dropSuggestions', () => {
  // "how is the cookie signature rotated": nothing holds "rotated"; the best match holds "cookie" and "signature".
  const words = [
    { word: 'cookie', indexed: true },
    { word: 'signature', indexed: true },
    { word: 'rotated', indexed: false },
  ];
  /** Questions by the words they drop (sorted), with what each would count. */
  const counts = (byDropped: Record<string, { hits: number; files: number }>) => (dropped: ReadonlySet<string>) => {
    const found = byDropped[[...dropped].sort().join(' ')];
    return found ? { query: words.filter((w) => !dropped.has(w.word)).map((w) => w.word).join(' '), estTokens: found.hits * 100, ...found } : null;
  };

  it('drops the words nothing holds in every suggestion, the questions that would be answered first, then those keeping more of it', () => {
    const asked: string[] = [];
    const run = counts({ rotated: { hits: 200, files: 40 }, 'cookie rotated': { hits: 12, files: 3 }, 'rotated signature': { hits: 0, files: 0 } });
    const offered = dropSuggestions(words, [new Set(['cookie', 'signature'])], LIMITS, (dropped) => {
      asked.push([...dropped].sort().join(' '));
      return run(dropped);
    });
    // Never a question that still holds "rotated", nor one with no word left; the best match's own question ("cookie signature") once.
    expect(asked.sort()).toEqual(['cookie rotated', 'rotated', 'rotated signature']);
    expect(offered).toEqual([
      { action: 'drop_term', arg: 'rotated cookie', would_yield: 12, est_tokens: 1200, hint: 'ask "signature" instead (no indexed file holds "rotated")' },
      { action: 'drop_term', arg: 'rotated', would_yield: 200, est_tokens: 20000, hint: 'ask "cookie signature" instead (no indexed file holds "rotated")' },
    ]);
  });

  it('offers nothing that would find nothing, and names no word as held nowhere when every word is held', () => {
    const held = [{ word: 'cookie', indexed: true }, { word: 'signature', indexed: true }];
    expect(dropSuggestions(held, [], LIMITS, () => ({ query: 'x', hits: 0, files: 0, estTokens: 0 }))).toEqual([]);
    const offered = dropSuggestions(held, [], LIMITS, (dropped) => ({ query: dropped.has('cookie') ? 'signature' : 'cookie', hits: 5, files: 2, estTokens: 50 }));
    expect(offered.map((s) => s.hint)).toEqual(['ask "signature" instead', 'ask "cookie" instead']);
  });
});

describe('trimToBudget', () => {
  const items = Array.from({ length: 20 }, (_, i) => ({ path: `src/file${i}.ts`, snippet: `${i}: const value${i} = compute(${i});` }));

  it('keeps the best prefix that fits, each item with its exact tokens, and counts what it cut', () => {
    const t = trimToBudget(items, 100);
    expect(t.kept.length).toBeGreaterThan(0);
    expect(t.kept.length).toBeLessThan(items.length);
    expect(t.omitted).toBe(items.length - t.kept.length);
    expect(t.kept.map((k) => k.path)).toEqual(items.slice(0, t.kept.length).map((i) => i.path));
    for (const k of t.kept) expect(k.tokens).toBe(jsonTokens(k)); // the count includes its own field
    expect(t.tokens).toBe(t.kept.reduce((s, k) => s + k.tokens, 0));
    expect(t.tokens).toBeLessThanOrEqual(100);
    const next = selfCountedJson(items[t.kept.length]!, 'tokens');
    expect(t.tokens + next).toBeGreaterThan(100);
  });
});

describe('UsageMeter', () => {
  it('sums the last hour per tool and forgets older calls', () => {
    let now = 1_000_000;
    const meter = new UsageMeter(() => now);
    meter.record('context', 500, 2000);
    meter.record('search', 300);
    now += 30 * 60_000;
    meter.record('context', 800, 100);
    expect(meter.report()).toEqual({
      window_seconds: 3600,
      calls: 3,
      response_tokens: 1600,
      reads_replaced_tokens: 2100,
      net_saved_tokens: 500,
      tools: {
        context: { calls: 2, response_tokens: 1300, reads_replaced_tokens: 2100, net_saved_tokens: 800 },
        search: { calls: 1, response_tokens: 300, reads_replaced_tokens: 0, net_saved_tokens: -300 },
      },
    });
    now += 31 * 60_000; // the first two are now older than an hour
    expect(meter.report()).toMatchObject({ calls: 1, response_tokens: 800, net_saved_tokens: -700 });
    expect(JSON.stringify(meter.report())).not.toMatch(/src\/|query|path/);
  });
});
