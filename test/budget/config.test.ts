/** The gate and context knobs in the one config schema: precedence, clamping, clear errors. */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { makeRepo, removeDir } from '../helpers/fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function withFile(config: unknown): string {
  const root = makeRepo({ 'sightline.config.json': JSON.stringify(config) });
  dirs.push(root);
  return root;
}

describe('budget configuration', () => {
  it('defaults to the documented limits', () => {
    expect(loadConfig({ env: {} })).toMatchObject({
      maxFiles: 25,
      maxHits: 120,
      maxTokens: 6000,
      minRelevance: 0.35,
      absoluteMaxTokens: 24000,
      compoundMargin: 0.15,
      maxRefusals: 3,
      contextBudgetTokens: 8192,
      contextTop: 15,
      contextDetail: 'auto',
    });
  });

  it('takes flag over env over file', () => {
    const root = withFile({ maxFiles: 10, contextDetail: 'outline' });
    expect(loadConfig({ repoRoot: root, env: {} })).toMatchObject({ maxFiles: 10, contextDetail: 'outline' });
    const env = { SIGHTLINE_MAX_FILES: '12', SIGHTLINE_MIN_RELEVANCE: '0.5', SIGHTLINE_CONTEXT_DETAIL: 'paths' };
    expect(loadConfig({ repoRoot: root, env })).toMatchObject({ maxFiles: 12, minRelevance: 0.5, contextDetail: 'paths' });
    expect(loadConfig({ repoRoot: root, env, flags: { maxFiles: 14 } }).maxFiles).toBe(14);
  });

  it('clamps out-of-range numbers with a warning, and keeps max_tokens under the absolute ceiling', () => {
    const warnings: string[] = [];
    const c = loadConfig({ env: { SIGHTLINE_MIN_RELEVANCE: '2', SIGHTLINE_CONTEXT_TOP: '500', SIGHTLINE_MAX_TOKENS: '30000' }, warn: (m) => warnings.push(m) });
    expect(c.minRelevance).toBe(1);
    expect(c.contextTop).toBe(50);
    expect(c.maxTokens).toBe(24000);
    expect(warnings.join('\n')).toMatch(/minRelevance=2 is outside 0..1; using 1/);
    expect(warnings.join('\n')).toMatch(/maxTokens=30000 is above absoluteMaxTokens=24000; using 24000/);
  });

  it('names the field of an invalid config file', () => {
    expect(() => loadConfig({ repoRoot: withFile({ contextDetail: 'everything' }), env: {} })).toThrow(/field "contextDetail"/);
    expect(() => loadConfig({ repoRoot: withFile({ maxHits: 'many' }), env: {} })).toThrow(/field "maxHits"/);
  });
});
