/**
 * `explore`: structural questions answered from the code graph — who calls a function, what it
 * calls, what a file depends on and what depends on it, the blast radius of a change, and an
 * overview of a directory. Answers are gated and cited like `search`: a huge blast radius gets a
 * `refine` answer with its distribution instead of a flood.
 */
import { prefixWithin, scopeSuggestions, trimBudget, type RefineEnvelope, type Suggestion } from '../budget/index.js';
import { checkQuery, SightlineError, usageError } from '../errors/index.js';
import { confidenceRank, GraphQuery, overview, type GraphHit, type Hop, type Overview, type Walk } from '../graph/index.js';
import { byCodeUnit } from '../order.js';
import { pathFilter } from '../search/index.js';
import { splitQualified, type StoredFile, type StoredSymbol } from '../store/index.js';
import { round, type ResultItem } from './envelope.js';
import { limitsOf, narrowings, runGate, type GatedFields, type GateOptions } from './gated.js';
import { graphPending, type GraphPendingField } from './graph-settled.js';
import { repoPath } from './paths.js';
import type { Repo } from './repo.js';
import { LineReader } from './indexed-lines.js';
import { EXPLORE_RELATIONS, MAX_DEPTH } from './limits.js';

export type ExploreRelation = (typeof EXPLORE_RELATIONS)[number];
type Walked = Exclude<ExploreRelation, 'overview' | 'auto'>;

export interface ExploreOptions extends GateOptions {
  /** The question in words; `auto` reads the relation (and, without `anchor`, the anchor) from it. */
  question?: string;
  relation?: ExploreRelation;
  /** A symbol ("Store.open", "parse_request") or a file path. */
  anchor?: string;
  /** Levels of edges to follow: 1 (default) to 3. */
  depth?: number;
  /** Only hits under this directory or glob. */
  scope?: string;
  /** Cap on hits returned (default 50). */
  maxResults?: number;
}

export interface ExploreItem extends ResultItem {
  symbol_kind: string | null;
  /** Edges between the anchor and this hit. */
  depth: number;
  confidence: string | null;
  /** resolved, or ambiguous when the reference could mean several definitions (`candidates`). */
  resolution: string;
  candidates?: number;
  /** The referencing lines this hit stands for. */
  lines: number[];
  /** The chain of references linking the hit to the anchor, anchor side first. */
  via: Hop[];
}

export interface AnchorInfo {
  query: string;
  kind: 'symbol' | 'file';
  /** What the anchor resolved to (several definitions when a name is defined more than once). */
  matches: { symbol: string | null; kind: string; path: string; start_line: number; end_line: number }[];
}

export interface ExploreEnvelope extends GatedFields, GraphPendingField {
  status: 'ok';
  relation: Walked;
  /** Why `auto` chose the relation. */
  chosen_by?: string;
  anchor: AnchorInfo;
  depth: number;
  total: number;
  files: number;
  results: ExploreItem[];
  /** Hits per file (impact: the blast radius by file), nearest first; counted in `tokens`. */
  by_file: { path: string; hits: number; nearest: number }[];
  /** Files left out of by_file to stay within the token budget. */
  by_file_omitted?: number;
  /** Outgoing references that resolve to nothing indexed (external packages, builtins), by name; counted in `tokens`. */
  unresolved?: { name: string; module: string | null; kind: string; lines: number[] }[];
  /** Names left out of unresolved to stay within the token budget. */
  unresolved_omitted?: number;
  /** The walk stopped at its node bound; the answer is partial. */
  truncated?: boolean;
}

export interface ExploreOverviewEnvelope extends Overview {
  status: 'ok';
  relation: 'overview';
  chosen_by?: string;
}

export const DEFAULT_EXPLORE_RESULTS = 50;
const MAX_ANCHOR_SYMBOLS = 10;
const RELEVANCE: Record<string, number> = { exact: 1, import: 0.9, name: 0.6 };
const KIND_ORDER: Record<string, number> = { code: 0, config: 1, generated: 2, test: 3, doc: 4 };
/** The share of the token budget by_file and unresolved take at most; the results get the rest. */
const BY_FILE_SHARE = 0.25;

