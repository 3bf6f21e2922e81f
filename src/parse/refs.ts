/**
 * Reference extraction: one tree-sitter query per grammar (ref-queries.ts) run over the whole
 * tree inside WebAssembly, so the cost is one pass of the query cursor rather than a JavaScript
 * walk over every node. Each reference gets its line and the innermost enclosing definition from
 * the symbol table built by symbols.ts.
 */
import { Query, type Language, type Node } from 'web-tree-sitter';
import { IMPORT_DECODERS, namespaceName } from './ref-imports.js';
import { REF_QUERIES } from './ref-queries.js';
import { ReceiverTypes } from './ref-types.js';
import type { SymbolTable } from './symbols.js';
import type { ParsedRef, RefKind } from './types.js';

/** A generated file can hold tens of thousands of calls; past this the rest are dropped. */
const MAX_REFS_PER_FILE = 20_000;
const PATH_QUALIFIER = /^[@$]*[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|->|\\|\?\.)[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

const queries = new Map<string, Query | null>();

function queryFor(lang: string, language: Language): Query | null {
  let q = queries.get(lang);
  if (q === undefined) {
    const source = REF_QUERIES[lang];
    try {
      q = source ? new Query(language, source) : null;
    } catch {
      q = null; // a grammar that rejects its query yields no references rather than no parse
    }
    queries.set(lang, q);
  }
  return q;
}

/** `ns.a`, `a::b`, `$this`, `\\App\\X` → dotted path; any other expression → '?'. */
export function qualifierOf(text: string): string {
  const t = text.replace(/\s+/g, '').replace(/^\\/, '').replace(/\\$/, '');
  if (t === '$this') return 'this';
  if (/^super\(.*\)$/.test(t)) return 'super'; // Python's super().m()
  if (!PATH_QUALIFIER.test(t)) return '?';
  return t.replace(/^[@$]+/, '').replace(/\?\.|::|->|\\/g, '.');
}

/**
 * Maps a row to the symbol-table entry of the innermost reported definition holding it (-1: none).
 * With `strict`, a definition starting on that very row does not count: `const x = require('y')`
 * and `mod y;` are imports of the file, not of the definition they declare.
 */
function entryFinder(table: SymbolTable): (row: number, strict?: boolean) => number {
  const entries = table.entries;
  return (row, strict = false) => {
    // Last entry starting at or before the row; its ancestors are the only candidates.
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid]!.start <= row) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo - 1; k >= 0; k = entries[k]!.parent) {
      const e = entries[k]!;
      if (e.end >= row && !e.hidden && !(strict && e.start === row)) return k;
    }
    return -1;
  };
}

/** Symbol-table entry → index among the reported (non-hidden) symbols. */
function publicIndexes(table: SymbolTable): Int32Array {
  const out = new Int32Array(table.entries.length);
  let next = 0;
  table.entries.forEach((e, i) => (out[i] = e.hidden ? -1 : next++));
  return out;
}

const RANK: Record<string, number> = { inherit: 3, call: 2, type: 1 };
/** Calls that are themselves imports (`require('x')`): reported as the import only. */
const LOADERS = new Set(['require', 'require_relative', 'load']);

interface Candidate {
  kind: RefKind;
  name: Node;
  qualifier: Node | null;
}

/** Never throws: a reference bug must not cost the file its chunks and symbols. */
export function extractRefs(lang: string, language: Language, root: Node, table: SymbolTable): ParsedRef[] {
  try {
    return collect(lang, language, root, table);
  } catch {
    return [];
  }
}

