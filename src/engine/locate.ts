/**
 * `locate`: where a symbol is defined and where it is mentioned. Definitions
 * come from the symbol table; references come from the code graph's resolved
 * edges first, then exact identifier matches in the indexed text, found
 * through the lexical index and confirmed line by line.
 */
import { scopeSuggestions, type RefineEnvelope } from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import { checkQuery, usageError } from '../errors/index.js';
import { byCodeUnit } from '../order.js';
import { cachedAnswer, pathFilter } from '../search/index.js';
import { identifierWords } from '../terms/index.js';
import { splitQualified, type StoredSymbol } from '../store/index.js';
import { round, type ResultItem } from './envelope.js';
import { limitsOf, narrowings, runGate, type GatedFields, type GateOptions } from './gated.js';
import { declares } from './exact-name.js';
import { graphReferences, type KindOf } from './graph-references.js';
import type { Repo } from './repo.js';
import { numberedLine } from './snippet.js';

export type LocateKind = 'definition' | 'reference' | 'any';

export interface LocateOptions {
  query: string;
  kind?: LocateKind;
  scope?: string;
  maxResults?: number;
}

export type LocateResult = ResultItem & { symbol_kind?: string; signature?: string };

export interface LocateEnvelope {
  status: 'ok';
  query: string;
  /** Results found; a floor when `unread_files` is set. */
  total: number;
  results: LocateResult[];
  /**
   * Files that say the name's word and were not read for further mentions,
   * once the results asked for were at hand: candidates, not confirmed (their
   * only mention may be a line already listed).
   */
  unread_files?: number;
}

export interface GatedLocateEnvelope extends Omit<LocateEnvelope, 'results'>, GatedFields {
  results: (LocateResult & Citation & { tokens: number })[];
}

const DEFAULT_MAX_RESULTS = 50;
/** Code first: a definition in a test or doc is usually a fixture or an example. */
const KIND_ORDER: Record<string, number> = { code: 0, config: 1, generated: 2, test: 3, doc: 4 };

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Definitions, then the code graph's references, then text mentions. A name with a definition in scope (kind
 * any or definition) reads files for mentions only until `readUntil` results are at hand (by default the
 * results asked for), the rest counted in `unread_files`; any other reads every file.
 */
export function locate(repo: Repo, options: LocateOptions, readUntil?: number): LocateEnvelope {
  const query = options.query?.trim() ?? '';
  checkQuery(query);
  if (!/[\p{L}\p{N}_$]/u.test(query)) throw usageError('locate needs a symbol name, e.g. "UserService" or "Config.load"');
  const kind = options.kind ?? 'any';
  if (!['definition', 'reference', 'any'].includes(kind)) throw usageError(`kind must be definition, reference or any (got ${kind})`);
  const max = maxResultsOf(options);
  const accept = pathFilter({ scope: options.scope });
  const { name, qualifier } = splitQualified(query);
  const files = repo.store.fileList().byId;
  const kindOf: KindOf = (fileId) => files.get(fileId)?.kind ?? 'code';

  const defined = repo.store.symbols.spelled(name, qualifier);
  const definitions = defined
    .filter((s) => accept(s.path))
    .sort((a, b) => rankOf(a, kindOf) - rankOf(b, kindOf) || byCodeUnit(a.path, b.path));

  const results: LocateEnvelope['results'] = [];
  if (kind !== 'reference') {
    for (const s of definitions) {
      results.push({
        path: s.path,
        start_line: s.startLine,
        end_line: s.endLine,
        symbol: s.qualified,
        kind: 'definition',
        score: 1,
        reasons: [`symbol:${s.name}`, `file-kind:${kindOf(s.fileId)}`],
        symbol_kind: s.kind,
        signature: s.signature,
        snippet: numberedLine(s.startLine, s.signature),
      });
    }
  }
  let unread = 0;
  if (kind !== 'definition') {
    // Edges into the definitions spelled exactly so, wherever they lie (scope filters the references).
    const graph = graphReferences(repo, defined.filter((s) => s.name === name), accept, kindOf);
    const cited = new Set([...definitions.map((d) => `${d.path}:${d.startLine}`), ...graph.map((r) => `${r.path}:${r.start_line}`)]);
    results.push(...graph);
    const bounded = kind !== 'reference' && definitions.length > 0;
    const text = references(repo, name, { accept, kindOf, cited, enough: (bounded ? (readUntil ?? max) : Number.POSITIVE_INFINITY) - results.length });
    results.push(...text.found);
    unread = text.unreadFiles;
  }
  return { status: 'ok', query, total: results.length, results: results.slice(0, max), ...(unread ? { unread_files: unread } : {}) };
}

/**
 * When `query` is one exact name with a definition, the gate's reason to
 * answer it however widely the name is used: the definition is what the
 * caller asked for, and it comes first.
 */
