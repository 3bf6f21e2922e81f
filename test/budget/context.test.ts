/** Context bundles: exact response size, detail levels, fail-closed packing, receipts within and across calls. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/budget/index.js';
import { type ContextEnvelope, type ContextOptions } from '../../src/engine/index.js';
import { packContext } from '../../src/engine/context.js';
import { renderAnswer, toolResult } from '../../src/mcp/result.js';
import { SESSION_TOUCH_GRAIN_MS, SESSION_TTL_MS } from '../../src/store/index.js';
import { SessionTable } from '../../src/store/sessions.js';
import { indexed, seeded, type Indexed } from './helpers.js';

/** A small repository about sessions and tokens, with one large file of many chunks. */
export function contextFiles(): Record<string, string> {
  const big = Array.from({ length: 60 }, (_, i) =>
    [`export function refreshStep${i}(session: Session, token: string): boolean {`, `  // refresh step ${i} renews the session token`, `  return session.renew(token, ${i});`, '}', ''].join('\n'),
  ).join('\n');
  return {
    'src/auth/session.ts': [
      'import { hashToken } from "../util/crypto";',
      '',
      '/** A logged-in user session, renewed with a refresh token. */',
      'export class Session {',
      '  private tokens = new Map<string, string>();',
      '',
      '  renew(token: string, step: number): boolean {',
      '    const next = hashToken(token + step);',
      '    this.tokens.set(next, token);',
      '    return true;',
      '  }',
      '}',
      '',
    ].join('\n'),
    'src/auth/refresh.ts': big,
    'src/util/crypto.ts': 'import { createHash } from "node:crypto";\n\nexport function hashToken(input: string): string {\n  return createHash("sha256").update(input).digest("hex");\n}\n',
    'src/server/routes.ts': 'export function routeLogin(req: Request) {\n  // starts a session for the user and returns its refresh token\n  return new Response("ok");\n}\n',
    'docs/sessions.md': '# Sessions\n\nA session is renewed with its refresh token; see src/auth/session.ts.\n',
    'test/session.test.ts': 'import { Session } from "../src/auth/session";\n\ntest("renew keeps the token", () => {\n  expect(new Session().renew("t", 1)).toBe(true);\n});\n',
  };
}

function exactTokens(e: ContextEnvelope): number {
  return countTokens(JSON.stringify(e));
}

