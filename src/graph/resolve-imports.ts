/**
 * Import edges: the module → files (modules.ts), then the imported member → its definition,
 * following re-exports (`export { x } from`, `export *`, an `__init__.py` that imports a name,
 * `pub use`) when the module does not define the name itself.
 */
import type { EdgeTarget, StoredEdge, StoredSymbol } from '../store/index.js';
import { UNRESOLVED, type GraphView, type Resolution } from './view.js';
import { SEALED_IMPORTS } from './lang.js';
import { RESOLVERS } from './modules.js';

function containerOf(qualified: string): string {
  const dot = qualified.lastIndexOf('.');
  return dot < 0 ? '' : qualified.slice(0, dot);
}

/** A file's definitions of `name` visible from outside: top level, or directly inside a namespace / module. */
function exportedIn(ctx: GraphView, fileId: number, name: string): StoredSymbol[] {
  const symbols = ctx.fileSymbols(fileId);
  const named = symbols.filter((s) => s.name === name);
  if (named.length === 0) return [];
  const top = named.filter((s) => s.qualified === name);
  if (top.length > 0) return top;
  return named.filter((s) => {
    const parent = containerOf(s.qualified);
    return symbols.some((p) => p.qualified === parent && p.kind === 'module');
  });
}

/** Where `name` is defined when imported from these files, following re-exports up to `depth`. */
export function findExported(ctx: GraphView, fileIds: number[], name: string, depth: number): EdgeTarget[] {
  const out: EdgeTarget[] = [];
  for (const fileId of fileIds) {
    for (const s of exportedIn(ctx, fileId, name)) out.push({ fileId, symbolId: s.id, confidence: 'exact' });
  }
  if (out.length > 0 || depth > 4) return out;
  return dedupe(fileIds.flatMap((fileId) => reExported(ctx, fileId, name, depth)));
}

/**
 * `name` as one file re-exports it (`export { x } from`, `export *`, `pub use m::*`). Memoised per
 * pass: glob re-exports fan out (a Rust crate's modules `use super::*` and `pub use child::*` each
 * other), and every unresolved bare name used to walk the whole fan again. Each level's targets are
 * distinct: a package whose files wildcard-import each other (RxJava's 140 files of `core`) reached
 * one definition by hundreds of thousands of paths, one copy each, until a pass ran out of stack.
 */
function reExported(ctx: GraphView, fileId: number, name: string, depth: number): EdgeTarget[] {
  // A Java or Go file's imports are its own: following them as re-exports sent every name the
  // repository lacks (a JDK class) through each wildcard import of each file, four levels deep.
  if (SEALED_IMPORTS.has(ctx.layout.byId.get(fileId)?.language ?? '')) return [];
  return ctx.memoised(`reexport:${fileId}:${depth}:${name}`, () => {
    const out: EdgeTarget[] = [];
    for (const e of ctx.fileEdges(fileId, 'import')) {
      if (e.alias !== name && e.alias !== null) continue;
      const r = ctx.resolution(e, depth + 1);
      if (r.status === 'unresolved') continue;
      const found = e.alias === name ? r.targets : findExported(ctx, [...new Set(r.targets.map((t) => t.fileId))], name, depth + 1);
      for (const t of found) out.push(t);
    }
    return dedupe(out);
  });
}

export function resolveImport(edge: StoredEdge, ctx: GraphView, depth: number): Resolution {
  const file = ctx.layout.byId.get(edge.fileId);
  const resolver = file?.language ? RESOLVERS[file.language] : undefined;
  const target = file && resolver ? resolver(ctx.layout, file, edge.module ?? '', edge.name) : null;
  if (!target) return UNRESOLVED;
  const files = target.files.map((f) => f.id);
  const asFiles = (): Resolution => ({
    status: 'resolved',
    candidates: files.length,
    targets: files.map((fileId) => ({ fileId, symbolId: null, confidence: target.confidence })),
  });
  if (target.member === null) return asFiles();
  const member = target.member;
  const found = member.includes('.')
    ? files.flatMap((fileId) => ctx.fileSymbols(fileId).filter((s) => s.qualified === member).map((s): EdgeTarget => ({ fileId, symbolId: s.id, confidence: 'exact' })))
    : findExported(ctx, files, member, depth);
  // The module resolved but the member is not a definition we index: file targets, zero candidates.
  if (found.length === 0) return { ...asFiles(), candidates: 0 };
  const targets = dedupe(found).map((t) => ({ ...t, confidence: target.confidence === 'name' ? 'name' : t.confidence }) as EdgeTarget);
  return { status: 'resolved', candidates: targets.length, targets };
}

function dedupe(targets: EdgeTarget[]): EdgeTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = `${t.fileId}:${t.symbolId}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
