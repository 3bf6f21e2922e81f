/** Picks the lines of a chunk that best show why it matched. */
import { forEachTerm } from '../terms/index.js';

const SNIPPET_LINES = 3;
const MAX_LINE_CHARS = 200;

export function numberedLine(lineNo: number, line: string): string {
  const text = line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + '…' : line;
  return `${lineNo}: ${text}`;
}

/** Where each line of `text` starts (lower-casing and dropping underscores keep the lines, so a flattened text's lines are the text's). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The line holding offset `at`, by binary search over the line starts. */
export function lineAt(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The lines that may hold a query term, in order: every term of a line is a
 * substring of it lower-cased without underscores (terms.ts), so the text is
 * flattened once and only lines where a term's piece occurs are split.
 */
function mayHold(text: string, terms: Set<string>): number[] {
  const flat = text.toLowerCase().replaceAll('_', '');
  const starts = lineStarts(flat);
  const lines = new Set<number>();
  for (const t of terms) {
    for (let at = flat.indexOf(t); at >= 0; ) {
      const i = lineAt(starts, at);
      lines.add(i);
      const next = starts[i + 1];
      at = next === undefined ? -1 : flat.indexOf(t, next);
    }
  }
  return [...lines].sort((a, b) => a - b);
}

/** Up to three lines holding the most query terms (ties: earliest), in line order. */
export function snippetFor(text: string, startLine: number, terms: Set<string>): string {
  const lines = text.split('\n');
  const scored: { i: number; hits: number }[] = [];
  for (const i of mayHold(text, terms)) {
    let hits = 0;
    forEachTerm(lines[i]!, (t) => {
      if (terms.has(t)) hits++;
    });
    if (hits > 0) scored.push({ i, hits });
  }
  const chosen = (scored.length ? scored.sort((a, b) => b.hits - a.hits || a.i - b.i) : lines.map((_, i) => ({ i, hits: 0 })))
    .slice(0, SNIPPET_LINES)
    .sort((a, b) => a.i - b.i);
  return chosen.map(({ i }) => numberedLine(startLine + i, lines[i]!.trimEnd())).join('\n');
}
