/** Fixture repositories indexed straight into a store, and a readable view of their edges. */
import path from 'node:path';
import { defaultConfig, type Config } from '../../src/config/index.js';
import { Repo } from '../../src/engine/index.js';
import { indexRepository, type IndexSummary } from '../../src/index/index.js';
import { Store } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

export interface Indexed {
  root: string;
  store: Store;
  /** Indexes again (after the test changed files). */
  reindex(): Promise<IndexSummary>;
  close(): void;
}

export async function indexFixture(files: Record<string, string>): Promise<Indexed & { summary: IndexSummary }> {
  const root = makeRepo(files);
  const home = tempDir('sightline-graph-home-');
  const store = Store.open(path.join(home, 'index.db'));
  const config = { ...defaultConfig(), home };
  const reindex = () => indexRepository(root, store, config);
  const summary = await reindex();
  return {
    root,
    store,
    summary,
    reindex,
    close: () => {
      store.close();
      removeDir(root);
      removeDir(home);
    },
  };
}

export interface OpenedRepo {
  root: string;
  repo: Repo;
  close(): void;
}

/** A fixture repository opened and indexed through the engine (keyword-only unless `flags` say otherwise). */
export async function openRepo(files: Record<string, string>, flags: Partial<Config> = {}): Promise<OpenedRepo> {
  const root = makeRepo(files);
  const home = tempDir('sightline-home-');
  const repo = Repo.open(root, { flags: { home, embedder: 'none', ...flags }, env: {} });
  await repo.index();
  return {
    root,
    repo,
    close: () => {
      repo.close();
      removeDir(root);
      removeDir(home);
    },
  };
}

export interface EdgeView {
  kind: string;
  name: string;
  qualifier: string | null;
  module: string | null;
  alias: string | null;
  line: number;
  from: string | null;
  status: string;
  /** "path:qualified/confidence", or "path/confidence" for a module target. */
  targets: string[];
}

/** Every edge written in `file`, with its targets, in line order. */
export function edgesOf(store: Store, file: string): EdgeView[] {
  const f = store.files.get(file);
  if (!f) throw new Error(`${file} is not indexed`);
  const byEdge = new Map<number, EdgeView>();
  for (const l of store.edges.linksFrom(f.id)) {
    const view = byEdge.get(l.edgeId) ?? {
      kind: l.kind,
      name: l.name,
      qualifier: l.qualifier,
      module: l.module,
      alias: null,
      line: l.line,
      from: l.source?.qualified ?? null,
      status: l.status,
      targets: [],
    };
    if (l.targetPath) view.targets.push(`${l.targetPath}${l.target ? `:${l.target.qualified}` : ''}/${l.confidence}`);
    byEdge.set(l.edgeId, view);
  }
  return [...byEdge.values()];
}

/** The one edge of `kind` named `name` (and written with `qualifier`, when given) in `file`. */
export function edge(store: Store, file: string, kind: string, name: string, qualifier?: string | null): EdgeView {
  const found = edgesOf(store, file).filter((e) => e.kind === kind && e.name === name && (qualifier === undefined || e.qualifier === qualifier));
  if (found.length !== 1) throw new Error(`expected one ${kind} ${qualifier ?? ''}${name} in ${file}, found ${found.length}: ${JSON.stringify(edgesOf(store, file), null, 1)}`);
  return found[0]!;
}

/** Import edges of a file by module: module → target files. */
export function importTargets(store: Store, file: string, module: string): string[] {
  const files = edgesOf(store, file)
    .filter((e) => e.kind === 'import' && e.module === module)
    .flatMap((e) => e.targets.map((t) => t.replace(/[:/].*$/, (m) => (m.startsWith(':') ? '' : m))));
  return [...new Set(files.map((t) => t.split(':')[0]!.replace(/\/(exact|import|name)$/, '')))].sort();
}

export { removeDir };
