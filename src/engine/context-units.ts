/**
 * The units a context bundle delivers from one file version: chunks of code
 * (the slices that matched, their neighbours, or the whole of a small file)
 * or the file's outline. Each unit has a receipt that is stable for the
 * version, so a caller or a session can say it already holds it.
 */
import { receiptFor } from '../budget/index.js';
import type { StoredChunk, StoredFile, Store } from '../store/index.js';

export interface Unit {
  receipt: string;
  /** The chunk it delivers (none for an outline). */
  chunkId?: number;
  /** Position among the version's chunks (-1 for an outline): consecutive units join without a gap mark. */
  ord: number;
  start_line: number;
  end_line: number;
  /** The definition the unit sits in, for slices. */
  symbol?: string;
  /** Why an expansion unit was added (`sibling-of:<path>:<line>`, ...); absent for what the ranking asked for. */
  reasons?: string[];
  text: string;
}

/** Matched chunks kept per file, each with its neighbours. */
const SLICES_PER_FILE = 3;
/** A file at most this many tokens is offered whole: reading it beats reading about it. */
export const WHOLE_FILE_TOKENS = 800;

function chunkUnit(file: StoredFile, c: StoredChunk, ord: number): Unit {
  return {
    receipt: receiptFor(file.path, file.digest, `${c.startLine}-${c.endLine}`),
    chunkId: c.id,
    ord,
    start_line: c.startLine,
    end_line: c.endLine,
    ...(c.symbol ? { symbol: c.symbol } : {}),
    text: c.text,
  };
}

/** Every chunk of the version, in order: delivering all of them is delivering the file whole. */
export function chunkUnits(store: Store, file: StoredFile): Unit[] {
  return store.chunks.ofFileId(file.id).map((c, i) => chunkUnit(file, c, i));
}

/**
 * Slices in priority order: the chunks holding the anchor lines (best
 * first), then their neighbours, then, for a small file, the rest of it.
 */
export function slicePlan(all: Unit[], anchors: number[], fileTokens: number): Unit[] {
  const picked: number[] = [];
  const pick = (i: number) => {
    if (i >= 0 && i < all.length && !picked.includes(i)) picked.push(i);
  };
  const holding = (line: number) => all.findIndex((u) => u.start_line <= line && line <= u.end_line);
  const best = [...new Set(anchors.map(holding).filter((i) => i >= 0))].slice(0, SLICES_PER_FILE);
  if (best.length === 0) pick(0);
  best.forEach(pick);
  for (const i of best) {
    pick(i - 1);
    pick(i + 1);
  }
  if (fileTokens <= WHOLE_FILE_TOKENS) all.forEach((_, i) => pick(i));
  return picked.map((i) => all[i]!);
}

/** The outline as one unit: each definition's signature and lines, nested by depth. */
export function outlineUnit(store: Store, file: StoredFile): Unit | null {
  const symbols = store.symbols.ofFileId(file.id);
  if (symbols.length === 0) return null;
  const open: number[] = [];
  const lines = symbols.map((s) => {
    while (open.length && open[open.length - 1]! < s.startLine) open.pop();
    const depth = open.length;
    open.push(s.endLine);
    return `${'  '.repeat(depth)}${s.startLine}-${s.endLine} ${s.signature}`;
  });
  return { receipt: receiptFor(file.path, file.digest, 'outline'), ord: -1, start_line: 1, end_line: file.lineCount, text: lines.join('\n') };
}

/**
 * The text of a set of units in line order: overlapping lines appear once,
 * and a `⋮` line marks code left out between two units.
 */
export function joinUnits(units: Unit[]): string {
  const sorted = [...units].sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  const out: string[] = [];
  let last: Unit | null = null;
  for (const u of sorted) {
    if (last && u.end_line <= last.end_line) continue;
    const skip = last ? Math.max(0, last.end_line - u.start_line + 1) : 0;
    if (last && u.ord !== last.ord + 1 && skip === 0) out.push('⋮');
    out.push(...u.text.split('\n').slice(skip));
    last = u;
  }
  return out.join('\n');
}
