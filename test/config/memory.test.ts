import { describe, expect, it } from 'vitest';
import { envName, loadConfig, memoryPlan, type MemoryPlan } from '../../src/config/index.js';
import { makeRepo, removeDir } from '../helpers/fixture.js';

describe('maxMemoryMB', () => {
  it('flag > SIGHTLINE_MAX_MEMORY_MB > config file > default 512', () => {
    const root = makeRepo({ 'sightline.config.json': JSON.stringify({ maxMemoryMB: 1024 }) });
    try {
      expect(loadConfig({ env: {} }).maxMemoryMB).toBe(512);
      expect(loadConfig({ repoRoot: root, env: {} }).maxMemoryMB).toBe(1024);
      const env = { SIGHTLINE_MAX_MEMORY_MB: '300' };
      expect(loadConfig({ repoRoot: root, env }).maxMemoryMB).toBe(300);
      expect(loadConfig({ repoRoot: root, env, flags: { maxMemoryMB: 256 } }).maxMemoryMB).toBe(256);
    } finally {
      removeDir(root);
    }
  });

  it('is read from SIGHTLINE_MAX_MEMORY_MB: a run of capitals is one word, and no other field changes its name', () => {
    expect(envName('maxMemoryMB')).toBe('SIGHTLINE_MAX_MEMORY_MB');
    expect(envName('fusionK0')).toBe('SIGHTLINE_FUSION_K0');
    expect(envName('databaseUrl')).toBe('SIGHTLINE_DATABASE_URL');
  });

  it('clamps a ceiling below what the fixed costs need, with a warning', () => {
    const warnings: string[] = [];
    expect(loadConfig({ env: { SIGHTLINE_MAX_MEMORY_MB: '16' }, warn: (m) => warnings.push(m) }).maxMemoryMB).toBe(128);
    expect(warnings[0]).toContain('maxMemoryMB=16');
  });
});

describe('memoryPlan', () => {
  const keys = Object.keys(memoryPlan(512)) as (keyof MemoryPlan)[];

  it('at the default ceiling keeps the sizes a pass had before the knob', () => {
    expect(memoryPlan(512)).toMatchObject({ batchFiles: 64, filesInFlight: 8, embedPage: 256, sqliteCacheKiB: 16_000, pieceCacheEntries: 50_000 });
    // and what a connection keeps between questions
    expect(memoryPlan(512)).toMatchObject({ keptTextKi: 16_384, keptTermChunkIds: 200_000 });
  });

  it('every size follows the ceiling: never larger under a lower one, and a lower ceiling lowers each', () => {
    const ceilings = [128, 200, 300, 512, 1024, 4096, 65_536];
    for (const key of keys) {
      const sizes = ceilings.map((c) => memoryPlan(c)[key]);
      expect(sizes, key).toEqual([...sizes].sort((a, b) => a - b));
      expect(memoryPlan(300)[key], key).toBeLessThan(memoryPlan(512)[key]);
    }
  });

  it('stays positive and bounded at the ends of the range', () => {
    for (const key of keys) {
      expect(memoryPlan(128)[key], key).toBeGreaterThan(0);
      expect(memoryPlan(65_536)[key], key).toBeLessThanOrEqual(2_000_000);
    }
    expect(memoryPlan(128).filesInFlight).toBeGreaterThanOrEqual(2); // both workers kept busy
  });
});
