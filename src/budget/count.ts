/** Exact token counts of JSON as it goes on the wire. */
import { countTokens } from './tokens.js';

export function jsonTokens(value: unknown): number {
  return countTokens(JSON.stringify(value));
}

/**
 * Tokens of a text that states its own token count (`render(n)` embeds n).
 * The count moves by at most a token or two as n changes digits, so a few
 * rounds reach a fixed point; if they do not, the larger count is returned,
 * which never understates the cost.
 */
export function selfCountedTokens(render: (n: number) => string): number {
  let n = countTokens(render(0));
  for (let round = 0; round < 4; round++) {
    const m = countTokens(render(n));
    if (m === n) return n;
    if (round === 3) return Math.max(m, n);
    n = m;
  }
  return n;
}

/** Tokens of an object that carries its own count in `field`, e.g. a result item and its `tokens`. */
export function selfCountedJson(value: object, field: string): number {
  return selfCountedTokens((n) => JSON.stringify({ ...value, [field]: n }));
}