/** Question words → relation, most specific first. */
const AUTO_RULES: [RegExp, Walked | 'overview', string][] = [
  [/\b(impact|break|breaks|broken|affect(s|ed)?|blast|radius|ripple|downstream)\b|\bif i (change|modify|remove|delete|rename)\b/i, 'impact', 'impact words'],
  [/\b(overview|architecture|structure|summar(y|ise|ize)|organi[sz]ed|layout|entry points?|main modules)\b/i, 'overview', 'overview words'],
  [/\b(callees|calls made by)\b|\bwhat (does|do) .+ call\b|\b(does|do) .+ call\b/i, 'callees', '"what does … call"'],
  [/\b(callers?|call sites?|called (by|from)|invocations?)\b|\b(who|what|which)\b.*\b(calls?|invokes?|uses?)\b|\bwhere is .+ (called|used)\b/i, 'callers', '"who calls"'],
  [/\bwhat (does|do) .+ (depend on|import|require|use)\b|\bdependencies\b|\bimports of\b/i, 'dependencies', '"what does … depend on"'],
  [/\b(depends? on|dependents|importers|imported by|used by|relies on|rely on)\b/i, 'dependents', '"what depends on"'],
];

function chooseRelation(question: string, anchor: 'symbol' | 'file' | null): { relation: Walked | 'overview'; chosen_by: string } {
  for (const [re, relation, why] of AUTO_RULES) if (re.test(question)) return { relation, chosen_by: `auto: ${why}` };
  if (anchor === null) return { relation: 'overview', chosen_by: 'auto: no anchor' };
  return anchor === 'file' ? { relation: 'dependents', chosen_by: 'auto: a file anchor' } : { relation: 'callers', chosen_by: 'auto: a symbol anchor' };
}

type Anchor = { kind: 'file'; query: string; file: StoredFile } | { kind: 'symbol'; query: string; symbols: StoredSymbol[] };

function looksLikePath(s: string): boolean {
  return s.includes('/') || /\.[a-z0-9]{1,5}$/i.test(s);
}

function resolveAnchor(repo: Repo, query: string): Anchor {
  if (looksLikePath(query)) {
    const path = repoPath(repo, query);
    const file = repo.store.files.get(path);
    if (file) return { kind: 'file', query, file };
    if (query.includes('/')) throw new SightlineError('not_found', `${path} is not an indexed file; pass a file path from list_files or a symbol name`);
  }
  const { name, qualifier } = splitQualified(query);
  const symbols = repo.store.symbols.spelled(name, qualifier);
  if (symbols.length === 0) {
    throw new SightlineError('not_found', `no definition named ${query} is indexed; check the spelling with locate, or pass a file path`);
  }
  const files = repo.store.files.byIds([...new Set(symbols.map((s) => s.fileId))]);
  const rank = (fileId: number) => KIND_ORDER[files.get(fileId)?.kind ?? 'code'] ?? 5;
  symbols.sort((a, b) => rank(a.fileId) - rank(b.fileId) || byCodeUnit(a.path, b.path) || a.startLine - b.startLine);
  return { kind: 'symbol', query, symbols: symbols.slice(0, MAX_ANCHOR_SYMBOLS) };
}

