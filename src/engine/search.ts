/** `search`: ranked chunks (or distinct files) for a keyword query or a regular expression. */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { checkPattern, checkQuery, usageError } from '../errors/index.js';
import { byCodeUnit } from '../order.js';
import { ask, cachedAnswer, hybridChunks, hybridFiles, pathFilter, type SearchMode } from '../search/index.js';

export type { SearchMode };
import { round, type ResultItem, type SearchEnvelope } from './envelope.js';
import type { StoredChunk } from '../store/index.js';
import type { FileSignals, RankedChunk } from '../search/index.js';
import type { Repo } from './repo.js';
import { numberedLine, snippetFor } from './snippet.js';
import { DEFAULT_K } from './limits.js';

export interface SearchOptions {
  query: string;
  scope?: string;
  exclude?: string[];
  /** File kinds to keep: code, test, doc, config, generated. */
  kind?: string[];
  /** Treat the query as a regular expression (RE2 syntax, JavaScript escapes; no backreferences or lookaround), matched line by line. */
  regex?: boolean;
  /** How many results (default 10). */
  k?: number;
  /** Distinct files, best first, each with its best chunk. */
  files?: boolean;
  /** Never refuse (accepted now; the gate arrives with budgets). */
  force?: boolean;
  /** Retrieval wanted: hybrid (default), keyword only, or semantic only; the answer's `mode` says what ran. */
  mode?: SearchMode;
}

const MAX_K = 500;

function validK(k: number | undefined): number {
  if (k === undefined) return DEFAULT_K;
  if (!Number.isInteger(k) || k < 1) throw usageError(`k must be a positive integer (got ${k})`);
  return Math.min(k, MAX_K);
}

/**
 * One ranked chunk as the engine holds it up to the edge: its id and indexed
 * text travel with it (the gate weighs the text, expansion starts from the id,
 * neither looks the chunk up again), and `wire` is what a caller is sent. A
 * ranked hit makes its wire form when first read: its snippet is a pass over
 * the text, and the gate's candidate pool shows only its first few hits.
 */
export interface Hit {
  chunkId: number;
  path: string;
  breadcrumb: string;
  readonly text: string;
  reasons: string[];
  readonly wire: ResultItem;
}

/** An answer before its results are shaped for the wire: the hits, best first. */
export interface SearchHits {
  envelope: Omit<SearchEnvelope, 'results'>;
  hits: Hit[];
  /** The answer as sent, made once: a repeated question gets the cached answer itself. */
  sent?: SearchEnvelope;
  /** A keyword answer's chunk ranking, which a hybrid answer to the same question can fuse from (RankedWith). */
  ranking?: readonly RankedChunk[];
  /** A file answer's candidates as its words gathered them, which another ranking of the same question can rank again (RankedWith). */
  signals?: readonly FileSignals[];
}

/** How the gate asks for its pool, and for the answer it fuses from that pool; never a caller's setting. */
export interface RankedWith {
  /** Lexical candidates the keyword ranking scores (default: what a ranking of k scores). */
  depth?: number;
  /** This question's keyword ranking, scored to the depth this answer's would be (hybridChunks' `ranked`). */
  keyword?: readonly RankedChunk[];
  /** This question's file candidates under the same filters (RankOptions.signals). */
  signals?: readonly FileSignals[];
}

/** The answer as sent. Answers repeat from a per-repository cache until the index or the configuration changes (search/cache.ts). */
export function search(repo: Repo, options: SearchOptions): SearchEnvelope {
  const answer = searchHits(repo, options);
  return (answer.sent ??= { ...answer.envelope, results: answer.hits.map((h) => h.wire) });
}

