/**
 * Packing a bundle under a hard token ceiling. Candidates come best first;
 * each can deliver its units (slices, an outline) in priority order, or
 * nothing but itself when it has none. Entries are added greedily while the
 * running count fits, then the response is counted exactly as it will be
 * sent, and trimmed further in the rare case the exact count disagrees.
 */
import { jsonTokens, selfCountedTokens } from './count.js';
import { countTokens } from './tokens.js';

export interface PackCandidate<E> {
  /** Units it can deliver, in priority order; 0 for an entry that is only a name. */
  units: number;
  /**
   * Units it delivers whatever else fits: an entry packed before, now offered more. Its cost is
   * reserved up front, so what later candidates add never displaces it.
   */
  min?: number;
  /** The entry delivering its first `take` units. */
  build(take: number): E;
}

export interface PackOptions<E> {
  budget: number;
  /** Most entries in the bundle. */
  top: number;
  candidates: PackCandidate<E>[];
  /** The response around `entries`, stating its own size. */
  render(entries: E[], responseTokens: number): string;
}

export interface Packed<E> {
  entries: E[];
  /** For each entry: which candidate it came from and how many units it delivers. */
  picks: { candidate: number; take: number }[];
  responseTokens: number;
}

/** Per entry: a comma, and tokens that merge differently across a boundary. */
const ENTRY_SLACK = 2;

export function pack<E>(options: PackOptions<E>): Packed<E> {
  const { budget, candidates } = options;
  const picks: { candidate: number; take: number }[] = [];
  const cost = (c: PackCandidate<E>, take: number) => jsonTokens(c.build(take)) + ENTRY_SLACK;
  const reserved = (c: PackCandidate<E>) => (c.min === undefined ? 0 : cost(c, c.min));
  const floor = (p: { candidate: number }) => candidates[p.candidate]!.min ?? 1;
  let used = countTokens(options.render([], budget)); // the budget has as many digits as any count that fits
  for (const c of candidates) used += reserved(c);
  for (let i = 0; i < candidates.length && picks.length < options.top; i++) {
    const c = candidates[i]!;
    const base = reserved(c);
    let take = c.min ?? (c.units === 0 ? 0 : 1);
    let spent = cost(c, take) - base;
    if (used + spent > budget && c.min === undefined) continue;
    // The most units that fit: costs grow with units, so search.
    let hi = c.units;
    while (take < hi) {
      const mid = (take + hi + 1) >> 1;
      const midCost = cost(c, mid) - base;
      if (used + midCost <= budget) {
        take = mid;
        spent = midCost;
      } else {
        hi = mid - 1;
      }
    }
    picks.push({ candidate: i, take });
    used += spent;
  }
  for (;;) {
    const entries = picks.map((p) => candidates[p.candidate]!.build(p.take));
    const responseTokens = selfCountedTokens((n) => options.render(entries, n));
    if (responseTokens <= budget || picks.length === 0) return { entries, picks, responseTokens };
    // Give back the last entry's last unit, or the entry; a reserved entry keeps its reserved units
    // while anything else can give, and goes last: the ceiling holds whatever was reserved.
    const shrink = [...picks].reverse().find((p) => p.take > floor(p));
    const last = picks[picks.length - 1]!;
    if (candidates[last.candidate]!.min === undefined && last.take <= 1) picks.pop();
    else if (shrink) shrink.take--;
    else picks.pop();
  }
}
