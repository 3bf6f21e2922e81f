/**
 * The resolution pass, run after an index pass has written its files. It answers every pending
 * edge (imports first, since a file's calls are read through its imports). Writing a file marks
 * pending only the edges whose answer may change (see store/edges.ts), so after an edit this pass
 * touches that file's edges, the edges that resolved into it, and the edges named after what it
 * defines, and nothing else.
 *
 * Edges are read and answered a page at a time, each page's answers written in one transaction
 * and its view (symbols, edges, scopes, memoised answers) dropped: a cold index of a large tree
 * leaves millions of edges pending, and holding them and their answers at once cost more memory
 * than the rest of the pass. An answer written is read back from the store as a memoised one
 * would have been, so the answers are the same whatever the page size; a pass stopped between
 * pages leaves the rest pending for the next. A pass runs this on a worker thread (thread.ts).
 */
import type { RefKind } from '../parse/types.js';
import type { Store, StoredEdge } from '../store/index.js';
import { GraphView, type Resolution } from './view.js';
import { Layout, type LayoutFile } from './layout.js';
import { resolveImport } from './resolve-imports.js';
import { resolveReference } from './resolve-refs.js';

export interface ResolveSummary {
  /** Edges that were pending when the pass started. */
  pending: number;
  /** Edges answered (pending ones, plus those read through an import whose files changed). */
  answered: number;
  /** Worker threads that answered them (0: answered on the calling thread; more than 1: a worker reached its heap cap and was replaced, see thread.ts). */
  workers: number;
  elapsedMs: number;
}

/**
 * What a resolution run starts from besides the index: what only the connection that wrote the
 * pass's files knows, and what a run that stopped midway found (graph/thread.ts hands both on).
 */
export interface Carried {
  /** Import edge id → the path its targets led to before they went with a replaced file (EdgeTable.takeDropped). */
  dropped: Map<number, string>;
  /** Files whose imports now lead elsewhere: their other edges are answered again once the imports are. */
  moved: Set<number>;
}

/** What a run on another thread tells the thread that waits on it, as it goes. */
export interface PageHooks {
  /** A file whose imports moved, told before the page that moved them is written. */
  moved?(fileId: number): void;
  /** A page's answers were written: how many. */
  written?(answered: number): void;
}

/** Imports first: every other kind is read through them; namespaces (never pending unless a name marked them) last. */
const ORDER: readonly RefKind[] = ['import', 'inherit', 'type', 'call', 'namespace'];
/** The kinds read through a file's imports. */
const THROUGH_IMPORTS: readonly RefKind[] = ['inherit', 'type', 'call'];

function compute(edge: StoredEdge, ctx: GraphView, depth: number): Resolution {
  if (edge.kind === 'import') return resolveImport(edge, ctx, depth);
  return resolveReference(edge, ctx, depth);
}

/**
 * The repository's files and namespaces as the resolver sees them. `files`, where the caller has
 * them at hand: the thread that wrote an edit has the list its store keeps (Store.fileList), moved
 * by the pass, which spares reading every row again (babel's 27,600: ~60 ms). A worker's new
 * connection reads them, keeping of each only what the layout needs.
 */
export function loadLayout(store: Store, root: string, files?: readonly LayoutFile[]): Layout {
  return new Layout(root, files ?? store.files.list().map((f) => ({ id: f.id, path: f.path, language: f.language })), store.edges.namespaces());
}

/**
 * Answers the pending edges a page at a time, each page one transaction; returns how many were
 * answered. A file whose imports moved joins `carried.moved` before the page that moved them is
 * written: a run that stops after that write hands the next one that file, which its imports, no
 * longer pending, would not show.
 */
export function resolvePages(store: Store, layout: Layout, pageEdges: number, carried: Carried, hooks: PageHooks = {}): number {
  const view = () => new GraphView(store, layout, compute);
  // No edge has targets yet (a first resolution): none has any to replace, since a run answers each edge once.
  const fresh = !store.edges.anyTargets();
  let answered = 0;
  const write = (ctx: GraphView) => {
    store.transaction(() => {
      for (const [id, { resolution: r }] of ctx.answered) store.edges.resolve(id, r.status, r.candidates, r.targets, fresh);
    });
    answered += ctx.answered.size;
    hooks.written?.(ctx.answered.size);
  };
  for (const kind of ORDER) {
    for (let afterId = 0; ; ) {
      const page = store.edges.pendingPage(kind, afterId, pageEdges);
      if (page.length === 0) break;
      afterId = page[page.length - 1]!.id;
      const ctx = view();
      for (const e of page) ctx.resolution(e);
      // Before the page's answers are written: the stored targets are still the old ones.
      if (kind === 'import') {
        for (const fileId of filesWithMovedImports(ctx, carried.dropped)) {
          if (carried.moved.has(fileId)) continue;
          carried.moved.add(fileId);
          hooks.moved?.(fileId);
        }
      }
      write(ctx);
    }
    if (kind === 'import' && carried.moved.size > 0) answerAgain(carried.moved, view, pageEdges, write);
  }
  return answered;
}

/**
 * The calls, types and bases of files whose imports moved, read through the old imports: answered
 * again, after the imports and before the pending edges of those kinds (which wait for their pages).
 */
function answerAgain(files: Set<number>, view: () => GraphView, pageEdges: number, write: (ctx: GraphView) => void): void {
  let ctx = view();
  for (const fileId of files) {
    // In the order pages answer them: a call reads the bases and declared types answered before it.
    for (const kind of ORDER.slice(1)) {
      for (const e of ctx.fileEdges(fileId, kind)) if (e.status !== 'pending') ctx.resolution(e, 0, true);
    }
    if (ctx.answered.size >= pageEdges) {
      write(ctx);
      ctx = view();
    }
  }
  write(ctx);
}

/**
 * Files whose imports (those the view answered) now lead to other paths than before, while their other edges were not
 * pending: those edges were read through the old imports and are answered again. An import into
 * a file that was rewritten in place still leads there (`dropped` names the path its targets,
 * deleted with the old version, led to): whatever resolved into that file is pending already.
 */
function filesWithMovedImports(ctx: GraphView, dropped: Map<number, string>): Set<number> {
  const pathOf = (fileId: number) => ctx.layout.byId.get(fileId)?.path;
  // Asked first, once per file: on a first index no file has any, and no import's targets are read.
  const readThrough = new Map<number, boolean>();
  const readsThroughImports = (fileId: number) => {
    let answered = readThrough.get(fileId);
    if (answered === undefined) {
      const kinds = ctx.store.edges.answeredKinds(fileId);
      readThrough.set(fileId, (answered = THROUGH_IMPORTS.some((kind) => kinds.has(kind))));
    }
    return answered;
  };
  const out = new Set<number>();
  for (const { edge: e } of ctx.answered.values()) {
    if (e.kind !== 'import' || out.has(e.fileId) || !readsThroughImports(e.fileId)) continue;
    const before = new Set(ctx.store.edges.targetsOf(e.id).map((t) => pathOf(t.fileId)));
    if (dropped.has(e.id)) before.add(dropped.get(e.id));
    const after = new Set(ctx.resolution(e).targets.map((t) => pathOf(t.fileId)));
    if (before.size !== after.size || ![...after].every((f) => before.has(f))) out.add(e.fileId);
  }
  return out;
}
