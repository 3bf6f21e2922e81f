/**
 * One bundle in the making: at a detail level, which units of each ranked
 * file are worth sending (the plan), each file's entry for its first `take`
 * units (built once, since packing asks for the same entry many times), and
 * the envelope around the entries, which states its own size.
 */
import { countTokens, jsonTokens, type PackCandidate } from '../budget/index.js';
import type { CitationProbe } from '../cite/index.js';
import type { ContextDetail, ContextEntry, ContextEnvelope, ReusedEntry } from './context.js';
import type { KnownIgnored, UnitCache } from './context-held.js';
import type { RankedFile } from './context-rank.js';
import { joinUnits, outlineUnit, slicePlan, type Unit } from './context-units.js';
import { fullReadTokens } from './file-tokens.js';
import type { Repo } from './repo.js';

export interface Planned {
  ranked: RankedFile;
  units: Unit[];
  /** Every unit of the version is among `units` and none was held: delivering all is delivering the file whole. */
  wholeIfAll: boolean;
}

export interface Plan {
  level: ContextDetail;
  candidates: Planned[];
  reused: ReusedEntry[];
}

/** What every envelope of one call says the same way. */
export interface Frame {
  mode: ContextEnvelope['mode'];
  budget: number;
  top: number;
  phase: ContextEnvelope['retrieval_phase'];
}

/** The lists an envelope carries besides its entries, shortened when even an empty answer would not fit. */
export interface Lists {
  reused: ReusedEntry[];
  reusedOmitted: number;
  knownIgnored: KnownIgnored;
}

/** The envelope for some entries, given the size it will state. */
export type Build = (entries: ContextEntry[], responseTokens: number) => ContextEnvelope;

/**
 * Of a bundle's budget, what naming its top files may take before any file gets more: each is at
 * least named (its path, reasons and what reading it costs), so a bundle lists the files that
 * rank highest even where the first ones' slices would take the whole budget. On the dev issues
 * at 8,192 tokens, bundles holding every gold file went from 73.9 % to 79.3 %: every issue whose
 * gold files all rank in the top 10 (docs/benchmarks.md#budgets-and-citations).
 */
const NAMES_SHARE = 1 / 4;
/** Per name: a comma, and tokens that merge differently across a boundary (as pack.ts counts an entry). */
const NAME_SLACK = 2;

export class BundleDraft {
  private readonly built = new Map<Planned, Map<number, ContextEntry>>();

  constructor(
    private readonly repo: Repo,
    private readonly probe: CitationProbe,
    readonly units: UnitCache,
    private readonly holds: (receipt: string) => boolean,
  ) {}

  /** At this detail: what each file would send that the caller does not hold, and what it holds. */
  plan(level: ContextDetail, files: RankedFile[], heldWhole: Set<string>): Plan {
    const candidates: Planned[] = [];
    const reused: ReusedEntry[] = [];
    for (const ranked of files) {
      const { file } = ranked;
      if (heldWhole.has(file.path)) {
        reused.push({ path: file.path, content_hash: file.digest, whole: true });
        continue;
      }
      const wanted = level === 'slices' ? slicePlan(this.units.of(file), ranked.anchors, file.tokens) : level === 'outline' ? [outlineUnit(this.repo.store, file)].filter((u) => u !== null) : [];
      const units = wanted.filter((u) => !this.holds(u.receipt));
      const held = wanted.length - units.length;
      if (held > 0) reused.push({ path: file.path, content_hash: file.digest, units: held });
      if (wanted.length > 0 && units.length === 0) continue; // nothing new to send: not charged against top
      candidates.push({ ranked, units, wholeIfAll: level === 'slices' && held === 0 && units.length === this.units.of(file).length });
    }
    return { level, candidates, reused };
  }

  /** A file delivering these units: whole when they are all of its units. */
  planned(ranked: RankedFile, units: Unit[]): Planned {
    return { ranked, units, wholeIfAll: units.length === this.units.of(ranked.file).length };
  }

