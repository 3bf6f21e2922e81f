/**
 * Issue 21, the suite's seeded slice of `bench:soak`'s fuzz: every tool (the
 * writing ones too) with random and adversarial arguments over stdio. Each
 * call is answered or refused by name; none is an internal error, none hangs,
 * and the server answers normally afterwards.
 */
import { describe, expect, it } from 'vitest';
import { callFuzzed, fuzzCalls, type Outcome } from '../../bench/fuzz.js';
import { SAMPLE_FILES } from '../helpers/fixture.js';
import { call, useServedRepo } from '../mcp/harness.js';

const CALLS = 400;
const SEED = 21;

const served = useServedRepo(SAMPLE_FILES, { args: ['--enable-writes'] });

describe('fuzzed tool calls', () => {
  it(`answers or refuses ${CALLS} seeded calls across every tool, with no internal error`, async () => {
    const { tools } = await served.conn.client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    const counts: Record<Outcome, number> = { ok: 0, refusal: 0, internal: 0 };
    const internal: string[] = [];
    for (const c of fuzzCalls(tools, CALLS, SEED)) {
      const r = await callFuzzed(served.conn.client, c, 30_000);
      counts[r.outcome]++;
      if (r.outcome === 'internal') internal.push(`${c.name} ${JSON.stringify(c.arguments).slice(0, 200)}: ${r.text}`);
    }
    expect(internal).toEqual([]);
    expect(counts.ok).toBeGreaterThan(0);
    expect(counts.refusal).toBeGreaterThan(0);
    expect(served.conn.stderr()).not.toMatch(/tool \w+ failed/);
    const after = await call(served.conn.client, 'search', { query: 'SessionManager' });
    expect(after.results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
  }, 240_000);
});
