/**
 * Symbol extraction: a targeted walk that only enters the root, "descend" nodes (bodies, export
 * wrappers, #ifdef blocks ...) and container definitions (classes, modules, impls ...). Function
 * bodies are never entered, so cost is proportional to the number of declarations, not to the
 * size of the tree.
 */
import type { Node } from 'web-tree-sitter';
import type { DefInfo, InternalKind, LangSpec } from './languages.js';
import { type LineTable, lineAt } from './lines.js';
import type { ParsedSymbol, SymbolKind } from './types.js';

export const MAX_SIGNATURE = 200;
const MAX_WALK_DEPTH = 64;

export interface SymbolEntry {
  name: string;
  qualified: string;
  kind: InternalKind;
  /** Breadcrumb segment, e.g. "class Foo", "method Foo.Bar", "impl Display for Foo". */
  label: string;
  signature: string;
  /** 0-based inclusive rows. */
  start: number;
  end: number;
  /** Index of the lexically enclosing entry, -1 at top level. */
  parent: number;
  /** Internal containers (Rust impl blocks) that are not reported as symbols. */
  hidden: boolean;
}

export interface SymbolTable {
  /** In document (pre-)order, so `start` never decreases. */
  entries: SymbolEntry[];
  /** node.id of a definition node (and of the wrappers whose range it took) → entry index. */
  byNode: Map<number, number>;
}

/** Last row a node occupies: a node ending at column 0 ends on the previous row. */
export function endRow(node: Node, lastRow: number): number {
  const start = node.startPosition.row;
  const p = node.endPosition;
  const row = p.column === 0 && p.row > start ? p.row - 1 : p.row;
  return Math.max(start, Math.min(row, lastRow));
}

export function truncateSignature(line: string): string {
  let s = line.replace(/\r/g, ' ').trim();
  if (s.length > MAX_SIGNATURE) {
    s = s.slice(0, MAX_SIGNATURE);
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1); // do not cut a surrogate pair
  }
  return s;
}

export function extractSymbols(root: Node, spec: LangSpec, t: LineTable): SymbolTable {
  const entries: SymbolEntry[] = [];
  const byNode = new Map<number, number>();
  const lastRow = Math.max(0, t.count - 1);

  const isCandidate = (type: string): boolean => spec.defs[type] !== undefined || spec.descend.has(type);

  const addEntry = (child: Node, info: DefInfo, parent: number, wrappers: Node[] | null): number => {
    const parentEntry = parent >= 0 ? entries[parent]! : null;
    let kind = info.kind;
    if (kind === 'function' && parentEntry && spec.methodParents.has(parentEntry.kind)) kind = 'method';
    const span = wrappers && wrappers.length > 0 ? wrappers[0]! : child;
    const scope = info.scope ?? [];
    const local = scope.length > 0 ? [...scope, info.name].join('.') : info.name;
    const qualified = parentEntry ? `${parentEntry.qualified}.${local}` : local;
    const sigRow = Math.min(lastRow, (info.nameNode ?? child).startPosition.row);
    const start = Math.min(span.startPosition.row, lastRow);
    const idx = entries.length;
    entries.push({
      name: info.name,
      qualified,
      kind,
      label: info.label ?? `${kind} ${local}`,
      signature: truncateSignature(lineAt(t, sigRow)),
      start,
      end: Math.max(start, endRow(span, lastRow), endRow(child, lastRow)),
      parent,
      hidden: kind === 'impl',
    });
    byNode.set(child.id, idx);
    if (wrappers) for (const w of wrappers) byNode.set(w.id, idx);
    return idx;
  };

  /** Visit a list of sibling nodes (named children of the root, a body, a wrapper ...). */
  const visit = (children: (Node | null)[], parent: number, wrappers: Node[] | null, depth: number): void => {
    if (depth > MAX_WALK_DEPTH) return;
    const parentKind = parent >= 0 ? entries[parent]!.kind : null;
    const inBody = parentKind === 'function' || parentKind === 'method';
    const descend = inBody && spec.bodyDescend ? spec.bodyDescend : spec.descend;
    for (const child of children) {
      if (!child) continue;
      const type = child.type;
      const extractor = spec.defs[type];
      const info = extractor ? extractor(child, parentKind) : null;
      if (info) {
        const idx = addEntry(child, info, parent, wrappers);
        if (info.container) visit(child.namedChildren, idx, null, depth + 1);
      } else if (descend.has(type)) {
        const grandChildren = child.namedChildren;
        let nextWrappers: Node[] | null = null;
        if (spec.wrap.has(type)) {
          let candidates = 0;
          for (const g of grandChildren) if (g && isCandidate(g.type)) candidates++;
          if (candidates === 1) nextWrappers = wrappers ? [...wrappers, child] : [child];
        }
        visit(grandChildren, parent, nextWrappers, depth + 1);
      }
    }
  };

  visit(root.namedChildren, -1, null, 0);
  return { entries, byNode };
}

/** Reported symbols (hidden containers dropped), 1-based lines, in document order. */
export function publicSymbols(table: SymbolTable): ParsedSymbol[] {
  const out: ParsedSymbol[] = [];
  for (const e of table.entries) {
    if (e.hidden) continue;
    out.push({
      name: e.name,
      qualified: e.qualified,
      kind: e.kind as SymbolKind,
      signature: e.signature,
      startLine: e.start + 1,
      endLine: e.end + 1,
    });
  }
  return out;
}

/**
 * The main symbol of rows s..e: the largest definition the range holds entirely (functions, classes
 * ... before variables and constants), otherwise the
 * innermost definition the range sits in, otherwise the definition it overlaps most; -1 if none.
 */
export function mainSymbolOf(table: SymbolTable, s: number, e: number): number {
  const entries = table.entries;
  const n = entries.length;
  if (n === 0) return -1;
  // First entry with start >= s.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.start < s) lo = mid + 1;
    else hi = mid;
  }
  // Rank: definitions before variables/constants, then by size; ties go to the first.
  let best = -1;
  let bestRank = -1;
  for (let k = lo; k < n && entries[k]!.start <= e; k++) {
    const en = entries[k]!;
    if (en.end > e) continue;
    const rank = (en.kind === 'variable' || en.kind === 'constant' ? 0 : 1_000_000_000) + (en.end - en.start);
    if (rank > bestRank) {
      best = k;
      bestRank = rank;
    }
  }
  if (best >= 0) return best;
  // Innermost entry containing the range: an ancestor-or-self of the last entry starting <= s.
  let last = lo;
  while (last < n && entries[last]!.start <= s) last++;
  let overlapBest = -1;
  let overlapSize = 0;
  for (let k = last - 1; k >= 0; k = entries[k]!.parent) {
    const en = entries[k]!;
    if (en.start <= s && en.end >= e) return k;
    const ov = Math.min(en.end, e) - Math.max(en.start, s) + 1;
    if (ov > overlapSize) {
      overlapBest = k;
      overlapSize = ov;
    }
  }
  // Partially overlapping entries that start inside the range (line windows of a huge file).
  for (let k = lo; k < n && entries[k]!.start <= e; k++) {
    const en = entries[k]!;
    const ov = Math.min(en.end, e) - Math.max(en.start, s) + 1;
    if (ov > overlapSize) {
      overlapBest = k;
      overlapSize = ov;
    }
  }
  return overlapBest;
}

export function breadcrumbOf(table: SymbolTable, idx: number, path: string): string {
  const parts: string[] = [];
  for (let k = idx; k >= 0; k = table.entries[k]!.parent) parts.push(table.entries[k]!.label);
  parts.push(path);
  return parts.reverse().join(' > ');
}
