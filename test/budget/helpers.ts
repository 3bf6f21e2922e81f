/** Indexed fixture repositories for the budget and citation tests (keyword retrieval only, so counts are exact). */
import type { Config } from '../../src/config/index.js';
import { indexedRepo, type IndexedRepo } from '../helpers/fixture.js';

export type Indexed = IndexedRepo;

export const KEYWORD_ONLY = { SIGHTLINE_EMBEDDER: 'none' };

export function indexed(files: Record<string, string>, flags: Partial<Config> = {}): Promise<Indexed> {
  return indexedRepo({ files, flags, env: KEYWORD_ONLY });
}

/** `n` small TypeScript files under `dir`, each defining one function that mentions `word`. */
export function filesMentioning(dir: string, n: number, word: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    out[`${dir}/part${i}.ts`] = `export function part${i}(input: number): number {\n  // the ${word} of part ${i}\n  return input + ${i};\n}\n`;
  }
  return out;
}

/** A deterministic pseudo-random source (mulberry32), so a failing property case can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
