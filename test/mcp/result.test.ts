/**
 * A read worker renders its answer with the phase the repository had when
 * the question left; if the phase moved meanwhile, the main thread renders it
 * again from the text. The text must be what rendering the envelope with the
 * new phase gives, byte for byte, and the token count must be its own.
 */
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/budget/index.js';
import type { IndexReadiness } from '../../src/engine/index.js';
import { renderAnswer, rephased } from '../../src/mcp/result.js';

const PHASES: IndexReadiness[] = ['building', 'serving'];
const ENVELOPES: object[] = [
  { status: 'ok', results: [{ path: 'a.ts' }, { path: 'b.ts' }], tokens: 12 },
  { status: 'ok', mode: 'hybrid', retrieval_phase: 'keyword_only', query: 'q', total: 1, results: [] },
  { status: 'refine', reason: 'breadth', refusal_count: 1, reads_replaced_tokens: 40 },
];

describe('rendered answers', () => {
  it('re-rendered for another phase equal a fresh rendering, text and tokens', () => {
    for (const envelope of ENVELOPES) {
      for (const from of PHASES) {
        for (const to of PHASES) {
          const again = rephased(renderAnswer(envelope, from), to);
          const fresh = renderAnswer(envelope, to);
          expect(again).toEqual(fresh);
          expect(again.tokens).toBe(countTokens(again.text));
        }
      }
    }
  });

  it('carry the result count and the tokens a context bundle replaced', () => {
    expect(renderAnswer(ENVELOPES[0]!, 'serving')).toMatchObject({ returned: 2, replaced: 0, ownPhase: null });
    expect(renderAnswer(ENVELOPES[2]!, null)).toMatchObject({ returned: 1, replaced: 40, text: JSON.stringify(ENVELOPES[2]) });
  });
});
