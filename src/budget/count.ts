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

/**
 * Tokens of an object that carries its own count in `field`, e.g. a result
 * item and its `tokens`, from one count of it with the field at 0. In JSON
 * the number stands between `:` and `,` or `}`, and the tokenizer's pieces
 * never join a digit to anything but digits, up to three to a token: n
 * written out costs ceil(digits / 3) tokens where 0 cost one.
 */
export function selfCountedJson(value: object, field: string): number {
  const base = countTokens(JSON.stringify({ ...value, [field]: 0 })) - 1;
  let n = base + 1;
  while (base + numberTokens(n) !== n) n = base + numberTokens(n);
  return n;
}

/** Tokens of a whole number written in JSON: its digits, three to a token. */
function numberTokens(n: number): number {
  return Math.ceil(String(n).length / 3);
}
