/**
 * Expansions of a bundle at `slices` detail: around the units it delivers,
 * the neighbouring chunks, the other members of the same class or module, and
 * the definitions they use from other files (see expand.ts). They are extra
 * units, each with the reasons it was added, packed after every unit the
 * ranking asked for and only into what those left of the budget.
 */
import { pack, type PackCandidate, type Packed } from '../budget/index.js';
import type { ContextEntry } from './context.js';
import type { BundleDraft, Plan, Planned } from './context-draft.js';
import type { RankedFile } from './context-rank.js';
import type { Unit } from './context-units.js';
import { expand, expansionOptions } from './expansions.js';
import type { Repo } from './repo.js';

interface Delivered {
  path: string;
  units: Unit[];
}

/** Extra units by path, in priority order; none the bundle delivers or the caller holds. */
function expansionUnits(repo: Repo, delivered: Delivered[], draft: BundleDraft, holds: (receipt: string) => boolean): Map<string, Unit[]> {
  const seeds = delivered.flatMap((d) => d.units.flatMap((u) => (u.chunkId === undefined ? [] : [u.chunkId])));
  const taken = new Set(delivered.flatMap((d) => d.units.map((u) => u.receipt)));
  const out = new Map<string, Unit[]>();
  for (const added of expand(repo, seeds, expansionOptions(repo))) {
    const file = repo.store.files.get(added.path);
    const unit = file && draft.units.of(file).find((u) => u.chunkId === added.chunk_id);
    if (!unit || taken.has(unit.receipt) || holds(unit.receipt)) continue;
    taken.add(unit.receipt);
    const list = out.get(added.path) ?? [];
    list.push({ ...unit, reasons: added.reasons });
    out.set(added.path, list);
  }
  return out;
}

export interface ExpansionPacking {
  repo: Repo;
  draft: BundleDraft;
  holds: (receipt: string) => boolean;
  budget: number;
  top: number;
  render: (entries: ContextEntry[], responseTokens: number) => string;
}

/** The packed slices, then their expansions in what the slices left (a file not yet in the bundle becomes an entry). */
export function withExpansions(plan: Plan, packed: Packed<ContextEntry>, p: ExpansionPacking): Packed<ContextEntry> {
  const picked = packed.picks.map(({ candidate, take }) => ({ c: plan.candidates[candidate]!, take }));
  const delivered = picked.map(({ c, take }) => ({ path: c.ranked.file.path, units: c.units.slice(0, take) }));
  const extra = expansionUnits(p.repo, delivered, p.draft, p.holds);
  if (extra.size === 0) return packed;
  const grown: { c: Planned; min?: number }[] = picked.map(({ c, take }) => ({ c: p.draft.planned(c.ranked, [...c.units.slice(0, take), ...(extra.get(c.ranked.file.path) ?? [])]), min: take }));
  const inBundle = new Set(delivered.map((d) => d.path));
  for (const [path, units] of extra) {
    if (inBundle.has(path)) continue;
    const ranked: RankedFile = { file: p.repo.store.files.get(path)!, reasons: [...new Set(units.flatMap((u) => u.reasons ?? []))], anchors: [] };
    grown.push({ c: p.draft.planned(ranked, units) });
  }
  const candidates: PackCandidate<ContextEntry>[] = grown.map(({ c, min }) => p.draft.candidate(c, min));
  return pack({ budget: p.budget, top: p.top, candidates, render: p.render });
}