  candidate(c: Planned, min?: number): PackCandidate<ContextEntry> {
    return { units: c.units.length, ...(min === undefined ? {} : { min }), build: (take) => this.entry(c, take) };
  }

  /**
   * The plan's files as candidates, best first: the top ones named whatever else fits, while their
   * names fit in NAMES_SHARE of the budget and in `room` (what the envelope leaves of it).
   */
  candidates(plan: Plan, budget: number, room: number, top: number): PackCandidate<ContextEntry>[] {
    let left = plan.level === 'paths' ? 0 : Math.min(Math.floor(budget * NAMES_SHARE), room);
    return plan.candidates.map((c, i) => {
      const name = i < top && left > 0 ? jsonTokens(this.entry(c, 0)) + NAME_SLACK : Infinity;
      const named = name <= left;
      left = named ? left - name : 0;
      return this.candidate(c, named ? 0 : undefined);
    });
  }

  /** The file's entry delivering its first `take` planned units. */
  entry(c: Planned, take: number): ContextEntry {
    let byTake = this.built.get(c);
    if (!byTake) this.built.set(c, (byTake = new Map()));
    const cached = byTake.get(take);
    if (cached) return cached;
    const { file, reasons } = c.ranked;
    const units = c.units.slice(0, take);
    const content = units.length ? joinUnits(units) : undefined;
    const entry: ContextEntry = {
      path: file.path,
      reasons,
      ...this.probe.check(file.path),
      content_hash: file.digest,
      full_read_tokens: fullReadTokens(this.repo, file),
      tokens: content === undefined ? 0 : countTokens(content),
      ...(c.wholeIfAll && take === c.units.length ? { whole: true as const } : {}),
      ...(units.length ? { units: unitRefs(units), content } : {}),
    };
    byTake.set(take, entry);
    return entry;
  }
}

function unitRefs(units: Unit[]): NonNullable<ContextEntry['units']> {
  return [...units]
    .sort((a, b) => a.start_line - b.start_line)
    .map((u) => ({
      receipt: u.receipt,
      lines: [u.start_line, u.end_line] as [number, number],
      ...(u.symbol ? { symbol: u.symbol } : {}),
      ...(u.reasons ? { reasons: u.reasons } : {}),
    }));
}

/** The envelope around a plan's entries. */
export function envelopeFor(frame: Frame, plan: Plan, lists: Lists, extra: Partial<ContextEnvelope>): Build {
  const { budget, top } = frame;
  const ranked = new Set(plan.candidates.map((c) => c.ranked.file.path));
  return (entries, responseTokens) => ({
    status: 'ok',
    mode: frame.mode,
    detail: plan.level,
    budget_tokens: budget,
    response_tokens: responseTokens,
    entries,
    reused: lists.reused,
    ...(lists.reusedOmitted ? { reused_omitted: lists.reusedOmitted } : {}),
    omitted: Math.max(0, Math.min(top, plan.candidates.length) - entries.filter((e) => ranked.has(e.path)).length),
    reads_replaced_tokens: entries.reduce((s, e) => s + (e.whole ? e.full_read_tokens : 0), 0),
    ...(lists.knownIgnored.length ? { known_ignored: lists.knownIgnored } : {}),
    ...extra,
    retrieval_phase: frame.phase,
  });
}

/** The reused list (then the ignored claims, which are only diagnostics), shortened until an empty answer fits. */
export function fitLists(frame: Frame, plan: Plan, knownIgnored: KnownIgnored, extra: Partial<ContextEnvelope>): Lists {
  const lists: Lists = { reused: [...plan.reused], reusedOmitted: 0, knownIgnored: [...knownIgnored] };
  while (countTokens(drawn(envelopeFor(frame, plan, lists, extra))([], frame.budget)) > frame.budget) {
    if (lists.reused.pop()) lists.reusedOmitted++;
    else if (!lists.knownIgnored.pop()) break;
  }
  return lists;
}

/** The envelope as sent: what its size is counted on. */
export const drawn = (build: Build) => (entries: ContextEntry[], responseTokens: number): string => JSON.stringify(build(entries, responseTokens));
