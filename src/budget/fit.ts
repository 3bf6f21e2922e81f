/**
 * Fitting a listing answer (related, outline, list_files, changed) under a token budget, the
 * whole response counted as it is sent. Lists fill in priority order, each keeping its first
 * items (a list that runs out of room leaves the rest to the next); then the response is counted
 * exactly and trimmed further in the rare case the running estimate was short.
 */
import { usageError } from '../errors/index.js';
import { jsonTokens, selfCountedTokens } from './count.js';

type Lists = Record<string, readonly unknown[]>;

/** What a fitted answer adds to its envelope. */
export interface FitFields {
  /** Tokens of the whole response as sent, this field included. */
  response_tokens: number;
  /** Items left out to fit, per list; absent when nothing was. */
  omitted?: Record<string, number>;
  /** How to get what was left out; absent when nothing was. */
  more?: string;
}

/** Per item: a comma, and tokens that merge differently across a boundary. */
const ITEM_SLACK = 2;

/** The longest prefix of `items` whose JSON fits `budget` tokens, and what it costs (separators included). */
export function prefixWithin<T>(items: readonly T[], budget: number): { kept: T[]; tokens: number } {
  let tokens = 0;
  let n = 0;
  for (const item of items) {
    const cost = jsonTokens(item) + ITEM_SLACK;
    if (tokens + cost > budget) break;
    tokens += cost;
    n++;
  }
  return { kept: items.slice(0, n), tokens };
}

/**
 * `frame` is the envelope without its lists. `more` says how to get the rest (raise max_tokens,
 * narrow the call), or gives the fields that do (a cursor after the items shown); it is sent
 * only when something was left out. `caps` bounds a list's items whatever the budget.
 */
export function fitLists<F extends object, L extends Lists>(
  frame: F,
  lists: L,
  budget: number,
  more: string | ((shown: L) => object),
  caps: Partial<Record<keyof L, number>> = {},
): F & L & FitFields {
  const keys = Object.keys(lists) as (keyof L & string)[];
  const kept = Object.fromEntries(keys.map((k) => [k, 0])) as Record<keyof L, number>;
  const build = (n: number): F & L & FitFields => {
    const omitted: Record<string, number> = {};
    for (const k of keys) if (kept[k] < lists[k]!.length) omitted[k] = lists[k]!.length - kept[k];
    const cut = Object.keys(omitted).length > 0;
    const shown = Object.fromEntries(keys.map((k) => [k, lists[k]!.slice(0, kept[k])])) as unknown as L;
    const how = typeof more === 'string' ? { more } : more(shown);
    return { ...frame, ...shown, response_tokens: n, ...(cut ? { omitted, ...how } : {}) };
  };
  // Start from the frame with every item counted as omitted: the largest the fields around the lists get.
  let used = jsonTokens(build(budget));
  for (const k of keys) {
    const fits = prefixWithin(lists[k]!.slice(0, caps[k]), budget - used);
    kept[k] = fits.kept.length;
    used += fits.tokens;
  }
  for (;;) {
    const tokens = selfCountedTokens((n) => JSON.stringify(build(n)));
    const last = [...keys].reverse().find((k) => kept[k] > 0);
    if (tokens <= budget) return build(tokens);
    // Even with every list empty the answer is larger: refuse rather than leave the budget.
    if (last === undefined) throw usageError(`max_tokens ${budget} is too small for this answer, whose fields alone take ${tokens} tokens; pass at least ${tokens}`);
    kept[last]--;
  }
}
