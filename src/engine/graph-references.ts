/**
 * `locate --kind reference` from the code graph: the resolved edges into a name's definitions,
 * listed before the text matches (each says how it resolved).
 */
import { confidenceRank } from '../graph/index.js';
import { byCodeUnit } from '../order.js';
import type { ReferenceInto, StoredSymbol } from '../store/index.js';
import { round, type ResultItem } from './envelope.js';
import { LineReader } from './indexed-lines.js';
import type { Repo } from './repo.js';

const SCORE: Record<string, number> = { exact: 0.95, import: 0.9, name: 0.7 };
const KIND_ORDER: Record<string, number> = { code: 0, config: 1, generated: 2, test: 3, doc: 4 };

/** A file's kind (code, test, doc, …) by its id. */
export type KindOf = (fileId: number) => string;

/** The resolved edges into `defs` (locate's definitions of the name), from sources `accept` keeps. */
export function graphReferences(repo: Repo, defs: readonly StoredSymbol[], accept: (path: string) => boolean, kindOf: KindOf): ResultItem[] {
  if (defs.length === 0) return [];
  const lines = new LineReader(repo.store);
  const seen = new Set<string>();
  const links: ReferenceInto[] = [];
  for (const l of repo.store.edges.referencesInto(defs.map((d) => d.id))) {
    const key = `${l.sourcePath}:${l.line}`;
    if (!accept(l.sourcePath) || seen.has(key)) continue;
    seen.add(key);
    links.push(l);
  }
  const order = (l: ReferenceInto) => KIND_ORDER[kindOf(l.sourceFile)] ?? 5;
  links.sort((a, b) => order(a) - order(b) || confidenceRank(a.confidence) - confidenceRank(b.confidence) || byCodeUnit(a.sourcePath, b.sourcePath) || a.line - b.line);
  return links.map((l) =>
    withSnippet(
      {
        path: l.sourcePath,
        start_line: l.line,
        end_line: l.line,
        symbol: l.sourceSymbol,
        kind: 'reference',
        score: round((SCORE[l.confidence ?? ''] ?? 0.6) * (l.status === 'ambiguous' ? 0.8 : 1)),
        reasons: [`graph:${l.kind}`, `confidence:${l.confidence}`, ...(l.status === 'ambiguous' ? [`ambiguous:${l.candidates}`] : []), `file-kind:${kindOf(l.sourceFile)}`],
      },
      () => lines.numbered(l.sourceFile, l.line),
    ),
  );
}

/**
 * The reference's line, read when the item is first shown (or serialised):
 * a name used in hundreds of places is answered with its first fifty, and
 * reading every referencing file's text was most of such a `locate`.
 */
function withSnippet(item: Omit<ResultItem, 'snippet'>, read: () => string | undefined): ResultItem {
  let snippet: string | undefined | null = null; // null: not read yet
  return Object.defineProperty(item, 'snippet', { enumerable: true, get: () => (snippet === null ? (snippet = read()) : snippet) }) as ResultItem;
}
