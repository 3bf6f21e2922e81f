/**
 * One resolution pass's view of the index: symbols by name and by file, each file's edges and
 * import scope, and memoised answers. An edge's answer comes from the memo, from the resolver
 * when the edge is pending, or from its stored targets otherwise, so resolving one edge may
 * resolve the imports and base classes it depends on first, in any order.
 */
import type { RefKind } from '../parse/index.js';
import type { Confidence, EdgeStatus, EdgeTarget, Store, StoredEdge, StoredSymbol } from '../store/index.js';
import type { Layout, LayoutFile } from './layout.js';

export interface Resolution {
  status: Exclude<EdgeStatus, 'pending'>;
  candidates: number;
  targets: EdgeTarget[];
}

export const UNRESOLVED: Resolution = { status: 'unresolved', candidates: 0, targets: [] };

/**
 * The binding of `name` seen from inside the definition `from` (qualified name; '' at file level):
 * the innermost function-local import wins over file-level ones, which are merged.
 */
export function bindingFor(scope: FileScope, name: string, from: string): Binding | null {
  const list = scope.bindings.get(name);
  if (!list) return null;
  const visible = list.filter((b) => b.within === null || from === b.within || from.startsWith(`${b.within}.`));
  if (visible.length === 0) return null;
  const innermost = visible.reduce((a, b) => ((b.within ?? '').length > (a.within ?? '').length ? b : a));
  if (innermost.within !== null) return innermost;
  return {
    within: null,
    files: visible.flatMap((b) => b.files),
    symbols: visible.flatMap((b) => b.symbols),
    resolved: visible.some((b) => b.resolved),
  };
}

export interface Binding {
  /** Qualified name of the definition the import sits in (a function-local import); null at file level. */
  within: string | null;
  /** Files of the module it came from. */
  files: number[];
  /** Definitions it names (empty for a whole-module binding or an unresolved one). */
  symbols: { id: number; fileId: number; confidence: Confidence }[];
  /**
   * False when the import did not resolve (an external package), or when it names a member its
   * module does not define: names behind it are not guessed.
   */
  resolved: boolean;
}

export interface FileScope {
  file: LayoutFile;
  /** Local name → what it is bound to, file-level bindings first. */
  bindings: Map<string, Binding[]>;
  /** Files whose names are visible unqualified (wildcard imports, includes, Go dot imports). */
  spill: number[];
}

/** Guards against cycles (a barrel re-exporting itself, classes inheriting in a loop). */
const MAX_DEPTH = 6;

export class GraphView {
  private readonly byName = new Map<string, StoredSymbol[]>();
  private readonly byFile = new Map<number, StoredSymbol[]>();
  private readonly symbolsById = new Map<number, StoredSymbol>();
  /** A file's edges of one kind, keyed `kind:fileId`. */
  private readonly edgesByFile = new Map<string, StoredEdge[]>();
  private readonly scopes = new Map<number, FileScope>();
  private readonly memo = new Map<number, Resolution>();
  private readonly active = new Set<number>();
  private readonly lookups = new Map<string, EdgeTarget[]>();
  /** Edges this view answered, to be written. */
  readonly answered = new Map<number, { edge: StoredEdge; resolution: Resolution }>();

  constructor(
    readonly store: Store,
    readonly layout: Layout,
    private readonly compute: (edge: StoredEdge, ctx: GraphView, depth: number) => Resolution,
  ) {}

  /** Definitions with exactly this name. */
  named(name: string): StoredSymbol[] {
    let list = this.byName.get(name);
    if (!list) {
      list = this.store.symbols.named(name).filter((s) => s.name === name);
      for (const s of list) this.symbolsById.set(s.id, s);
      this.byName.set(name, list);
    }
    return list;
  }

  fileSymbols(fileId: number): StoredSymbol[] {
    let list = this.byFile.get(fileId);
    if (!list) {
      list = this.store.symbols.ofFileId(fileId);
      for (const s of list) this.symbolsById.set(s.id, s);
      this.byFile.set(fileId, list);
    }
    return list;
  }

  symbol(id: number, fileId: number): StoredSymbol | undefined {
    return this.symbolsById.get(id) ?? this.fileSymbols(fileId).find((s) => s.id === id);
  }

  /**
   * A file's edges of one kind. By kind because a page reaches the imports or bases of thousands
   * of files, whose calls (most of their edges) it never reads: all of them took a page of
   * 10,000 bases on a 20,000-file tree to 1.1 million edges held. Their stored answers come in
   * the same read (a scope reads every import's), one query a file instead of one an edge.
   */
  fileEdges(fileId: number, kind: RefKind): StoredEdge[] {
    const key = `${kind}:${fileId}`;
    let list = this.edgesByFile.get(key);
    if (!list) {
      list = [];
      for (const { edge, targets } of this.store.edges.ofFileWithTargets(fileId, kind)) {
        list.push(edge);
        if (edge.status !== 'pending' && !this.memo.has(edge.id)) this.memo.set(edge.id, { status: edge.status, candidates: edge.candidates, targets });
      }
      this.edgesByFile.set(key, list);
    }
    return list;
  }

  resolution(edge: StoredEdge, depth = 0, again = false): Resolution {
    const known = this.memo.get(edge.id);
    if (known && !again) return known;
    if (edge.status !== 'pending' && !again) {
      const stored: Resolution = { status: edge.status, candidates: edge.candidates, targets: this.store.edges.targetsOf(edge.id) };
      this.memo.set(edge.id, stored);
      return stored;
    }
    if (this.active.has(edge.id) || depth > MAX_DEPTH) return UNRESOLVED;
    this.active.add(edge.id);
    try {
      const answer = this.compute(edge, this, depth + 1);
      this.memo.set(edge.id, answer);
      this.answered.set(edge.id, { edge, resolution: answer });
      return answer;
    } finally {
      this.active.delete(edge.id);
    }
  }

  /** A lookup computed once per pass (the pass reads the index as of its start). */
  memoised(key: string, compute: () => EdgeTarget[]): EdgeTarget[] {
    let found = this.lookups.get(key);
    if (!found) {
      found = compute();
      this.lookups.set(key, found);
    }
    return found;
  }

  /** What a file's imports bind, built from their resolutions. */
  scope(fileId: number, depth = 0): FileScope {
    let scope = this.scopes.get(fileId);
    if (scope) return scope;
    const file = this.layout.byId.get(fileId)!;
    scope = { file, bindings: new Map(), spill: [] };
    this.scopes.set(fileId, scope);
    for (const e of this.fileEdges(fileId, 'import')) {
      if (e.alias === '') continue;
      const r = this.resolution(e, depth);
      const files = [...new Set(r.targets.map((t) => t.fileId))];
      if (e.alias === null) {
        scope.spill.push(...files);
        continue;
      }
      const symbols = r.targets.filter((t) => t.symbolId !== null).map((t) => ({ id: t.symbolId!, fileId: t.fileId, confidence: t.confidence }));
      const within = e.fromSymbol === null ? null : (this.symbol(e.fromSymbol, fileId)?.qualified ?? null);
      const missingMember = e.name !== '*' && r.candidates === 0;
      const binding: Binding = { within, files, symbols, resolved: r.status !== 'unresolved' && !missingMember };
      const list = scope.bindings.get(e.alias);
      if (list) list.push(binding);
      else scope.bindings.set(e.alias, [binding]);
    }
    return scope;
  }
}
