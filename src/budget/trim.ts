/** Trimming an answer that passed the gate to its token budget, best first. */
import { selfCountedJson } from './count.js';

export interface Trimmed<T> {
  /** The best items that fit, in their order, each with its exact `tokens`. */
  kept: (T & { tokens: number })[];
  /** Sum of the kept items' tokens. */
  tokens: number;
  /** Items cut to stay within the budget. */
  omitted: number;
}

/**
 * Keeps the longest prefix of `items` (best first) whose tokens fit `budget`.
 * An item's tokens are those of its JSON as delivered, its own `tokens` field
 * included, so the sum is what the results cost on the wire.
 */
export function trimToBudget<T extends object>(items: T[], budget: number): Trimmed<T> {
  const kept: (T & { tokens: number })[] = [];
  let tokens = 0;
  for (const item of items) {
    const cost = selfCountedJson(item, 'tokens');
    if (tokens + cost > budget) break;
    kept.push({ ...item, tokens: cost });
    tokens += cost;
  }
  return { kept, tokens, omitted: items.length - kept.length };
}
