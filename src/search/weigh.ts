/**
 * The signals a candidate file carries into the file ranking (learned.ts
 * weighs them), and the demotion chunk rankings apply to files whose role is
 * not the code itself.
 */

/** The raw value of each signal for one file, and whether its role demotes it. */
export interface SignalValues {
  path: string;
  demoted: boolean;
  /** The sum of its best chunks' BM25. */
  content: number;
  history: number;
  definition: number;
  mention: number;
  name: number;
  /** How near the file lies to the query in embedding space (0–1; 0 without vectors). */
  semantic: number;
}

/** The factor for chunks of tests, docs, examples and the like in `search` without --files (rank.ts, hybrid.ts). */
export const CHUNK_DEMOTE = 0.1;
