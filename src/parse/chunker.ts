/**
 * cAST-style chunking of a syntax tree (split-then-merge over AST siblings), done on whole lines.
 *
 *  1. Walk the root's children, greedily packing adjacent siblings into one piece while the piece
 *     stays within MAX_CHUNK_NWS non-whitespace characters and MAX_CHUNK_LINES lines.
 *     Comments / decorators are grouped with the sibling that follows them.
 *  2. A sibling that does not fit on its own is expanded in place: its children are packed the
 *     same way (a big class becomes pieces of its methods; a big function, pieces of statements).
 *     A node without children, a single-line node, or one nested deeper than MAX_DEPTH is cut into
 *     line windows.
 *  3. Neighbouring pieces that belong to the same definition ("context") are merged while they fit;
 *     tiny pieces (a class header, a closing brace) merge with a same-context neighbour even if that
 *     overshoots the limit a little.
 *  4. Gaps between pieces (blank lines) go to the following piece, leading/trailing blank lines are
 *     trimmed, and each piece is labelled with its main symbol and breadcrumb.
 */
import type { Node } from 'web-tree-sitter';
import { isAttached, type LangSpec } from './languages.js';
import {
  type LineTable,
  type RowRange,
  MAX_CHUNK_LINES,
  MAX_CHUNK_NWS,
  fits,
  isBlank,
  lineWindows,
  nwsOf,
  sliceLines,
} from './lines.js';
import { type SymbolTable, breadcrumbOf, endRow, mainSymbolOf } from './symbols.js';
import type { ParsedChunk } from './types.js';

/** A piece this small merges with a same-context neighbour even past the size limit. */
export const TINY_LINES = 3;
export const TINY_NWS = 100;
/** Deeper nodes are cut into line windows instead of being expanded further. */
export const MAX_DEPTH = 48;

interface Item extends RowRange {
  /** Comment / decorator that sticks to the next item. */
  attach: boolean;
  /** null for rows no child covers. */
  node: Node | null;
}

interface Piece extends RowRange {
  /** Symbol entry index of the definition the piece was produced in (-1: top level). */
  ctx: number;
}

export function chunkTree(root: Node, t: LineTable, spec: LangSpec, symbols: SymbolTable, path: string): ParsedChunk[] {
  const lastRow = t.count - 1;
  const pieces: Piece[] = [];

  const pushRange = (s: number, e: number, ctx: number): void => {
    if (fits(t, s, e)) {
      pieces.push({ s, e, ctx });
      return;
    }
    for (const w of lineWindows(t, s, e, MAX_CHUNK_LINES, MAX_CHUNK_NWS)) pieces.push({ s: w.s, e: w.e, ctx });
  };

  const expand = (node: Node, s: number, e: number, ctx: number, depth: number): void => {
    const inner = symbols.byNode.get(node.id) ?? ctx;
    if (s === e || depth >= MAX_DEPTH || node.childCount === 0) {
      pushRange(s, e, inner);
      return;
    }
    run(node.children, s, e, inner, depth + 1);
  };

  /**
   * Pack the children of one node (rows ps..pe). Rows inside the parent that no child covers
   * (text of a string literal between escape sequences, ...) become plain items so they are sized
   * like everything else.
   */
  const run = (list: (Node | null)[], ps: number, pe: number, ctx: number, depth: number): void => {
    const items: Item[] = [];
    let prevE = ps - 1;
    const gap = (s: number, e: number): void => {
      if (e >= s && nwsOf(t, s, e) > 0) items.push({ s, e, attach: false, node: null });
    };
    for (const n of list) {
      if (!n) continue;
      const s = Math.min(n.startPosition.row, lastRow);
      const e = endRow(n, lastRow);
      gap(prevE + 1, s - 1);
      items.push({ s, e, attach: n.isNamed && isAttached(spec, n.type), node: n });
      prevE = Math.max(prevE, e);
    }
    gap(prevE + 1, pe);

    let curS = -1;
    let curE = -1;
    const flush = (): void => {
      if (curS >= 0) pieces.push({ s: curS, e: curE, ctx });
      curS = -1;
    };
    const add = (s: number, e: number): void => {
      if (curS >= 0 && fits(t, curS, Math.max(curE, e))) {
        curE = Math.max(curE, e);
      } else {
        flush();
        curS = s;
        curE = e;
      }
    };
    const count = items.length;
    let i = 0;
    while (i < count) {
      // A group is a run of attached items (comments, decorators) plus the item they precede.
      let j = i;
      let ge = items[i]!.e;
      while (j < count - 1 && items[j]!.attach) {
        j++;
        ge = Math.max(ge, items[j]!.e);
      }
      const gs = items[i]!.s;
      if (fits(t, gs, ge)) {
        add(gs, ge);
        i = j + 1;
        continue;
      }
      flush();
      const last = items[j]!;
      if (j > i) {
        // Comments that cannot share a piece with their (big) node: emit them on their own. When the
        // node gets expanded they carry its context, so they merge into its first piece if possible.
        const nodeFitsAlone = fits(t, last.s, last.e);
        const prefixCtx = nodeFitsAlone || !last.node ? ctx : (symbols.byNode.get(last.node.id) ?? ctx);
        let pe2 = items[i]!.e;
        for (let k = i + 1; k < j; k++) pe2 = Math.max(pe2, items[k]!.e);
        pushRange(gs, pe2, prefixCtx);
        i = j;
        continue;
      }
      if (last.node) expand(last.node, last.s, last.e, ctx, depth);
      else pushRange(last.s, last.e, ctx);
      i++;
    }
    flush();
  };

  if (t.count > 0) run(root.children, 0, lastRow, -1, 0);
  return finishPieces(pieces, t, path, symbols);
}

