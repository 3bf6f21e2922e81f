/**
 * `context`: what a task needs, in one call, under a hard token ceiling.
 * Files are ranked for the task (and the exact identifiers it names), then
 * packed best first at the richest detail that fits: the slices that matched
 * with their neighbours, the file's outline, or just its path. The response
 * as delivered, JSON and all, never exceeds `budget_tokens`; when not even
 * one entry fits it fails closed and says what budget would do.
 *
 * Every delivered unit has a receipt. Units the caller holds (receipts sent
 * back in `seen`, or delivered earlier in the same session) and files it
 * holds whole (`known` path@hash claims, honoured only for a version that
 * was delivered whole) are not sent again: they are listed in `reused`.
 */
import {
  countTokens,
  pack,
  parseKnown,
  selfCountedTokens,
  trimToBudget,
  wholeFileReceipt,
  type PackCandidate,
  type Packed,
  type ReceiptBook,
} from '../budget/index.js';
import type { Citation, CitationProbe } from '../cite/index.js';
import { checkQuery, checkSession, usageError } from '../errors/index.js';
import type { MemoryHit } from '../memory/index.js';
import type { StoredFile } from '../store/index.js';
import { expansionUnits } from './context-expand.js';
import { chunkUnits, joinUnits, outlineUnit, slicePlan, type Unit } from './context-units.js';
import type { SearchEnvelope } from './envelope.js';
import type { SearchMode } from '../search/index.js';
import { fullReadTokens } from './file-tokens.js';
import { bestEffort, citationProbe } from './gated.js';
import type { IndexReadiness } from './jobs.js';
import { locate } from './locate.js';
import type { Repo } from './repo.js';
import { search } from './search.js';
import { indexSource, type IndexSource } from '../index/index.js';

export type ContextDetail = 'paths' | 'outline' | 'slices';

export interface ContextOptions {
  task: string;
  /** Exact identifiers the task is about: their definitions rank first. */
  terms?: string[];
  scope?: string;
  /** Most entries (default: config contextTop, 10; at most 50). */
  top?: number;
  /** Ceiling for the whole response (default: config contextBudgetTokens, 8,192; at most 200,000). */
  budgetTokens?: number;
  detail?: ContextDetail | 'auto';
  /** Receipts of units the caller already holds. */
  seen?: string[];
  /** `path@content_hash` claims of files the caller holds whole. */
  known?: string[];
  /** Keeps receipts across calls (in the index database, for a day). */
  session?: string;
  probe?: CitationProbe;
  /** At `slices` detail, spend what the slices leave of the budget on their expansions (default true). */
  expand?: boolean;
  /** The index job's phase, which the face reports while the first index builds; part of the response, so counted. */
  phase?: IndexReadiness;
  /** Memory entries that hold the task's words (engine/remembered.ts): sent within MEMORY_SHARE of the budget. */
  remembered?: MemoryHit[];
}

export interface ContextUnitRef {
  receipt: string;
  /** First and last line (1-based, inclusive). */
  lines: [number, number];
  symbol?: string;
  /** An expansion's reasons: `neighbor-of:`, `sibling-of:` or `imported-by:<path>:<line>` of a unit it was added for. */
  reasons?: string[];
}

export interface ContextEntry extends Citation {
  path: string;
  reasons: string[];
  content_hash: string;
  /** Tokens to read the whole file. */
  full_read_tokens: number;
  /** Exact tokens of `content`. */
  tokens: number;
  /** The entry holds every unit of the file: the whole file, delivered. */
  whole?: true;
  units?: ContextUnitRef[];
  /** The units' text in line order; `⋮` marks code left out between them. */
  content?: string;
}

export interface ReusedEntry {
  path: string;
  content_hash: string;
  /** Units not sent again because the caller holds them. */
  units?: number;
  /** The caller holds the whole file (a `known` claim honoured). */
  whole?: true;
}