function collect(lang: string, language: Language, root: Node, table: SymbolTable): ParsedRef[] {
  const query = queryFor(lang, language);
  if (!query) return [];
  const decode = IMPORT_DECODERS[lang];
  const entryAt = entryFinder(table);
  const publicIndex = publicIndexes(table);
  const enclosing = (row: number, strict = false) => {
    const e = entryAt(row, strict);
    return e < 0 ? -1 : publicIndex[e]!;
  };
  const receivers = new ReceiverTypes(table);
  const defs = new Set<number>();
  const typeParams = new Set<string>();
  const byNode = new Map<number, Candidate>();
  const imports: Node[] = [];
  const namespaces: Node[] = [];

  for (const match of query.matches(root)) {
    let kind: RefKind | null = null;
    let name: Node | null = null;
    let qualifier: Node | null = null;
    let variable: Node | null = null;
    let variableType: Node | null = null;
    for (const { name: capture, node } of match.captures) {
      switch (capture) {
        case 'call':
        case 'type':
        case 'inherit':
          kind = capture;
          name = node;
          break;
        case 'call.q':
        case 'type.q':
        case 'inherit.q':
          qualifier = node;
          break;
        case 'import':
          imports.push(node);
          break;
        case 'namespace':
          namespaces.push(node);
          break;
        case 'def':
          defs.add(node.id);
          break;
        case 'typeparam':
          typeParams.add(node.text);
          break;
        case 'var':
          variable = node;
          break;
        case 'var.type':
          variableType = node;
          break;
      }
    }
    if (variable && variableType) receivers.add(variable, variableType, entryAt(variable.startPosition.row));
    if (!kind || !name) continue;
    const prev = byNode.get(name.id);
    if (prev && (RANK[prev.kind]! > RANK[kind]! || (RANK[prev.kind] === RANK[kind] && (prev.qualifier || !qualifier)))) continue;
    byNode.set(name.id, { kind, name, qualifier });
  }

  const refs: ParsedRef[] = [];
  const seen = new Set<string>();
  const push = (ref: ParsedRef, key: string) => {
    if (refs.length >= MAX_REFS_PER_FILE || seen.has(key)) return;
    seen.add(key);
    refs.push(ref);
  };
  for (const node of namespaces) {
    const row = node.startPosition.row;
    push({ kind: 'namespace', name: namespaceName(node.text), qualifier: null, module: null, alias: null, line: row + 1, from: -1 }, `n${row}`);
  }
  const importIds = new Set(imports.map((n) => n.id));
  if (decode) {
    for (const node of imports) {
      for (const b of decode(node)) {
        const row = b.at.startPosition.row;
        const ref: ParsedRef = { kind: 'import', name: b.name, qualifier: null, module: b.module, alias: b.alias, line: row + 1, from: enclosing(row, true) };
        push(ref, `i${row}\0${b.module}\0${b.name}\0${b.alias}`);
      }
    }
  }
  for (const [id, c] of byNode) {
    const name = c.name.text;
    if (c.kind === 'type' && (defs.has(id) || typeParams.has(name))) continue;
    if (c.kind === 'call' && LOADERS.has(name) && importIds.has(c.name.parent?.id ?? -1)) continue;
    const row = c.name.startPosition.row;
    const q = c.qualifier ? qualifierOf(c.qualifier.text) : null;
    const entry = entryAt(row);
    const from = entry < 0 ? -1 : publicIndex[entry]!;
    // A call on a variable whose type is declared is looked up on that type.
    const receiverType = c.kind === 'call' && q && q !== '?' ? receivers.typeOf(q, entry) : null;
    // A type used many times in one definition is one dependency; every call site is kept.
    const key = c.kind === 'type' ? `t${from}\0${q}\0${name}` : `${c.kind[0]}${row}\0${q}\0${name}`;
    push({ kind: c.kind, name, qualifier: q, module: receiverType, alias: null, line: row + 1, from }, key);
  }
  rewriteConstructors(lang, refs);
  refs.sort((a, b) => a.line - b.line);
  return refs;
}

/** Ruby's `Foo.new(...)` constructs a Foo: report it as a call to the class, like `Foo(...)` elsewhere. */
function rewriteConstructors(lang: string, refs: ParsedRef[]): void {
  if (lang !== 'ruby') return;
  for (const r of refs) {
    if (r.kind !== 'call' || r.name !== 'new' || !r.qualifier || !/^[A-Z]/.test(r.qualifier)) continue;
    const dot = r.qualifier.lastIndexOf('.');
    r.name = r.qualifier.slice(dot + 1);
    r.qualifier = dot < 0 ? null : r.qualifier.slice(0, dot);
  }
}
