/**
 * A directory (or the repository) at a glance, from the graph: its main modules, its entry
 * points, the definitions most other files depend on, and how its modules depend on each other.
 * Only code files count (tests, docs and config are summarised by number).
 */
import { byCodeUnit } from '../order.js';
import type { Store, StoredFile } from '../store/index.js';

export interface OverviewModule {
  path: string;
  files: number;
  /** Files outside the module that reference it. */
  dependents: number;
  /** Files outside the module it references. */
  dependencies: number;
}

export interface Overview {
  /** The directory summarised ('' for the repository); zoomed into a lone main folder (src/pkg). */
  scope: string;
  files: number;
  by_kind: Record<string, number>;
  languages: Record<string, number>;
  modules: OverviewModule[];
  entry_points: { path: string; reason: string }[];
  most_depended_on: { symbol: string; kind: string; path: string; start_line: number; end_line: number; signature: string; dependent_files: number }[];
  module_dependencies: { from: string; to: string; references: number }[];
}

const TOP_MODULES = 15;
const TOP_ENTRIES = 10;
const TOP_SYMBOLS = 10;
const TOP_MODULE_EDGES = 20;
/** A module holding this share of the code is where the summary zooms in. */
const ZOOM_SHARE = 0.9;
const ENTRY_STEMS = new Set(['main', '__main__', 'cli', 'index', 'app', 'server', 'manage', 'wsgi', 'asgi', 'lib', 'mod']);

const under = (scope: string) => (p: string) => scope === '' || p === scope || p.startsWith(`${scope}/`);

function moduleOf(scope: string, path: string): string {
  const rest = scope === '' ? path : path.slice(scope.length + 1);
  const slash = rest.indexOf('/');
  return slash < 0 ? path : scope === '' ? rest.slice(0, slash) : `${scope}/${rest.slice(0, slash)}`;
}

function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[key(it)] = (out[key(it)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

function entryReason(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.replace(/\.[^.]+$/, '');
  if (/(^|\/)(bin|cmd)\//.test(path)) return 'command';
  if (ENTRY_STEMS.has(stem)) return `named ${base}`;
  return null;
}

export function overview(store: Store, requestedScope: string): Overview {
  const all = store.files.list();
  let scope = requestedScope.replace(/\/+$/, '');
  const codeIn = (s: string) => all.filter((f) => f.kind === 'code' && under(s)(f.path));
  // Zoom through a lone main folder (the repository → src → src/pkg) so the modules say something.
  for (let i = 0; i < 3; i++) {
    const code = codeIn(scope);
    const sizes = countBy(code, (f) => moduleOf(scope, f.path));
    const [top, n] = Object.entries(sizes)[0] ?? ['', 0];
    if (code.length === 0 || n < code.length * ZOOM_SHARE || top === scope || !all.some((f) => f.path.startsWith(`${top}/`))) break;
    scope = top;
  }
  const inScope = all.filter((f) => under(scope)(f.path));
  const code = inScope.filter((f) => f.kind === 'code');
  const byId = new Map<number, StoredFile>(all.map((f) => [f.id, f]));
  const codeIds = new Set(code.map((f) => f.id));

  const links = store.edges.fileLinks();
  const incoming = new Map<number, Set<number>>();
  const outgoing = new Map<number, Set<number>>();
  const moduleEdges = new Map<string, number>();
  const moduleIn = new Map<string, Set<number>>();
  const moduleOut = new Map<string, Set<number>>();
  for (const l of links) {
    add(incoming, l.to, l.from);
    add(outgoing, l.from, l.to);
    const from = byId.get(l.from);
    const to = byId.get(l.to);
    if (!from || !to) continue;
    const fromMod = codeIds.has(l.from) ? moduleOf(scope, from.path) : null;
    const toMod = codeIds.has(l.to) ? moduleOf(scope, to.path) : null;
    if (toMod && fromMod !== toMod) add(moduleIn, toMod, l.from);
    if (fromMod && fromMod !== toMod) add(moduleOut, fromMod, l.to);
    if (fromMod && toMod && fromMod !== toMod) moduleEdges.set(`${fromMod}\0${toMod}`, (moduleEdges.get(`${fromMod}\0${toMod}`) ?? 0) + l.count);
  }

  const moduleSizes = countBy(code, (f) => moduleOf(scope, f.path));
  const modules = Object.entries(moduleSizes)
    .map(([path, files]) => ({ path, files, dependents: moduleIn.get(path)?.size ?? 0, dependencies: moduleOut.get(path)?.size ?? 0 }))
    .sort((a, b) => b.dependents - a.dependents || b.files - a.files || byCodeUnit(a.path, b.path))
    .slice(0, TOP_MODULES);

  const entries = code
    .map((f) => {
      const named = entryReason(f.path);
      const fanIn = incoming.get(f.id)?.size ?? 0;
      const fanOut = outgoing.get(f.id)?.size ?? 0;
      const reason = named ?? (fanIn === 0 && fanOut > 0 ? `nothing indexed refers to it; it uses ${fanOut} file${fanOut === 1 ? '' : 's'}` : null);
      return reason ? { path: f.path, reason, rank: (named ? 0 : 1) * 1e6 - fanOut } : null;
    })
    .filter((e): e is { path: string; reason: string; rank: number } => e !== null)
    .sort((a, b) => a.rank - b.rank || byCodeUnit(a.path, b.path))
    .slice(0, TOP_ENTRIES)
    .map(({ path, reason }) => ({ path, reason }));

  const most = store.edges.mostReferenced(TOP_SYMBOLS, scope === '' ? '' : `${scope}/`).map((s) => ({
    symbol: s.qualified,
    kind: s.kind,
    path: s.path,
    start_line: s.startLine,
    end_line: s.endLine,
    signature: s.signature,
    dependent_files: s.files,
  }));

  const moduleDependencies = [...moduleEdges.entries()]
    .map(([key, references]) => {
      const [from, to] = key.split('\0') as [string, string];
      return { from, to, references };
    })
    .sort((a, b) => b.references - a.references || byCodeUnit(a.from, b.from))
    .slice(0, TOP_MODULE_EDGES);

  return {
    scope,
    files: inScope.length,
    by_kind: countBy(inScope, (f) => f.kind),
    languages: countBy(code, (f) => f.language ?? 'text'),
    modules,
    entry_points: entries,
    most_depended_on: most,
    module_dependencies: moduleDependencies,
  };
}

function add<K>(map: Map<K, Set<number>>, key: K, value: number): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