function isTiny(t: LineTable, p: RowRange): boolean {
  return p.e - p.s + 1 <= TINY_LINES && nwsOf(t, p.s, p.e) <= TINY_NWS;
}

/** Merge same-context neighbours, give gaps to the following piece, trim blanks, label. */
function finishPieces(pieces: Piece[], t: LineTable, path: string, symbols: SymbolTable): ParsedChunk[] {
  const merged: Piece[] = [];
  for (const p of pieces) {
    const last = merged[merged.length - 1];
    if (last) {
      if (p.s >= last.s && p.e <= last.e) continue; // already covered
      if (
        last.ctx === p.ctx &&
        (fits(t, Math.min(last.s, p.s), Math.max(last.e, p.e)) || isTiny(t, last) || isTiny(t, p))
      ) {
        last.s = Math.min(last.s, p.s);
        last.e = Math.max(last.e, p.e);
        continue;
      }
    }
    merged.push({ s: p.s, e: p.e, ctx: p.ctx });
  }
  merged.sort((a, b) => a.s - b.s || a.e - b.e);

  const out: ParsedChunk[] = [];
  let prevEnd = -1;
  for (let k = 0; k < merged.length; k++) {
    const p = merged[k]!;
    let s = p.s > prevEnd + 1 ? prevEnd + 1 : p.s; // the gap before a piece belongs to it
    let e = k === merged.length - 1 ? t.count - 1 : p.e;
    if (e < s) continue;
    while (s < e && isBlank(t, s)) s++;
    while (e > s && isBlank(t, e)) e--;
    prevEnd = Math.max(prevEnd, p.e, e);
    if (isBlank(t, s)) continue; // entirely blank
    out.push(labelChunk(t, s, e, path, symbols));
  }
  return out;
}

export function labelChunk(t: LineTable, s: number, e: number, path: string, symbols: SymbolTable | null): ParsedChunk {
  const idx = symbols ? mainSymbolOf(symbols, s, e) : -1;
  return {
    startLine: s + 1,
    endLine: e + 1,
    breadcrumb: symbols && idx >= 0 ? breadcrumbOf(symbols, idx, path) : path,
    symbol: symbols && idx >= 0 ? symbols.entries[idx]!.qualified : null,
    text: sliceLines(t, s, e),
  };
}
