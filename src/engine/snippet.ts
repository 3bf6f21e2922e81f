/** Picks the lines of a chunk that best show why it matched. */
import { forEachTerm } from '../terms/index.js';

const SNIPPET_LINES = 3;
const MAX_LINE_CHARS = 200;

export function numberedLine(lineNo: number, line: string): string {
  const text = line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + '…' : line;
  return `${lineNo}: ${text}`;
}

/**
 * Whether a line may hold a query term: every term of a line is a substring
 * of it lower-cased without underscores (terms.ts), so a line that fails this
 * holds none, and is not split into terms.
 */
function mayHold(line: string, terms: Set<string>): boolean {
  const flat = line.toLowerCase().replaceAll('_', '');
  for (const t of terms) if (flat.includes(t)) return true;
  return false;
}

/** Up to three lines holding the most query terms (ties: earliest), in line order. */
export function snippetFor(text: string, startLine: number, terms: Set<string>): string {
  const lines = text.split('\n');
  const scored: { i: number; hits: number }[] = [];
  lines.forEach((line, i) => {
    if (!mayHold(line, terms)) return;
    let hits = 0;
    forEachTerm(line, (t) => {
      if (terms.has(t)) hits++;
    });
    if (hits > 0) scored.push({ i, hits });
  });
  const chosen = (scored.length ? scored.sort((a, b) => b.hits - a.hits || a.i - b.i) : lines.map((_, i) => ({ i, hits: 0 })))
    .slice(0, SNIPPET_LINES)
    .sort((a, b) => a.i - b.i);
  return chosen.map(({ i }) => numberedLine(startLine + i, lines[i]!.trimEnd())).join('\n');
}
