/**
 * Context expansion for a bundle at `slices` detail: around the units it delivers, the
 * neighbouring chunks, the other members of the same class or module, and the definitions they
 * use from other files (see expand.ts). They are extra units, each with the reasons it was added,
 * packed after every unit the ranking asked for and only into what those left of the budget.
 */
import type { StoredFile } from '../store/index.js';
import type { Unit } from './context-units.js';
import { expand, expansionOptions } from './expand.js';
import type { Repo } from './repo.js';

export interface Delivered {
  path: string;
  units: Unit[];
}

/** Extra units by path, in priority order; none the bundle delivers or the caller holds. */
export function expansionUnits(repo: Repo, delivered: Delivered[], unitsOf: (file: StoredFile) => Unit[], holds: (receipt: string) => boolean): Map<string, Unit[]> {
  const seeds = delivered.flatMap((d) => d.units.map((u) => ({ path: d.path, start_line: u.start_line })));
  const taken = new Set(delivered.flatMap((d) => d.units.map((u) => u.receipt)));
  const out = new Map<string, Unit[]>();
  for (const added of expand(repo, seeds, expansionOptions(repo))) {
    const file = repo.store.files.get(added.path);
    const unit = file && unitsOf(file).find((u) => u.start_line === added.start_line && u.end_line === added.end_line);
    if (!unit || taken.has(unit.receipt) || holds(unit.receipt)) continue;
    taken.add(unit.receipt);
    const list = out.get(added.path) ?? [];
    list.push({ ...unit, reasons: added.reasons });
    out.set(added.path, list);
  }
  return out;
}
