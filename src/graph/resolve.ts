/**
 * The resolution pass, run after an index pass has written its files. It answers every pending
 * edge (imports first, since a file's calls are read through its imports) and writes all answers
 * in one transaction. Writing a file marks pending only the edges whose answer may change (see
 * store/edges.ts), so after an edit this pass touches that file's edges, the edges that resolved
 * into it, and the edges named after what it defines, and nothing else.
 */
import type { Store, StoredEdge } from '../store/index.js';
import { GraphView, type Resolution } from './view.js';
import { Layout } from './layout.js';
import { resolveImport } from './resolve-imports.js';
import { resolveReference } from './resolve-refs.js';

export interface ResolveSummary {
  /** Edges that were pending when the pass started. */
  pending: number;
  /** Edges answered (pending ones, plus those read through an import whose files changed). */
  answered: number;
  elapsedMs: number;
}

const ORDER: Record<string, number> = { import: 0, inherit: 1, type: 2, call: 3 };

function compute(edge: StoredEdge, ctx: GraphView, depth: number): Resolution {
  if (edge.kind === 'import') return resolveImport(edge, ctx, depth);
  return resolveReference(edge, ctx, depth);
}

/** The repository's files and namespaces as the resolver sees them. */
export function loadLayout(store: Store, root: string): Layout {
  const files = store.files.list().map((f) => ({ id: f.id, path: f.path, language: f.language }));
  return new Layout(root, files, store.edges.namespaces());
}

export function resolveGraph(store: Store, root: string): ResolveSummary {
  const started = performance.now();
  const dropped = store.edges.takeDropped();
  const pending = store.edges.pending();
  if (pending.length === 0) {
    store.transaction(() => store.edges.dropUnusedRefs());
    return { pending: 0, answered: 0, elapsedMs: 0 };
  }
  const ctx = new GraphView(store, loadLayout(store, root), compute);
  if (pending.length === store.edges.count()) ctx.knowEveryEdge(pending);
  pending.sort((a, b) => (ORDER[a.kind] ?? 9) - (ORDER[b.kind] ?? 9) || a.id - b.id);
  for (const e of pending) ctx.resolution(e);
  for (const fileId of filesWithMovedImports(ctx, pending, dropped)) {
    for (const e of ctx.fileEdges(fileId)) {
      if (e.kind !== 'import' && e.status !== 'pending') ctx.resolution(e, 0, true);
    }
  }
  store.transaction(() => {
    for (const [id, r] of ctx.answered) store.edges.resolve(id, r.status, r.candidates, r.targets);
    store.edges.dropUnusedRefs(); // what replaced and removed files wrote and no edge writes now
  });
  return { pending: pending.length, answered: ctx.answered.size, elapsedMs: Math.round(performance.now() - started) };
}

/**
 * Files whose imports now lead to other paths than before, while their other edges were not
 * pending: those edges were read through the old imports and are answered again. An import into
 * a file that was rewritten in place still leads there (`dropped` names the path its targets,
 * deleted with the old version, led to): whatever resolved into that file is pending already.
 */
function filesWithMovedImports(ctx: GraphView, pending: StoredEdge[], dropped: Map<number, string>): Set<number> {
  const pathOf = (fileId: number) => ctx.layout.byId.get(fileId)?.path;
  const out = new Set<number>();
  for (const e of pending) {
    if (e.kind !== 'import' || out.has(e.fileId)) continue;
    const before = new Set(ctx.store.edges.targetsOf(e.id).map((t) => pathOf(t.fileId)));
    if (dropped.has(e.id)) before.add(dropped.get(e.id));
    const after = new Set(ctx.resolution(e).targets.map((t) => pathOf(t.fileId)));
    if (before.size === after.size && [...after].every((f) => before.has(f))) continue;
    // Reading a file's edges costs more than comparing targets: only for an import that moved.
    if (ctx.fileEdges(e.fileId).some((x) => x.kind !== 'import' && x.kind !== 'namespace' && x.status !== 'pending')) out.add(e.fileId);
  }
  return out;
}
