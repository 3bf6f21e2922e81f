/** The CLI's text for a refusal says what kind of refusal it is. */
import { describe, expect, it } from 'vitest';
import { gate, gateLimits, memoryLedger, type GateHit } from '../../src/budget/index.js';
import { renderRefine } from '../../src/cli/render-budget.js';
import { defaultConfig } from '../../src/config/defaults.js';

const LIMITS = gateLimits(defaultConfig());

function refusal(hits: GateHit[]): string {
  const d = gate({ hits, estTokens: 500, limits: LIMITS, ledger: memoryLedger(), suggest: () => [], forcedYield: 3 });
  if (d.pass) throw new Error('expected a refusal');
  return renderRefine(d.refine);
}

describe('renderRefine', () => {
  it('calls a question with no match that covers it weak, not broad', () => {
    const text = refusal([{ path: 'src/a.ts', relevance: 0.2 }]);
    expect(text).toMatch(/^no strong match \(relevance\): 0 hits in 0 files, about 500 tokens, best relevance 0.2\n/);
    expect(text).toMatch(/use_force {2}→ 3 hits/);
  });

  it('calls a question spread over too many files broad', () => {
    const hits = Array.from({ length: 40 }, (_, i) => ({ path: `src/f${i}.ts`, relevance: 0.9 }));
    expect(refusal(hits)).toMatch(/^too broad \(breadth\): 40 hits in 40 files/);
  });
});