export function searchHits(repo: Repo, options: SearchOptions, within: RankedWith = {}): SearchHits {
  const wanted = options.mode ?? 'hybrid';
  const settled = (a: SearchHits) => a.envelope.mode === wanted || a.envelope.retrieval_phase === 'keyword_only' || !!options.regex;
  // Keyed by what decides the hits alone: a caller's session, budget or citation probe must not split the cache
  // (a ranking handed in gives the answer ranking again would).
  const { query, scope, exclude, kind, regex, k, files, mode } = options;
  const question = { query, scope, exclude, kind, regex, k, files, mode, depth: within.depth };
  return cachedAnswer(repo.store, repo.config.queryCacheSize, question, repo.config, () => searchUncached(repo, options, within), settled);
}

/**
 * A ranked chunk of a file as a hit, its snippet the lines holding the query's terms.
 * A class: a gate's pool holds hundreds of these per question, and getters on
 * the prototype cost none of the per-object accessors an object literal's would.
 */
class RankedHit implements Hit {
  private sent: ResultItem | undefined;

  constructor(
    private readonly chunk: StoredChunk,
    private readonly file: { path: string; kind: string },
    private readonly score: number,
    readonly reasons: string[],
    private readonly terms: Set<string>,
  ) {}

  get chunkId(): number {
    return this.chunk.id;
  }

  get path(): string {
    return this.file.path;
  }

  get breadcrumb(): string {
    return this.chunk.breadcrumb;
  }

  get text(): string {
    return this.chunk.text; // unpacked when first read (store/chunk-text.ts): most of a pool's hits are judged without it
  }

  get wire(): ResultItem {
    const { chunk, file } = this;
    return (this.sent ??= {
      path: file.path,
      start_line: chunk.startLine,
      end_line: chunk.endLine,
      symbol: chunk.symbol,
      kind: file.kind,
      score: round(this.score),
      reasons: this.reasons,
      snippet: snippetFor(chunk.text, chunk.startLine, this.terms),
    });
  }
}

function searchUncached(repo: Repo, options: SearchOptions, within: RankedWith): SearchHits {
  const query = options.query?.trim() ?? '';
  if (!query) throw usageError('the query is empty: pass the words, identifier or pattern to look for');
  checkQuery(query);
  const k = validK(options.k);
  const accept = pathFilter({ scope: options.scope, exclude: options.exclude });
  if (options.regex) return regexSearch(repo, query, k, accept, options.kind);

  const question = ask(query);
  const terms = question.read.terms.map((t) => t.term);
  if (terms.length === 0) {
    throw usageError(`the query "${query}" has no searchable words (only punctuation); use regex: true to match symbols literally`);
  }
  const termSet = new Set(terms);
  const rankOptions = { accept, kinds: options.kind, limit: k, ...(within.depth ? { depth: within.depth } : {}), ...(within.signals ? { signals: within.signals } : {}) };
  // Hybrid retrieval (search/hybrid.ts): vector hits fused with the keyword ranking.
  const files = options.files ? hybridFiles(repo.store, repo.config, question, rankOptions, options.mode) : null;
  const chunks = files ? null : hybridChunks(repo.store, repo.config, question, rankOptions, options.mode, within.keyword);
  const hits = files
    ? files.results.map((f) => new RankedHit(f.best.chunk, f.file, f.score, f.reasons, termSet))
    : chunks!.results.map((r) => new RankedHit(r.chunk, r.file, r.score, r.reasons, termSet));
  const { mode, phase } = files ?? chunks!;
  const ranking = chunks && options.mode === 'keyword' ? { ranking: chunks.results } : files?.signals ? { signals: files.signals } : {};
  return { envelope: { status: 'ok', mode, retrieval_phase: phase, query, total: hits.length }, hits, ...ranking };
}