export interface ContextEnvelope {
  status: 'ok';
  mode: SearchMode;
  detail: ContextDetail;
  budget_tokens: number;
  /** Tokens of this whole response as delivered (its JSON text). */
  response_tokens: number;
  entries: ContextEntry[];
  reused: ReusedEntry[];
  /** Reused files left out of `reused` to stay within budget. */
  reused_omitted?: number;
  /** Of the top files with something to send, how many did not fit. */
  omitted: number;
  /** Whole-file tokens of the files delivered whole in this response. */
  reads_replaced_tokens: number;
  /** Claims not honoured, and why. */
  known_ignored?: { claim: string; reason: 'not_delivered_whole' | 'version_changed' | 'not_indexed' }[];
  /** Set when nothing fit: a budget guaranteed to admit at least one entry. */
  retry_budget_tokens?: number;
  note?: string;
  /** What agents remembered about the task's words (see docs/memory.md). */
  memory?: (MemoryHit & { tokens: number })[];
  /** What the local index was built from (commit, digest), so bundles from two servers can be compared. */
  index_source?: IndexSource;
  retrieval_phase: NonNullable<SearchEnvelope['retrieval_phase']>;
}

/** Remembered entries take at most this share of a bundle's budget: the code is what the bundle is for. */
const MEMORY_SHARE = 1 / 8;

export const MIN_BUDGET_TOKENS = 128;
export const MAX_BUDGET_TOKENS = 200_000;
export const MAX_TOP = 50;
/** Ranked files considered per entry wanted, so reused files can be skipped and small ones fill the budget. */
const CANDIDATES_PER_ENTRY = 4;
/** Definitions of one named term put first (a name defined everywhere is not a lead). */
const DEFINITIONS_PER_TERM = 5;
/** Chunk hits read to find the slices of each file. */
const CHUNK_POOL = 200;
/** Room for what differs between a fail-closed answer and the retry (numbers, notes). */
const RETRY_SLACK = 16;

interface RankedFile {
  file: StoredFile;
  reasons: string[];
  /** Lines whose chunks matched, best first. */
  anchors: number[];
}

interface Planned {
  ranked: RankedFile;
  units: Unit[];
  /** Every unit of the version is among `units` and none was held: delivering all is delivering the file whole. */
  wholeIfAll: boolean;
}

interface Plan {
  candidates: Planned[];
  reused: ReusedEntry[];
}

function validate(repo: Repo, options: ContextOptions) {
  const task = options.task?.trim() ?? '';
  const terms = (options.terms ?? []).map((t) => t.trim()).filter(Boolean);
  checkQuery(task, 'task');
  terms.forEach((t, i) => checkQuery(t, `terms[${i}]`));
  if (!task && terms.length === 0) throw usageError('context needs a task: a sentence saying what you are about to do');
  const top = options.top ?? repo.config.contextTop;
  if (!Number.isInteger(top) || top < 1 || top > MAX_TOP) throw usageError(`top must be a whole number from 1 to ${MAX_TOP} (got ${top})`);
  const budget = options.budgetTokens ?? repo.config.contextBudgetTokens;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET_TOKENS || budget > MAX_BUDGET_TOKENS) {
    throw usageError(`budget_tokens must be a whole number from ${MIN_BUDGET_TOKENS} to ${MAX_BUDGET_TOKENS} (got ${budget})`);
  }
  const detail = options.detail ?? repo.config.contextDetail;
  if (!['paths', 'outline', 'slices', 'auto'].includes(detail)) throw usageError(`detail must be paths, outline, slices or auto (got ${detail})`);
  return { task, terms, top, budget, levels: detail === 'auto' ? (['slices', 'outline', 'paths'] as const) : [detail as ContextDetail] };
}

