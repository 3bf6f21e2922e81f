/** The gate in front of search, locate and read, on fixture repositories with known numbers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefineEnvelope } from '../../src/budget/index.js';
import { countTokens, jsonTokens } from '../../src/budget/index.js';
import { type GatedSearchEnvelope } from '../../src/engine/index.js';
import { gatedLocate } from '../../src/engine/locate.js';
import { gatedRead } from '../../src/engine/read.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { bestEffort } from '../../src/engine/gated.js';
import { filesMentioning, indexed, type Indexed } from './helpers.js';

const isRefine = (e: { status: string }): e is RefineEnvelope => e.status === 'refine';

function refined(e: { status: string }): RefineEnvelope {
  expect(e.status).toBe('refine');
  return e as RefineEnvelope;
}

function ok<T extends { status: string }>(e: T | RefineEnvelope): T {
  if (isRefine(e)) throw new Error(`expected ok, got refine: ${JSON.stringify(e)}`);
  return e;
}

describe('demoted hits behind the gate', () => {
  let fx: Indexed;
  beforeAll(async () => {
    const demoted: Record<string, string> = {};
    for (let i = 0; i < 15; i++) {
      demoted[`locale/l${i}/messages.txt`] = `msgid "widget"\nmsgstr "widget ${i}"\nmsgid "gadget"\nmsgstr "gadget ${i}"\n`;
      demoted[`test/part${i}.test.ts`] = `import { widget, gadget } from "../src/part0";\ntest("widget ${i}", () => expect(gadget(widget(${i}))).toBe(${i}));\n`;
    }
    fx = await indexed({ ...demoted, ...filesMentioning('src', 3, 'widget') });
  });
  afterAll(() => fx.cleanup());

  it('a question is not broad for what 15 tests and 15 translation catalogs repeat: the code it leads with is counted', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'widget', mode: 'keyword' }));
    expect(e.total).toBe(3);
    expect(e.results.slice(0, 3).map((r) => r.path).sort()).toEqual(['src/part0.ts', 'src/part1.ts', 'src/part2.ts']);
  });

  it('a word found only in demoted files is counted there, and judged', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'gadget', mode: 'keyword' }));
    expect(r.summary).toMatchObject({ total_found: 30, files: 30 });
    expect(r.reason).toBe('breadth');
  });
});

describe('search behind the gate', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({
      ...filesMentioning('lib/alpha', 20, 'widget'),
      ...filesMentioning('lib/beta', 10, 'widget'),
      'lib/gamma/other.ts': 'export const unrelated = 1;\n',
    });
  });
  afterAll(() => fx.cleanup());

  it('refuses a question spread over 30 files (breadth) with the distribution and computed would_yield', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'widget' }));
    expect(r.reason).toBe('breadth');
    expect(r.summary).toMatchObject({ total_found: 30, files: 30, top_score: 1 });
    expect(r.distribution).toEqual([
      { dir: 'lib/alpha', hits: 20, files: 20 },
      { dir: 'lib/beta', hits: 10, files: 10 },
    ]);
    const scopes = r.suggestions.filter((s) => s.action === 'narrow_scope');
    expect(scopes.map((s) => [s.arg, s.would_yield])).toEqual([
      ['lib/alpha', 20],
      ['lib/beta', 10],
    ]);
    expect(r.suggestions.at(-1)).toMatchObject({ action: 'use_force', would_yield: 10 });
    expect(r.note).toMatch(/pass force \(refusals are counted only within a session\)$/);
    expect(r.summary.est_tokens).toBeGreaterThan(0);
  });

  it('would_yield is what the narrowed call returns', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'widget' }));
    for (const s of r.suggestions.filter((x) => x.action === 'narrow_scope')) {
      const narrowed = ok(gatedSearch(fx.repo, { query: 'widget', scope: s.arg, k: 50 }));
      expect(narrowed.total).toBe(s.would_yield);
      expect(narrowed.results.filter((x) => x.path.startsWith(`${s.arg}/`))).toHaveLength(s.would_yield);
    }
  });

  it('force answers, trimmed, with every result cited and counted', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'widget', force: true, k: 30, maxTokens: 400 }));
    expect(e.gate_note).toMatch(/forced past the gate \(breadth\)/);
    expect(e.tokens).toBeLessThanOrEqual(400);
    expect(e.results.length + e.omitted).toBe(30);
    expect(e.omitted).toBeGreaterThan(0);
    for (const x of e.results) {
      expect(x.citation_status).toBe('verified');
      expect(x.tokens).toBe(countTokens(JSON.stringify(x)));
    }
    expect(e.tokens).toBe(e.results.reduce((s, x) => s + x.tokens, 0));
  });

  it('refuses a bad k as search does', () => {
    expect(() => gatedSearch(fx.repo, { query: 'widget', k: 0 })).toThrow(/k must be a positive integer/);
  });

  it('a narrow question passes untouched', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'widget', scope: 'lib/beta' }));
    expect(e.results).toHaveLength(10);
    expect(e.omitted).toBe(0);
    expect(e.gate_note).toBeUndefined();
  });

  it('refuses a question whose best match holds little of it (relevance), and offers it without the words nothing holds', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'widget zorblax quuxifier frobnicate' }));
    expect(r.reason).toBe('relevance');
    expect(r.summary.top_score).toBeLessThan(0.35);
    expect(r.summary.total_found).toBe(0);
    const drop = r.suggestions.find((s) => s.action === 'drop_term');
    expect(drop).toMatchObject({ arg: 'zorblax quuxifier frobnicate', hint: 'ask "widget" instead (no indexed file holds "zorblax", "quuxifier", "frobnicate")' });
    // Counted in the matches at hand: the question without them holds every widget file there.
    expect(drop!.would_yield).toBe(refined(gatedSearch(fx.repo, { query: 'widget', force: false, session: 'drop-count' })).summary.total_found);
  });

  it('a call that narrowed itself (k, files, regex, scope) is answered within budget, not refused', () => {
    const session = 'narrowing';
    for (const narrowed of [{ k: 5 }, { files: true }, { regex: true }, { scope: 'lib' }]) {
      const e = ok(gatedSearch(fx.repo, { query: 'widget', maxTokens: 600, session, ...narrowed }));
      expect(e.results.length).toBeGreaterThan(0);
      expect(e.tokens).toBeLessThanOrEqual(600);
      const [name, value] = Object.entries(narrowed)[0]!;
      expect(e.gate_note).toMatch(new RegExp(`\\(breadth: \\d+ hits in \\d+ files\\).*because the call set ${name}${value === true ? '' : `: ${value}`}$`));
    }
    expect(ok(gatedSearch(fx.repo, { query: 'widget', k: 5 })).results).toHaveLength(5);
    // Answering a narrowed call is not a refusal: the session's count starts again.
    expect(refined(gatedSearch(fx.repo, { query: 'widget', session })).refusal_count).toBe(1);
    // Narrowing does not make weak matches strong: the note says so.
    const weak = ok(gatedSearch(fx.repo, { query: 'widget zorblax quuxifier frobnicate', scope: 'lib/beta' }));
    expect(weak.gate_note).toMatch(/no match covers enough of the question \(relevance/);
  });

  it('counts refusals per session in the index: three refusals, then the gate opens, even across processes', () => {
    const session = 'cap-test';
    const first = refined(gatedSearch(fx.repo, { query: 'widget', session }));
    expect(first.refusal_count).toBe(1);
    expect(first.note).toMatch(/after 2 more refusals in a row the gate opens$/);
    expect(refined(gatedSearch(fx.reopen(), { query: 'widget', session })).refusal_count).toBe(2);
    expect(refined(gatedSearch(fx.reopen(), { query: 'widget', session })).refusal_count).toBe(3);
    const opened = ok(gatedSearch(fx.reopen(), { query: 'widget', session }));
    expect(opened.gate_note).toMatch(/the gate opened after 3 refusals in a row in this session/);
    expect(opened.results.length).toBeGreaterThan(0);
    expect(refined(gatedSearch(fx.repo, { query: 'widget', session })).refusal_count).toBe(1);
    // another session has its own count
    expect(refined(gatedSearch(fx.repo, { query: 'widget', session: 'other' })).refusal_count).toBe(1);
  });

  it('a session whose bookkeeping cannot be written still gets answers', () => {
    const repo = fx.reopen();
    const readOnly = () => {
      throw Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    };
    repo.store.sessions.touch = readOnly;
    repo.store.sessions.refuse = readOnly;
    repo.store.sessions.clearRefusals = readOnly;
    expect(refined(gatedSearch(repo, { query: 'widget', session: 'read-only' })).refusal_count).toBe(1);
    expect(ok(gatedSearch(repo, { query: 'widget', scope: 'lib/beta', session: 'read-only' })).results).toHaveLength(10);
    expect(() => bestEffort(() => { throw new Error('a bug, not the disk'); })).toThrow('a bug, not the disk');
  });
});

describe('words to add', () => {
  let fx: Indexed;
  const caller = (kind: string, i: number) =>
    `import { withRetry } from "../../util/retry";\nexport async function ${kind}${i}(amount: number) {\n  // retry the ${kind} on a network error\n  return withRetry(() => send("${kind}", amount));\n}\n`;
  beforeAll(async () => {
    const files: Record<string, string> = { 'src/util/retry.ts': 'export async function withRetry<T>(fn: () => Promise<T>): Promise<T> {\n  return fn();\n}\n' };
    for (let i = 0; i < 18; i++) files[`src/card/charge${i}.ts`] = caller('charge', i);
    for (let i = 0; i < 12; i++) files[`src/bank/transfer${i}.ts`] = caller('transfer', i);
    fx = await indexed(files);
  });
  afterAll(() => fx.cleanup());

  it('offers words that split the hits, with would_yield the total of the call that adds them', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'retry' }));
    const terms = r.suggestions.filter((s) => s.action === 'add_term');
    expect(terms.length).toBeGreaterThan(0);
    for (const s of terms) {
      expect(s.would_yield).toBeLessThan(r.summary.total_found);
      const narrowed = ok(gatedSearch(fx.repo, { query: `retry ${s.arg}`, k: 50 }));
      expect(narrowed.total).toBe(s.would_yield);
    }
    expect(terms.map((s) => [s.arg, s.would_yield])).toContainEqual(['transfer', 12]);
  });
});

describe('breadth is judged on the candidate pool in every mode', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({ ...filesMentioning('lib/alpha', 20, 'widget'), ...filesMentioning('lib/beta', 10, 'widget') }, { embedder: 'builtin' });
  });
  afterAll(() => fx.cleanup());

  it('hybrid refuses the broad word that keyword mode refuses, with the same summary', () => {
    const keyword = refined(gatedSearch(fx.repo, { query: 'widget', mode: 'keyword' }));
    const hybrid = refined(gatedSearch(fx.repo, { query: 'widget' }));
    expect(hybrid.reason).toBe('breadth');
    expect(hybrid.summary.files).toBe(keyword.summary.files);
    expect(hybrid.summary.total_found).toBe(keyword.summary.total_found);
  });

  it('a hybrid answer that passes comes from the fused ranking', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'widget', k: 3 }));
    expect(e.mode).toBe('hybrid');
    expect(e.results).toHaveLength(3);
  });
});

describe('volume and compound', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({ ...filesMentioning('a', 8, 'gizmo'), ...filesMentioning('b', 4, 'gizmo') }, { maxHits: 5, maxFiles: 20 });
  });
  afterAll(() => fx.cleanup());

  it('too many hits is volume; too many hits and files is compound', () => {
    expect(refined(gatedSearch(fx.repo, { query: 'gizmo' })).reason).toBe('volume');
    expect(refined(gatedSearch(fx.reopen({ maxFiles: 3 }), { query: 'gizmo' })).reason).toBe('compound');
  });
});

describe('locate and read behind the gate', () => {
  let fx: Indexed;
  const bigBody = Array.from({ length: 400 }, (_, i) => `  const line${i} = Math.max(${i}, input) * ${i} + ${i * 7};`).join('\n');
  beforeAll(async () => {
    const callers: Record<string, string> = {};
    for (let i = 0; i < 30; i++) callers[`app/m${i % 3}/use${i}.ts`] = `import { makeWidget } from "../../lib/widget";\nimport { track } from "analytics";\nexport const w${i} = track(makeWidget(${i}));\n`;
    fx = await indexed(
      {
        ...callers,
        'lib/widget.ts': 'export function makeWidget(n: number) {\n  return { n };\n}\n',
        'lib/big.ts': `export function first(input: number) {\n${bigBody}\n  return input;\n}\n\nexport function second(input: number) {\n${bigBody}\n  return input;\n}\n`,
      },
      { absoluteMaxTokens: 5_000, maxTokens: 1_000 },
    );
  });
  afterAll(() => fx.cleanup());

  it('locate: a name with a definition is answered however widely it is used: definitions first, then references, with the files not read', () => {
    const e = ok(gatedLocate(fx.repo, { query: 'makeWidget', maxTokens: 800 }));
    expect(e.results[0]).toMatchObject({ path: 'lib/widget.ts', kind: 'definition' });
    // The code graph lists its import and call in each of the 30 files, 60 references, more than the 50 asked
    // for (the default): the 31 files that say the name are not checked for mentions the graph lacks.
    expect([e.total, e.unread_files]).toEqual([61, 31]);
    expect(e.tokens).toBeLessThanOrEqual(800);
    expect(e.gate_note).toMatch(/\(breadth: 61 hits in 31 files\).*"makeWidget" names a definition, which comes first$/);
  });

  it('search: an exact name with a definition is answered however broad, a name without one is still judged', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'makeWidget' }));
    expect(e.gate_note).toMatch(/"makeWidget" names a definition, which comes first$/);
    expect(e.results.map((r) => r.path)).toContain('lib/widget.ts');
    expect(refined(gatedSearch(fx.repo, { query: 'track' })).reason).toBe('breadth');
  });

  it('locate: a name used in 30 files with no definition is refused, with where it is used', () => {
    const r = refined(gatedLocate(fx.repo, { query: 'track' }));
    expect(r.reason).toBe('breadth');
    expect(r.distribution.map((d) => [d.dir, d.hits])).toEqual([
      ['app/m0', 20],
      ['app/m1', 20],
      ['app/m2', 20],
    ]);
    // `app` alone is still too broad, so its subdirectories are offered instead, counted in the matches at hand
    expect(r.suggestions.filter((s) => s.action === 'narrow_scope').map((s) => [s.arg, s.would_yield])).toEqual([
      ['app/m0', 20],
      ['app/m1', 20],
      ['app/m2', 20],
    ]);
    for (const s of r.suggestions.filter((x) => x.action === 'narrow_scope')) expect(ok(gatedLocate(fx.repo, { query: 'track', scope: s.arg })).total).toBe(s.would_yield);
    // A scope or max_results is the caller narrowing already: answered within budget, with how broad it was.
    const scoped = ok(gatedLocate(fx.repo, { query: 'track', scope: 'app', maxTokens: 500 }));
    expect(scoped.gate_note).toMatch(/\(breadth: 60 hits in 30 files\).*because the call set scope: app$/);
    expect(scoped.tokens).toBeLessThanOrEqual(500);
    expect(ok(gatedLocate(fx.repo, { query: 'track', maxResults: 5 })).results).toHaveLength(5);
    const defs = ok(gatedLocate(fx.repo, { query: 'makeWidget', kind: 'definition' }));
    expect(defs.results).toEqual([expect.objectContaining({ path: 'lib/widget.ts', kind: 'definition', citation_status: 'verified', tokens: expect.any(Number) })]);
  });

  it('read: a span over the absolute ceiling is refused with narrower spans and their exact tokens', async () => {
    const r = refined(await gatedRead(fx.repo, { target: 'lib/big.ts' }));
    expect(r.reason).toBe('volume');
    expect(r.summary.est_tokens).toBeGreaterThan(5_000);
    const spans = r.suggestions.filter((s) => s.action === 'narrow_scope');
    expect(spans.map((s) => s.arg)).toEqual(['lib/big.ts:1-403', 'lib/big.ts:405-807']);
    const first = ok(await gatedRead(fx.repo, { target: spans[0]!.arg!, force: true, maxTokens: 50_000 }));
    expect(spans[0]!.est_tokens).toBeGreaterThan(first.tokens); // trimmed to the ceiling
  });

  it('read: force never passes the absolute ceiling, and the cut says where to continue', async () => {
    const e = ok(await gatedRead(fx.repo, { target: 'lib/big.ts', force: true, maxTokens: 100_000 }));
    expect(e.tokens).toBeLessThanOrEqual(5_000);
    expect(e.tokens).toBe(jsonTokens(e.content)); // counted as sent: a JSON string
    expect(e.truncated).toBe(true);
    expect(e.next_start_line).toBe(e.end_line + 1);
    expect(e.gate_note).toMatch(/forced/);
    expect(e.citation_status).toBe('verified');
  });

  it('read: an answer that passes is trimmed to max_tokens, never over it', async () => {
    const e = ok(await gatedRead(fx.repo, { target: 'lib/big.ts:1-40', expand: false, maxTokens: 120 }));
    expect(e.tokens).toBeLessThanOrEqual(120);
    expect(e.truncated).toBe(true);
    const tiny = ok(await gatedRead(fx.repo, { target: 'lib/big.ts:2', expand: false, maxTokens: 1 }));
    expect(tiny.tokens).toBeLessThanOrEqual(1);
  });

  it('search results carry tokens and citations; the search total says how many matched', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'makeWidget', scope: 'lib' })) as GatedSearchEnvelope;
    expect(e.results[0]).toMatchObject({ path: 'lib/widget.ts', citation_status: 'verified', tokens: expect.any(Number) });
  });
});

describe('a question no match covers enough of', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({
      'src/session.ts': 'export function signCookie(cookie: string, signature: string): string {\n  return `${cookie}.${signature}`;\n}\n',
      'src/logout.ts': 'export function logout(user: string): void {\n  console.log(user);\n}\n',
      ...filesMentioning('lib', 6, 'helper'),
    });
  });
  afterAll(() => fx.cleanup());

  it('is offered as the question without the word nothing holds, which is then answered with what it promised', () => {
    const r = refined(gatedSearch(fx.repo, { query: 'how is the cookie signature rotated', mode: 'keyword' }));
    expect(r.reason).toBe('relevance');
    expect(r.suggestions[0]).toMatchObject({ action: 'drop_term', arg: 'rotated', hint: 'ask "how is the cookie signature" instead (no indexed file holds "rotated")' });
    const asked = ok(gatedSearch(fx.repo, { query: 'how is the cookie signature', mode: 'keyword' }));
    expect(asked.results[0]!.path).toBe('src/session.ts');
    expect(asked.total).toBeGreaterThanOrEqual(r.suggestions[0]!.would_yield);
  });
});
