/** One repository's memory: its backend, the code index its links point into, and the answer budget. */
import type { CodeIndex } from './code.js';
import type { MemoryStore } from './types.js';

export interface Memory {
  store: MemoryStore;
  code: CodeIndex;
  /** The repository root link paths are confined to. */
  root: string;
  /** The token budget of an answer: the call's own, else the configured one, never above the ceiling. */
  budget(requested?: number): number;
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