/** Files for the task, best first: definitions of the named terms, then the ranking's files. */
function rankFilesFor(repo: Repo, query: string, terms: string[], scope: string | undefined, want: number): { files: RankedFile[]; mode: SearchMode; phase: SearchEnvelope['retrieval_phase'] } {
  const byPath = new Map<string, RankedFile>();
  const add = (path: string, reasons: string[], anchor: number) => {
    const known = byPath.get(path);
    if (known) {
      known.reasons.push(...reasons.filter((r) => !known.reasons.includes(r)));
      known.anchors.push(anchor);
      return;
    }
    const file = repo.store.files.get(path);
    if (file) byPath.set(path, { file, reasons: [...reasons], anchors: [anchor] });
  };
  for (const term of terms) {
    for (const d of locate(repo, { query: term, kind: 'definition', scope, maxResults: DEFINITIONS_PER_TERM }).results) add(d.path, [`defines:${term}`], d.start_line);
  }
  const files = search(repo, { query, scope, files: true, k: want });
  for (const r of files.results) add(r.path, r.reasons, r.start_line);
  for (const r of search(repo, { query, scope, k: CHUNK_POOL }).results) byPath.get(r.path)?.anchors.push(r.start_line);
  return { files: [...byPath.values()], mode: files.mode, phase: files.retrieval_phase };
}

function receiptBook(repo: Repo, session: string | undefined, seen: string[]): ReceiptBook {
  const held = new Set(seen);
  if (!session) return { holds: (r) => held.has(r), record: () => {} };
  checkSession(session);
  const sessions = repo.store.sessions;
  bestEffort(() => sessions.touch(session));
  return { holds: (r) => held.has(r) || sessions.holds(session, r), record: (rs) => bestEffort(() => sessions.record(session, rs)) };
}