/**
 * What RE2 cannot run in linear time, found before compiling so the refusal
 * can say which construct and what to do instead; and JavaScript's `\uXXXX`
 * escapes rewritten to RE2's `\x{XXXX}`, so a pattern reads as it would in JS.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) {
        throw regexRefusal('a backreference', 'match the text itself, or search the name with locate');
      }
      const unicode = next === 'u' ? /^u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/.exec(pattern.slice(i + 1, i + 10)) : null;
      if (unicode) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        i += unicode[0].length;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && pattern[i + 1] === '?' && /^(?:[=!]|<[=!])/.test(pattern.slice(i + 2, i + 4))) {
      throw regexRefusal('lookaround ((?=, (?!, (?<=, (?<!)', 'match the surrounding text as part of the pattern, or filter with scope and exclude');
    }
    out += c;
  }
  return out;
}

function regexRefusal(construct: string, instead: string) {
  return usageError(`the regular expression uses ${construct}, which the linear-time engine (RE2 syntax) cannot run: ${instead}`);
}

/** re2js (~270 KB of code), loaded by the first regex search rather than by every search; synchronously, as searching is. */
let re2: typeof RE2JS | undefined;

/** Caller patterns run on RE2 (re2js): time linear in the text, whatever the pattern, so one request cannot stall the server. */
function compileRegex(pattern: string): { test(line: string): boolean } {
  checkPattern(pattern, 'the regular expression');
  const source = toRe2Syntax(pattern);
  re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  try {
    return re2.compile(source);
  } catch (err) {
    throw usageError(`invalid regular expression (RE2 syntax): ${(err as Error).message.replace(/^error parsing regexp: /, '')}`);
  }
}

/**
 * What a pattern needs to be tested one line at a time: an anchor (`^`, `$`, `\A`, `\z`) or a flag
 * group. A pattern with none matches some line of a text only if it matches the text (a word
 * boundary at a line's edge sees the newline as it would the line's end), so a chunk the pattern
 * does not match is skipped whole, without splitting it into lines.
 */
const LINE_BOUND = /[\^$]|\\[Az]|\(\?/;

/** A line scan over the indexed text: each chunk with matching lines is one result, scored by its match count. */
function regexSearch(repo: Repo, pattern: string, k: number, accept: (p: string) => boolean, kinds?: string[]): SearchHits {
  const re = compileRegex(pattern);
  const wholeFirst = !LINE_BOUND.test(pattern);
  const kindSet = kinds?.length ? new Set(kinds) : null;
  const files = repo.store.fileList().byPath;
  const hits: Hit[] = [];
  const seenLines = new Set<string>(); // overlapping line windows must not count a line twice
  for (const chunk of repo.store.chunks.scan()) {
    if (!accept(chunk.path)) continue;
    const kind = files.get(chunk.path)?.kind ?? 'code';
    if (kindSet && !kindSet.has(kind)) continue;
    if (wholeFirst && !re.test(chunk.text)) continue;
    const matched: string[] = [];
    chunk.text.split('\n').forEach((line, i) => {
      if (!re.test(line)) return; // before the line's key: most lines of a scan do not match
      const lineNo = chunk.startLine + i;
      const key = `${chunk.path}:${lineNo}`;
      if (seenLines.has(key)) return;
      seenLines.add(key);
      matched.push(numberedLine(lineNo, line.trimEnd()));
    });
    if (matched.length === 0) continue;
    const reasons = [`regex:${matched.length}`];
    hits.push({
      chunkId: chunk.id,
      path: chunk.path,
      breadcrumb: chunk.breadcrumb,
      text: chunk.text,
      reasons,
      wire: {
        path: chunk.path,
        start_line: chunk.startLine,
        end_line: chunk.endLine,
        symbol: chunk.symbol,
        kind,
        score: matched.length,
        reasons,
        snippet: matched.slice(0, 3).join('\n'),
      },
    });
  }
  const order = (a: ResultItem, b: ResultItem) => b.score - a.score || byCodeUnit(a.path, b.path) || a.start_line - b.start_line;
  hits.sort((a, b) => order(a.wire, b.wire));
  return { envelope: { status: 'ok', mode: 'keyword', query: pattern, total: hits.length }, hits: hits.slice(0, k) };
}