export function definitionIntent(repo: Repo, query: string): string | undefined {
  const q = query.trim();
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*(?:(?:::|\.|#|->)[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(q)) return undefined;
  const { name, qualifier } = splitQualified(q);
  return repo.store.symbols.spelled(name, qualifier).length ? `"${q}" names a definition, which comes first` : undefined;
}

function maxResultsOf(options: LocateOptions): number {
  const max = options.maxResults ?? DEFAULT_MAX_RESULTS;
  if (!Number.isInteger(max) || max < 1) throw usageError(`max_results must be a positive integer (got ${max})`);
  return max;
}

/**
 * `locate` behind the gate: a name with a definition is answered, definitions
 * first, then the references that fit, with the files not read for them; a
 * name mentioned all over the repository with no definition gets a refine
 * answer, whose suggestions are counted in the matches at hand.
 */
export function gatedLocate(repo: Repo, options: LocateOptions & GateOptions): GatedLocateEnvelope | RefineEnvelope {
  const limits = limitsOf(repo, options);
  const max = maxResultsOf(options);
  const { query, kind, scope } = options;
  // Every match found: a name with a definition in scope, answered however widely it is used, is read until the
  // results asked for are found (locate); any other is read whole, for the gate to weigh and its suggestions to count.
  const every = { query, kind, scope, maxResults: Number.MAX_SAFE_INTEGER };
  // From the answer cache while the index is unchanged: a name asked again costs its gate and citations only.
  // Keyed by the query as written (case and spacing kept): the answer echoes it.
  const key = { verb: 'locate', ...every, readUntil: max, written: query, caseSensitive: true };
  const found = cachedAnswer(repo.store, repo.config.queryCacheSize, key, repo.config, () => locate(repo, every, max));
  const hasDefinition = found.results.some((r) => r.kind === 'definition');
  const outcome = runGate(repo, options, {
    hits: found.results.map((r) => ({ path: r.path, relevance: 1 })), // an exact name match is fully relevant
    items: found.results.slice(0, max),
    answerBecause:
      narrowings({ scope, max_results: options.maxResults }) ??
      (hasDefinition ? `"${found.query}" names a definition, which comes first` : declaredAt(found)),
    // Only a name with no definition (or references only) is refused; a narrower scope is the way on.
    suggest: (hits, summary) => {
      const perHit = summary.total_found ? summary.est_tokens / summary.total_found : 0;
      return scopeSuggestions(hits, limits, (scope) => {
        const inScope = pathFilter({ scope });
        const n = found.results.filter((r) => inScope(r.path)).length;
        return { hits: n, estTokens: Math.round(n * perHit) };
      });
    },
  });
  if ('refine' in outcome) return outcome.refine;
  const unread = found.unread_files ? { unread_files: found.unread_files } : {};
  return { status: 'ok', query: found.query, total: found.total, results: outcome.results, ...unread, ...outcome.fields };
}

/** A name the symbol table lacks but a referencing line declares (a local `const`, a nested `def`): a definition the caller named too. */
function declaredAt(found: LocateEnvelope): string | undefined {
  const { name } = splitQualified(found.query);
  const at = found.results.find((r) => r.kind === 'reference' && declares((r.snippet ?? '').replace(/^\d+: /, ''), name));
  return at ? `"${found.query}" names a definition (declared in ${at.path}:${at.start_line})` : undefined;
}

function rankOf(s: StoredSymbol, kindOf: KindOf): number {
  return KIND_ORDER[kindOf(s.fileId)] ?? 5;
}

const REFERENCE_CANDIDATES = 2000;

interface TextScan {
  accept: (path: string) => boolean;
  kindOf: KindOf;
  /** Lines already listed (definitions, graph references): not listed again. */
  cited: Set<string>;
  /** Stop reading files once this many references are found: a name used in hundreds of files is answered from its first. */
  enough: number;
}

/**
 * Exact mentions of `name` in the indexed text, in the order they are listed
 * (code files first, then by path and line), found through the lexical index
 * and confirmed line by line, file by file until `enough` are found.
 */
function references(repo: Repo, name: string, { accept, kindOf, cited, enough }: TextScan): { found: ResultItem[]; unreadFiles: number } {
  const whole = identifierWords(name).join('');
  if (!whole) return { found: [], unreadFiles: 0 };
  const hits = repo.store.chunks.lexical([whole], REFERENCE_CANDIDATES).filter((h) => accept(h.path));
  // The lexical index folds case: a file whose names filter rules the name out, as written, is not read.
  const mayHold = repo.store.chunks.filesMayHoldName(new Set(hits.map((h) => h.fileId)), name);
  const files = new Map<number, { path: string; order: number; chunkIds: number[] }>();
  for (const hit of hits) {
    if (!mayHold.has(hit.fileId)) continue;
    let file = files.get(hit.fileId);
    if (!file) files.set(hit.fileId, (file = { path: hit.path, order: KIND_ORDER[kindOf(hit.fileId)] ?? 5, chunkIds: [] }));
    file.chunkIds.push(hit.chunkId);
  }
  const ordered = [...files.entries()].sort(([, a], [, b]) => a.order - b.order || byCodeUnit(a.path, b.path));
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegex(name)}(?![\\p{L}\\p{N}_$])`, 'u');
  const found: ResultItem[] = [];
  let read = 0;
  for (const [fileId, file] of ordered) {
    if (found.length >= enough) break;
    read++;
    const fileKind = kindOf(fileId);
    const inFile: ResultItem[] = [];
    for (const chunk of repo.store.chunks.byIds(file.chunkIds).values()) {
      // Tested whole first: a lexical hit often holds the name only in another case or inside a longer name.
      // `includes` first, on the chunk and on each line: the word-bounded Unicode pattern is many times slower.
      if (!chunk.text.includes(name) || !word.test(chunk.text)) continue;
      chunk.text.split('\n').forEach((line, i) => {
        if (!line.includes(name) || !word.test(line)) return;
        const lineNo = chunk.startLine + i;
        const key = `${file.path}:${lineNo}`;
        if (cited.has(key)) return;
        cited.add(key);
        inFile.push({
          path: file.path,
          start_line: lineNo,
          end_line: lineNo,
          symbol: chunk.symbol,
          kind: 'reference',
          score: round(0.5),
          reasons: ['text-match', `file-kind:${fileKind}`],
          snippet: numberedLine(lineNo, line.trim()),
        });
      });
    }
    found.push(...inFile.sort((a, b) => a.start_line - b.start_line));
  }
  return { found, unreadFiles: ordered.length - read };
}