export function packContext(repo: Repo, options: ContextOptions): ContextEnvelope {
  const { task, terms, top, budget, levels } = validate(repo, options);
  const memory = trimToBudget(options.remembered ?? [], Math.floor(budget * MEMORY_SHARE)).kept;
  // Carried by every answer, counted in it: what agents remembered, and what the index was built from.
  const carried: Partial<ContextEnvelope> = { ...(memory.length ? { memory } : {}), index_source: indexSource(repo.store) };
  const probe = options.probe ?? citationProbe(repo);
  const book = receiptBook(repo, options.session, options.seen ?? []);
  const ranked = rankFilesFor(repo, [task, ...terms].join(' '), terms, options.scope, Math.min(500, top * CANDIDATES_PER_ENTRY));
  const { files, mode } = ranked;
  // As the MCP face reports it: the first index still building, else how far the search's vectors are.
  const phase = options.phase === 'building' ? 'building' : (ranked.phase ?? options.phase ?? 'serving');

  // Whole-file claims: honoured only for the current version, and only if it was delivered whole.
  const claims = new Map<string, string>();
  const knownIgnored: NonNullable<ContextEnvelope['known_ignored']> = [];
  for (const claim of options.known ?? []) {
    const parsed = parseKnown(claim);
    if (!parsed) throw usageError(`known claims are path@content_hash (got "${claim}")`);
    claims.set(parsed.path, parsed.hash);
  }
  const chunksOf = new Map<string, Unit[]>();
  const allUnits = (f: StoredFile) => {
    let units = chunksOf.get(f.path);
    if (!units) chunksOf.set(f.path, (units = chunkUnits(repo.store, f)));
    return units;
  };
  const heldWhole = new Set<string>();
  for (const [path, hash] of claims) {
    const file = repo.store.files.get(path);
    const reason = !file ? 'not_indexed' : file.digest !== hash ? 'version_changed' : !holdsWhole(file) ? 'not_delivered_whole' : null;
    if (reason) knownIgnored.push({ claim: `${path}@${hash}`, reason });
    else heldWhole.add(path);
  }
  function holdsWhole(file: StoredFile): boolean {
    return book.holds(wholeFileReceipt(file.path, file.digest)) || allUnits(file).every((u) => book.holds(u.receipt));
  }

  const plan = (level: ContextDetail): Plan => {
    const candidates: Planned[] = [];
    const reused: ReusedEntry[] = [];
    for (const ranked of files) {
      const { file } = ranked;
      if (heldWhole.has(file.path)) {
        reused.push({ path: file.path, content_hash: file.digest, whole: true });
        continue;
      }
      const wanted = level === 'slices' ? slicePlan(allUnits(file), ranked.anchors, file.tokens) : level === 'outline' ? [outlineUnit(repo.store, file)].filter((u) => u !== null) : [];
      const units = wanted.filter((u) => !book.holds(u.receipt));
      const held = wanted.length - units.length;
      if (held > 0) reused.push({ path: file.path, content_hash: file.digest, units: held });
      if (wanted.length > 0 && units.length === 0) continue; // nothing new to send: not charged against top
      candidates.push({ ranked, units, wholeIfAll: level === 'slices' && held === 0 && units.length === allUnits(file).length });
    }
    return { candidates, reused };
  };

  const entryCache = new Map<Planned, Map<number, ContextEntry>>();
  const entry = (c: Planned, take: number): ContextEntry => {
    let byTake = entryCache.get(c);
    if (!byTake) entryCache.set(c, (byTake = new Map()));
    const cached = byTake.get(take);
    if (cached) return cached;
    const { file, reasons } = c.ranked;
    const units = c.units.slice(0, take);
    const content = units.length ? joinUnits(units) : undefined;
    const built: ContextEntry = {
      path: file.path,
      reasons,
      ...probe.check(file.path),
      content_hash: file.digest,
      full_read_tokens: fullReadTokens(repo, file),
      tokens: content === undefined ? 0 : countTokens(content),
      ...(c.wholeIfAll && take === c.units.length ? { whole: true as const } : {}),
      ...(units.length
        ? {
            units: [...units]
              .sort((a, b) => a.start_line - b.start_line)
              .map((u) => ({
                receipt: u.receipt,
                lines: [u.start_line, u.end_line] as [number, number],
                ...(u.symbol ? { symbol: u.symbol } : {}),
                ...(u.reasons ? { reasons: u.reasons } : {}),
              })),
            content,
          }
        : {}),
    };
    byTake.set(take, built);
    return built;
  };

  /** A planned file delivering these units: whole when they are all of its units. */
  const planned = (ranked: RankedFile, units: Unit[]): Planned => ({ ranked, units, wholeIfAll: units.length === allUnits(ranked.file).length });

  /** The packed slices, then their expansions in what the slices left (a file not yet in the bundle becomes an entry). */
  const withExpansions = (p: Plan, packed: Packed<ContextEntry>, draw: (entries: ContextEntry[], responseTokens: number) => string): Packed<ContextEntry> => {
    const picked = packed.picks.map(({ candidate, take }) => ({ c: p.candidates[candidate]!, take }));
    const delivered = picked.map(({ c, take }) => ({ path: c.ranked.file.path, units: c.units.slice(0, take) }));
    const extra = expansionUnits(repo, delivered, allUnits, book.holds);
    if (extra.size === 0) return packed;
    const grown: { c: Planned; min?: number }[] = picked.map(({ c, take }) => ({ c: planned(c.ranked, [...c.units.slice(0, take), ...(extra.get(c.ranked.file.path) ?? [])]), min: take }));
    for (const [path, units] of extra) {
      if (picked.some(({ c }) => c.ranked.file.path === path)) continue;
      const ranked: RankedFile = { file: repo.store.files.get(path)!, reasons: [...new Set(units.flatMap((u) => u.reasons ?? []))], anchors: [] };
      grown.push({ c: planned(ranked, units) });
    }
    const candidates: PackCandidate<ContextEntry>[] = grown.map(({ c, min }) => ({ units: c.units.length, min, build: (take) => entry(c, take) }));
    return pack({ budget, top, candidates, render: draw });
  };

  type Lists = { reused: ReusedEntry[]; reusedOmitted: number; knownIgnored: NonNullable<ContextEnvelope['known_ignored']> };
  const render = (level: ContextDetail, plan: Plan, { reused, reusedOmitted, knownIgnored }: Lists, extra: Partial<ContextEnvelope>) =>
    (entries: ContextEntry[], responseTokens: number): string => {
      const envelope: ContextEnvelope = {
        status: 'ok',
        mode,
        detail: level,
        budget_tokens: budget,
        response_tokens: responseTokens,
        entries,
        reused,
        ...(reusedOmitted ? { reused_omitted: reusedOmitted } : {}),
        omitted: Math.max(0, Math.min(top, plan.candidates.length) - entries.filter((e) => plan.candidates.some((c) => c.ranked.file.path === e.path)).length),
        reads_replaced_tokens: entries.reduce((s, e) => s + (e.whole ? e.full_read_tokens : 0), 0),
        ...(knownIgnored.length ? { known_ignored: knownIgnored } : {}),
        ...extra,
        retrieval_phase: phase,
      };
      return JSON.stringify(envelope);
    };

  /** The reused list (then the ignored claims, which are only diagnostics), shortened until an empty answer fits. */
  const fitLists = (level: ContextDetail, plan: Plan, extra: Partial<ContextEnvelope>): Lists => {
    const lists: Lists = { reused: [...plan.reused], reusedOmitted: 0, knownIgnored: [...knownIgnored] };
    while (countTokens(render(level, plan, lists, extra)([], budget)) > budget) {
      if (lists.reused.pop()) lists.reusedOmitted++;
      else if (!lists.knownIgnored.pop()) break;
    }
    return lists;
  };

  let last: { level: ContextDetail; plan: Plan } | null = null;
  for (const level of levels) {
    const p = plan(level);
    last = { level, plan: p };
    if (p.candidates.length === 0) break; // nothing new to send: a poorer detail would only repeat it
    const candidates: PackCandidate<ContextEntry>[] = p.candidates.map((c) => ({ units: c.units.length, build: (take) => entry(c, take) }));
    const draw = render(level, p, fitLists(level, p, carried), carried);
    let packed = pack({ budget, top, candidates, render: draw });
    if (packed.entries.length === 0) continue;
    if (level === 'slices' && options.expand !== false) packed = withExpansions(p, packed, draw);
    record(book, packed.entries, (path) => allUnits(repo.store.files.get(path)!), options.session);
    return JSON.parse(draw(packed.entries, packed.responseTokens)) as ContextEnvelope;
  }

  // Nothing fit (or nothing to send): fail closed.
  const { level, plan: lastPlan } = last!;
  const { candidates } = lastPlan;
  const extra: Partial<ContextEnvelope> = { ...carried };
  if (candidates.length > 0) {
    // Everything the next call will list too, plus the cheapest entry.
    const full: Lists = { reused: lastPlan.reused, reusedOmitted: 0, knownIgnored };
    const one = (c: Planned) => selfCountedTokens((n) => render(level, lastPlan, full, carried)([entry(c, c.units.length ? 1 : 0)], n));
    extra.retry_budget_tokens = Math.min(...candidates.slice(0, top).map(one)) + RETRY_SLACK;
    extra.note = `nothing fits in ${budget} tokens at detail ${level}; retry with budget_tokens ${extra.retry_budget_tokens}`;
  } else {
    extra.note = files.length === 0 ? 'nothing matched the task; try other words or exact identifiers in terms' : 'everything relevant was already delivered (see reused)';
  }
  const draw = render(level, lastPlan, fitLists(level, lastPlan, extra), extra);
  return JSON.parse(draw([], selfCountedTokens((n) => draw([], n)))) as ContextEnvelope;
}

/** With a session, remembers each delivered unit, and each version the caller now holds whole. */
function record(book: ReceiptBook, entries: ContextEntry[], unitsOf: (path: string) => Unit[], session: string | undefined): void {
  if (!session) return;
  const delivered = new Set(entries.flatMap((e) => (e.units ?? []).map((u) => u.receipt)));
  const receipts = [...delivered];
  for (const e of entries) {
    if (!e.units?.length) continue;
    const all = unitsOf(e.path);
    if (all.every((u) => delivered.has(u.receipt) || book.holds(u.receipt))) receipts.push(wholeFileReceipt(e.path, e.content_hash));
  }
  book.record(receipts);
}