/** The first identifier or path in the question that names something indexed. */
function anchorFromQuestion(repo: Repo, question: string): Anchor | null {
  const words = question.match(/[\w$./:#-]+/g) ?? [];
  const tokens = words.map((w) => w.replace(/^[^\w$]+|[^\w$]+$/g, '')).filter((w) => w.length > 1);
  const codeLike = (w: string) => /[A-Z_./:#]|[a-z][A-Z]/.test(w);
  for (const w of [...tokens.filter(codeLike), ...tokens.filter((w) => !codeLike(w))]) {
    try {
      return resolveAnchor(repo, w);
    } catch (err) {
      if (!(err instanceof SightlineError) || err.code !== 'not_found') throw err;
    }
  }
  return null;
}

function validDepth(depth: number | undefined): number {
  if (depth === undefined) return 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) throw usageError(`depth must be 1, 2 or 3 (got ${depth})`);
  return depth;
}

function walk(repo: Repo, relation: Walked, anchor: Anchor, depth: number): Walk {
  const graph = new GraphQuery(repo.store);
  const kinds = relation === 'callers' || relation === 'callees' ? ['call'] : undefined;
  if (relation === 'callers' || relation === 'dependents' || relation === 'impact') {
    const seed =
      anchor.kind === 'file'
        ? { symbolIds: [], fileIds: [anchor.file.id] }
        : { symbolIds: anchor.symbols.map((s) => s.id), fileIds: [] };
    // Calls through a base class or interface may run the anchor: count them, marked by an override hop.
    return graph.incoming(seed, relation === 'dependents' && anchor.kind === 'file' ? 1 : depth, kinds, anchor.kind === 'symbol');
  }
  const starts =
    anchor.kind === 'file'
      ? [{ fileId: anchor.file.id, path: anchor.file.path, label: anchor.file.path }]
      : anchor.symbols.map((s) => ({ fileId: s.fileId, path: s.path, startLine: s.startLine, endLine: s.endLine, label: s.qualified }));
  const walks = starts.map((s) => graph.outgoing(s, depth, kinds));
  return { hits: walks.flatMap((w) => w.hits), unresolved: walks.flatMap((w) => w.unresolved), truncated: walks.some((w) => w.truncated) };
}

/** A file anchor's dependents and dependencies are files: one hit per file, its lines merged. */
function perFile(hits: GraphHit[], anchor: Anchor): GraphHit[] {
  if (anchor.kind !== 'file') return hits;
  const byPath = new Map<string, GraphHit>();
  for (const h of hits) {
    const known = byPath.get(h.path);
    if (!known) {
      byPath.set(h.path, { ...h, symbol: null, symbolKind: null, symbolId: null, lines: [...h.lines] });
      continue;
    }
    for (const l of h.lines) if (!known.lines.includes(l)) known.lines.push(l);
    if (confidenceRank(h.confidence) < confidenceRank(known.confidence)) known.confidence = h.confidence;
  }
  for (const h of byPath.values()) {
    h.lines.sort((a, b) => a - b);
    h.startLine = h.endLine = h.lines[0] ?? h.startLine;
  }
  return [...byPath.values()];
}

function toItem(h: GraphHit, relation: Walked, lines: LineReader): ExploreItem {
  const outgoing = relation === 'callees' || relation === 'dependencies';
  const relevance = (RELEVANCE[h.confidence ?? ''] ?? 0.5) / h.depth;
  const reasons = [`${h.kind}:${h.confidence ?? 'unresolved'}`, `depth:${h.depth}`];
  if (h.status === 'ambiguous') reasons.push(`ambiguous:${h.candidates}`);
  const snippetLine = outgoing ? h.startLine : h.lines[0]!;
  return {
    path: h.path,
    start_line: h.startLine,
    end_line: h.endLine,
    symbol: h.symbol,
    kind: h.kind,
    score: round(relevance),
    reasons,
    snippet: lines.numbered(h.fileId, snippetLine),
    symbol_kind: h.symbolKind,
    depth: h.depth,
    confidence: h.confidence,
    resolution: h.status,
    ...(h.status === 'ambiguous' ? { candidates: h.candidates } : {}),
    lines: h.lines,
    via: h.via,
  };
}

function byFile(items: ExploreItem[]): ExploreEnvelope['by_file'] {
  const out = new Map<string, { path: string; hits: number; nearest: number }>();
  for (const it of items) {
    const g = out.get(it.path) ?? { path: it.path, hits: 0, nearest: it.depth };
    g.hits++;
    g.nearest = Math.min(g.nearest, it.depth);
    out.set(it.path, g);
  }
  return [...out.values()].sort((a, b) => a.nearest - b.nearest || b.hits - a.hits || byCodeUnit(a.path, b.path));
}

function anchorInfo(anchor: Anchor): AnchorInfo {
  if (anchor.kind === 'file') {
    return { query: anchor.query, kind: 'file', matches: [{ symbol: null, kind: anchor.file.kind, path: anchor.file.path, start_line: 1, end_line: Math.max(1, anchor.file.lineCount) }] };
  }
  return {
    query: anchor.query,
    kind: 'symbol',
    matches: anchor.symbols.map((s) => ({ symbol: s.qualified, kind: s.kind, path: s.path, start_line: s.startLine, end_line: s.endLine })),
  };
}

function unresolvedNames(walked: Walk): NonNullable<ExploreEnvelope['unresolved']> {
  const by = new Map<string, { name: string; module: string | null; kind: string; lines: number[] }>();
  for (const u of walked.unresolved) {
    const name = u.qualifier && u.qualifier !== '?' ? `${u.qualifier}.${u.name}` : u.name;
    const key = `${u.kind}\0${name}\0${u.module}`;
    const known = by.get(key);
    if (known) known.lines.push(u.line);
    else by.set(key, { name, module: u.module, kind: u.kind, lines: [u.line] });
  }
  return [...by.values()];
}

function overviewOf(repo: Repo, dir: string): ExploreOverviewEnvelope {
  const rel = dir && dir !== '.' ? repoPath(repo, dir) : '';
  return { status: 'ok', relation: 'overview', ...overview(repo.store, rel === '.' ? '' : rel) };
}

export function explore(repo: Repo, options: ExploreOptions): ExploreEnvelope | ExploreOverviewEnvelope | RefineEnvelope {
  const requested = options.relation ?? 'auto';
  if (!EXPLORE_RELATIONS.includes(requested)) throw usageError(`relation must be one of ${EXPLORE_RELATIONS.join(', ')} (got ${requested})`);
  const depth = validDepth(options.depth);
  const max = options.maxResults ?? DEFAULT_EXPLORE_RESULTS;
  if (!Number.isInteger(max) || max < 1) throw usageError(`max_results must be a positive integer (got ${max})`);
  const question = options.question?.trim() ?? '';
  const anchorText = options.anchor?.trim();
  checkQuery(question, 'question');
  if (anchorText) checkQuery(anchorText, 'anchor');
  if (requested === 'overview') return overviewOf(repo, options.scope?.trim() || anchorText || '');
  const anchor = anchorText ? resolveAnchor(repo, anchorText) : question ? anchorFromQuestion(repo, question) : null;

  let relation: Walked | 'overview';
  let chosenBy: string | undefined;
  if (requested === 'auto') ({ relation, chosen_by: chosenBy } = chooseRelation(question, anchor?.kind ?? null));
  else relation = requested;
  if (relation === 'overview') return { ...overviewOf(repo, options.scope?.trim() || ''), chosen_by: chosenBy };
  if (!anchor) throw usageError(`${relation} needs an anchor: a symbol name such as "Store.open" or a file path`);

  const walked = walk(repo, relation, anchor, depth);
  const accept = pathFilter({ scope: options.scope });
  const lines = new LineReader(repo.store);
  const hits = (relation === 'dependents' || relation === 'dependencies' ? perFile(walked.hits, anchor) : walked.hits)
    .filter((h) => accept(h.path))
    .sort((a, b) => a.depth - b.depth || byCodeUnit(a.path, b.path) || a.startLine - b.startLine || confidenceRank(a.confidence) - confidenceRank(b.confidence));
  const items = hits.map((h) => toItem(h, relation as Walked, lines));
  const limits = limitsOf(repo, options);
  const budget = trimBudget(limits, options.maxTokens);
  const allFiles = byFile(items);
  const byFiles = prefixWithin(allFiles, Math.floor(budget * BY_FILE_SHARE));
  const outgoing = relation === 'callees' || relation === 'dependencies';
  const allUnresolved = outgoing ? unresolvedNames(walked) : [];
  const unresolved = prefixWithin(allUnresolved, Math.floor(budget * BY_FILE_SHARE) - byFiles.tokens);
  const outcome = runGate(repo, { ...options, maxTokens: budget - byFiles.tokens - unresolved.tokens }, {
    hits: items.map((it) => ({ path: it.path, relevance: it.score })),
    items: items.slice(0, max),
    answerBecause: narrowings({ scope: options.scope, max_results: options.maxResults }),
    suggest: (gateHits, summary) => {
      const perHit = summary.total_found ? summary.est_tokens / summary.total_found : 0;
      const yieldOf = (n: number) => ({ hits: n, estTokens: Math.round(n * perHit) });
      const out: Suggestion[] = scopeSuggestions(gateHits, limits, (scope) => {
        const inScope = pathFilter({ scope });
        return yieldOf(items.filter((it) => inScope(it.path)).length);
      });
      if (depth > 1) {
        const shallower = items.filter((it) => it.depth < depth).length;
        out.push({ action: 'narrow_kind', arg: `depth=${depth - 1}`, would_yield: shallower, est_tokens: yieldOf(shallower).estTokens, hint: `pass depth: ${depth - 1} to follow fewer levels of edges` });
      }
      return out;
    },
  });
  if ('refine' in outcome) return outcome.refine;
  const results = outcome.results as unknown as ExploreItem[];
  return {
    status: 'ok',
    relation: relation as Walked,
    ...(chosenBy ? { chosen_by: chosenBy } : {}),
    anchor: anchorInfo(anchor),
    depth,
    total: items.length,
    files: new Set(items.map((it) => it.path)).size,
    results,
    by_file: byFiles.kept,
    ...(byFiles.kept.length < allFiles.length ? { by_file_omitted: allFiles.length - byFiles.kept.length } : {}),
    ...(outgoing ? { unresolved: unresolved.kept } : {}),
    ...(unresolved.kept.length < allUnresolved.length ? { unresolved_omitted: allUnresolved.length - unresolved.kept.length } : {}),
    ...(walked.truncated ? { truncated: true } : {}),
    ...graphPending(repo),
    ...outcome.fields,
    tokens: outcome.fields.tokens + byFiles.tokens + unresolved.tokens,
  };
}
