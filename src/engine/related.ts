/**
 * `related`: one file's neighbourhood in the code graph, so an agent can move around without
 * reading files to infer it — what the file uses, what uses it, and which tests cover it.
 */
import { fitLists, type FitFields } from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import { SightlineError } from '../errors/index.js';
import { closeness, confidenceRank, testsByName } from '../graph/index.js';
import { byCodeUnit } from '../order.js';
import type { Confidence, StoredLink } from '../store/index.js';
import { citationProbe, listingBudget } from './gated.js';
import { graphPending, type GraphPendingField } from './graph-settled.js';
import { repoPath } from './paths.js';
import type { Repo } from './repo.js';

export interface RelatedFile {
  path: string;
  /** Definitions referenced across the two files (qualified names; the module itself for a bare import). */
  symbols: string[];
  /** Where the references are written (in the referencing file). */
  lines: number[];
  /** Edge kinds: import, call, type, inherit. */
  kinds: string[];
  /** Best confidence among the edges: exact, import or name. */
  confidence: Confidence;
}

/**
 * Every location is cited: the envelope for the file itself (the lines of `imports` and
 * `external` are in it), and each listed file for its own entry. The whole answer fits its
 * token budget; lists that did not fit entirely are counted in `omitted`.
 */
export interface RelatedEnvelope extends Citation, FitFields, GraphPendingField {
  status: 'ok';
  path: string;
  language: string | null;
  /** Indexed files this file refers to (imports, calls, types, bases). */
  imports: (RelatedFile & Citation)[];
  /** Imports that resolve to nothing indexed (external packages, the standard library). */
  external: { module: string; names: string[]; line: number }[];
  /** Indexed files that refer to this file's definitions. */
  dependents: (RelatedFile & Citation)[];
  /** Test files covering it: they import it, or they are named after it. */
  tests: ({ path: string; reasons: string[] } & Citation)[];
}

function group(links: StoredLink[], pathOf: (l: StoredLink) => string | null, symbolOf: (l: StoredLink) => string | null): RelatedFile[] {
  const by = new Map<string, { symbols: Set<string>; lines: Set<number>; kinds: Set<string>; best: Confidence }>();
  for (const l of links) {
    const path = pathOf(l);
    if (!path) continue;
    const g = by.get(path) ?? { symbols: new Set<string>(), lines: new Set<number>(), kinds: new Set<string>(), best: 'name' as Confidence };
    const sym = symbolOf(l);
    if (sym) g.symbols.add(sym);
    g.lines.add(l.line);
    g.kinds.add(l.kind);
    if (l.confidence && confidenceRank(l.confidence) < confidenceRank(g.best)) g.best = l.confidence;
    by.set(path, g);
  }
  return [...by.entries()]
    .map(([path, g]) => ({
      path,
      symbols: [...g.symbols].sort(),
      lines: [...g.lines].sort((a, b) => a - b),
      kinds: [...g.kinds].sort(),
      confidence: g.best,
    }))
    .sort((a, b) => b.lines.length - a.lines.length || byCodeUnit(a.path, b.path));
}

export function related(repo: Repo, userPath: string, options: { maxTokens?: number } = {}): RelatedEnvelope {
  const { budget, more } = listingBudget(repo, options.maxTokens);
  const path = repoPath(repo, userPath);
  const file = repo.store.files.get(path);
  if (!file) {
    throw new SightlineError('not_found', `${path} is not in the index (missing, ignored, binary or too large); list indexed files with list_files`);
  }
  const out = repo.store.edges.linksFrom(file.id).filter((l) => l.kind !== 'namespace');
  const into = repo.store.edges.linksIntoFiles([file.id]).filter((l) => l.sourceFile !== file.id);

  const imports = group(
    out.filter((l) => l.targetFile !== null && l.targetFile !== file.id),
    (l) => l.targetPath,
    (l) => l.target?.qualified ?? null,
  );
  const external = new Map<string, { module: string; names: string[]; line: number }>();
  for (const l of out) {
    if (l.kind !== 'import' || l.status !== 'unresolved' || !l.module) continue;
    const e = external.get(l.module) ?? { module: l.module, names: [], line: l.line };
    if (l.name !== '*' && !e.names.includes(l.name)) e.names.push(l.name);
    external.set(l.module, e);
  }
  const dependents = group(into, (l) => l.sourcePath, (l) => l.target?.qualified ?? null);

  const files = repo.store.fileList();
  const testFiles = files.files.filter((f) => f.kind === 'test').map((f) => f.path);
  const tests = new Map<string, Set<string>>();
  for (const d of dependents) if (files.byPath.get(d.path)?.kind === 'test') tests.set(d.path, new Set(['imports-it']));
  for (const t of testsByName(path, testFiles)) tests.set(t, new Set([...(tests.get(t) ?? []), 'named-after-it']));
  const probe = citationProbe(repo);
  // Tests and imports are what an edit needs first; a widely used file's dependents can be long.
  const lists = {
    imports: probe.cite(imports),
    tests: probe.cite(
      [...tests.entries()]
        .map(([p, reasons]) => ({ path: p, reasons: [...reasons].sort() }))
        .sort((a, b) => b.reasons.length - a.reasons.length || closeness(path, b.path) - closeness(path, a.path) || byCodeUnit(a.path, b.path)),
    ),
    external: [...external.values()],
    dependents: probe.cite(dependents),
  };
  return fitLists({ status: 'ok' as const, path, language: file.language, ...probe.check(path), ...graphPending(repo) }, lists, budget, more('ask explore for dependents with a scope'));
}
