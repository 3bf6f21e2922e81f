/** Answers that can be large (scan, neighbors, a big record's recall) cut to their token budget. */
import { jsonTokens } from '../budget/index.js';

/** Keeps the longest prefix of `list` whose envelope fits `maxTokens` (binary search; one count per probe). */
export function fitList<T, E extends object>(list: T[], maxTokens: number, envelope: (kept: T[]) => E): { value: E; cut: number } {
  if (jsonTokens(envelope(list)) <= maxTokens) return { value: envelope(list), cut: 0 };
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonTokens(envelope(list.slice(0, mid))) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return { value: envelope(list.slice(0, lo)), cut: list.length - lo };
}

/** Cuts a text (a record's body) until the envelope fits, on a character boundary found by binary search. */
export function fitText<E extends object>(text: string, maxTokens: number, envelope: (text: string, cut: boolean) => E): E {
  if (jsonTokens(envelope(text, false)) <= maxTokens) return envelope(text, false);
  let lo = 0;
  let hi = text.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonTokens(envelope(text.slice(0, mid), true)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return envelope(text.slice(0, lo), true);
}