describe('context bundles', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed(contextFiles());
  });
  afterAll(() => fx.cleanup());
  const bundle = (o: Partial<ContextOptions>) => packContext(fx.repo, { task: 'renew the session refresh token', ...o });

  it('ranks and explains entries, each with exact tokens, full_read_tokens, content_hash, receipts and a citation', () => {
    const e = bundle({ budgetTokens: 4000 });
    expect(e.status).toBe('ok');
    expect(e.detail).toBe('slices');
    expect(e.entries.length).toBeGreaterThan(1);
    expect(e.response_tokens).toBe(exactTokens(e));
    expect(e.response_tokens).toBeLessThanOrEqual(4000);
    for (const entry of e.entries) {
      const text = fs.readFileSync(path.join(fx.root, entry.path), 'utf8');
      expect(entry.reasons.length).toBeGreaterThan(0);
      expect(entry.tokens).toBe(countTokens(entry.content!));
      expect(entry.full_read_tokens).toBe(countTokens(text));
      expect(entry.content_hash).toBe(fx.repo.store.files.get(entry.path)!.digest);
      expect(entry.citation_status).toBe('verified');
      expect(entry.units!.length).toBeGreaterThan(0);
      for (const u of entry.units!) {
        expect(u.receipt).toMatch(/^[0-9a-f]{12}$/);
        expect(text.split('\n').slice(u.lines[0] - 1, u.lines[1]).join('\n').length).toBeGreaterThan(0);
      }
    }
    const small = e.entries.find((x) => x.path === 'src/auth/session.ts')!;
    expect(small.whole).toBe(true);
    expect(e.reads_replaced_tokens).toBe(e.entries.filter((x) => x.whole).reduce((s, x) => s + x.full_read_tokens, 0));
  });

  it('slices of a large file are its matched chunks with their neighbours, not the whole file', () => {
    const e = bundle({ terms: ['refreshStep30'], budgetTokens: 6000 });
    const big = e.entries.find((x) => x.path === 'src/auth/refresh.ts')!;
    expect(e.entries[0]!.path).toBe('src/auth/refresh.ts'); // the named term's definition comes first
    expect(big.reasons).toContain('defines:refreshStep30');
    expect(big.whole).toBeUndefined();
    expect(big.tokens).toBeLessThan(big.full_read_tokens);
    expect(big.content).toContain('refreshStep30(');
  });

  it('paths and outline details send no code', () => {
    const paths = bundle({ detail: 'paths' });
    expect(paths.entries.every((x) => x.content === undefined && x.units === undefined && x.tokens === 0)).toBe(true);
    const outline = bundle({ detail: 'outline', terms: ['Session'] });
    const session = outline.entries.find((x) => x.path === 'src/auth/session.ts')!;
    expect(session.content).toContain('4-12 export class Session {');
    expect(session.content).toContain('  7-11 renew(token: string, step: number): boolean {');
    expect(session.units).toHaveLength(1);
    for (const e of [paths, outline]) expect(e.response_tokens).toBe(exactTokens(e));
  });

  it('auto picks the richest detail that yields a non-empty bundle', () => {
    expect(bundle({ detail: 'auto', budgetTokens: 8192 }).detail).toBe('slices');
    // Find a budget where no slice fits but an outline or a path does.
    const tight = [140, 160, 180, 200, 240].map((b) => bundle({ detail: 'auto', budgetTokens: b, top: 1, terms: ['refreshStep10'] }));
    for (const e of tight) {
      expect(e.response_tokens).toBeLessThanOrEqual(e.budget_tokens);
      if (e.detail !== 'slices' && e.entries.length > 0) {
        expect(bundle({ detail: 'slices', budgetTokens: e.budget_tokens, top: 1, terms: ['refreshStep10'] }).entries).toHaveLength(0);
      }
    }
    expect(tight.some((e) => e.detail !== 'slices' && e.entries.length > 0)).toBe(true);
  });

  it('names the top files whose slices do not fit, in rank order, within the budget', () => {
    const budget = 1200;
    const full = bundle({ budgetTokens: 100_000, top: 6, expand: false });
    const tight = bundle({ budgetTokens: budget, top: 6, expand: false });
    expect(tight.detail).toBe('slices');
    expect(tight.response_tokens).toBe(exactTokens(tight));
    expect(tight.response_tokens).toBeLessThanOrEqual(budget);
    // The files the unbounded bundle ranks first are there, in its order: the first with code, the rest named.
    expect(tight.entries.length).toBeGreaterThan(3);
    expect(tight.entries.map((e) => e.path)).toEqual(full.entries.slice(0, tight.entries.length).map((e) => e.path));
    expect(tight.entries[0]!.units?.length).toBeGreaterThan(0);
    const named = tight.entries.filter((e) => !e.units);
    expect(named.length).toBeGreaterThan(0);
    for (const e of named) {
      expect(e.content).toBeUndefined();
      expect(e.tokens).toBe(0);
      expect(e.full_read_tokens).toBeGreaterThan(0);
      expect(e.reasons.length).toBeGreaterThan(0);
    }
    expect(tight.omitted).toBe(full.entries.length - tight.entries.length);
  });

  it('fails closed when nothing fits, with a retry budget that admits an entry', () => {
    const e = bundle({ detail: 'slices', budgetTokens: 128, terms: ['refreshStep5'] });
    expect(e.entries).toEqual([]);
    expect(e.response_tokens).toBe(exactTokens(e));
    expect(e.response_tokens).toBeLessThanOrEqual(128);
    expect(e.retry_budget_tokens).toBeGreaterThan(128);
    const retry = bundle({ detail: 'slices', budgetTokens: e.retry_budget_tokens!, terms: ['refreshStep5'] });
    expect(retry.entries.length).toBeGreaterThan(0);
    expect(retry.response_tokens).toBeLessThanOrEqual(e.retry_budget_tokens!);
  });

  it('refuses budgets and tops out of range with a sentence', () => {
    expect(() => bundle({ budgetTokens: 10 })).toThrow(/budget_tokens must be a whole number from 128 to 200000/);
    expect(() => bundle({ top: 51 })).toThrow(/top must be a whole number from 1 to 50/);
    expect(() => packContext(fx.repo, { task: '  ' })).toThrow(/context needs a task/);
  });

  it('counts the response exactly as the MCP face sends it', () => {
    const e = packContext(fx.repo, { task: 'renew the session refresh token', phase: 'serving', budgetTokens: 3000 });
    const sent = toolResult(renderAnswer(e, 'serving')).content[0] as { text: string };
    expect(countTokens(sent.text)).toBe(e.response_tokens);
  });
});

describe('receipts and reuse', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed(contextFiles());
  });
  afterAll(() => fx.cleanup());
  const task = 'renew the session refresh token';

  it('units sent back in seen are not sent again; they are listed in reused and not charged', () => {
    const first = packContext(fx.repo, { task, budgetTokens: 3000 });
    const seen = first.entries.flatMap((e) => e.units!.map((u) => u.receipt));
    const second = packContext(fx.repo, { task, budgetTokens: 3000, seen });
    const again = second.entries.flatMap((e) => (e.units ?? []).map((u) => u.receipt));
    expect(again.filter((r) => seen.includes(r))).toEqual([]);
    for (const e of first.entries) expect(second.reused).toContainEqual(expect.objectContaining({ path: e.path, content_hash: e.content_hash }));
  });

  it('a whole-file claim is honoured only for a version delivered whole', () => {
    const file = fx.repo.store.files.get('src/auth/session.ts')!;
    const claim = `src/auth/session.ts@${file.digest}`;
    // never delivered (no session, no receipts): ignored, and the file is sent
    const cold = packContext(fx.repo, { task, known: [claim], budgetTokens: 4000 });
    expect(cold.known_ignored).toContainEqual({ claim, reason: 'not_delivered_whole' });
    expect(cold.entries.map((e) => e.path)).toContain('src/auth/session.ts');
    // delivered whole in a session: honoured there
    const session = 'whole-claim';
    const delivered = packContext(fx.repo, { task, session, budgetTokens: 4000 });
    expect(delivered.entries.find((e) => e.path === 'src/auth/session.ts')?.whole).toBe(true);
    const warm = packContext(fx.reopen(), { task, session, known: [claim], budgetTokens: 4000 });
    expect(warm.known_ignored).toBeUndefined();
    expect(warm.reused).toContainEqual({ path: 'src/auth/session.ts', content_hash: file.digest, whole: true });
    // a claim on another version is not honoured
    const old = packContext(fx.repo, { task, session, known: ['src/auth/session.ts@0000000000000000'], budgetTokens: 4000 });
    expect(old.known_ignored).toContainEqual({ claim: 'src/auth/session.ts@0000000000000000', reason: 'version_changed' });
    // partial delivery of a big file never makes it whole
    const big = fx.repo.store.files.get('src/auth/refresh.ts')!;
    const partial = packContext(fx.repo, { task, session, known: [`src/auth/refresh.ts@${big.digest}`], budgetTokens: 4000 });
    expect(partial.known_ignored).toContainEqual({ claim: `src/auth/refresh.ts@${big.digest}`, reason: 'not_delivered_whole' });
  });

  it('with a session, nothing is delivered twice across calls and processes, and the bookkeeping is persisted', () => {
    const session = 'persisted';
    const delivered = new Set<string>();
    for (let call = 0; call < 4; call++) {
      const repo = call % 2 ? fx.reopen() : fx.repo;
      const e = packContext(repo, { task, session, budgetTokens: 700 });
      for (const r of e.entries.flatMap((x) => (x.units ?? []).map((u) => u.receipt))) {
        expect(delivered.has(r), `receipt ${r} sent twice`).toBe(false);
        delivered.add(r);
      }
      expect(e.response_tokens).toBeLessThanOrEqual(700);
    }
    expect(delivered.size).toBeGreaterThan(0);
    expect(fx.repo.store.sessions.holds(session, [...delivered][0]!)).toBe(true);
  });

  it('sessions expire a day after their last use', () => {
    let now = 1_000_000_000;
    const table = new SessionTable(fx.repo.store.db, () => now);
    table.record('old', ['aaaaaaaaaaaa']);
    table.refuse('old', 3);
    now += SESSION_TTL_MS - 1;
    table.touch('other');
    expect(table.holds('old', 'aaaaaaaaaaaa')).toBe(true);
    now += 2;
    table.touch('other'); // touched 2 ms ago: only read, so nothing is purged yet
    expect(table.holds('old', 'aaaaaaaaaaaa')).toBe(true);
    now += SESSION_TOUCH_GRAIN_MS;
    table.touch('other'); // a grain later the touch writes, and purges what expired
    expect(table.holds('old', 'aaaaaaaaaaaa')).toBe(false);
    expect(table.refusals('old')).toBe(0);
  });
});

describe('property: the budget always holds and nothing is sent twice in a session', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed(contextFiles());
  });
  afterAll(() => fx.cleanup());

  const WORDS = ['session', 'refresh', 'token', 'renew', 'hash', 'crypto', 'route', 'login', 'user', 'step', 'response', 'docs', 'zebra'];
  const DETAILS = ['auto', 'slices', 'outline', 'paths'] as const;

  it('for random budgets, tasks and details', () => {
    const random = seeded(20240611);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    for (let s = 0; s < 6; s++) {
      const session = `prop-${s}`;
      const delivered = new Set<string>();
      for (let call = 0; call < 8; call++) {
        const task = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)).join(' ');
        const budget = 128 + Math.floor(random() ** 2 * 6000);
        const detail = pick(DETAILS);
        const terms = random() < 0.3 ? [`refreshStep${Math.floor(random() * 60)}`] : undefined;
        const e = packContext(fx.repo, { task, terms, detail, budgetTokens: budget, session, top: 1 + Math.floor(random() * 10) });
        const where = `session ${s} call ${call}: ${JSON.stringify({ task, detail, budget, terms })}`;
        expect(e.response_tokens, where).toBeLessThanOrEqual(budget);
        expect(exactTokens(e), where).toBe(e.response_tokens);
        for (const r of e.entries.flatMap((x) => (x.units ?? []).map((u) => u.receipt))) {
          expect(delivered.has(r), `${where}: receipt ${r} sent twice`).toBe(false);
          delivered.add(r);
        }
      }
    }
  });
});
