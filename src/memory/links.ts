/**
 * Links from a memory record to files, symbols and other memory. A link to
 * code captures the target's digest when it is made; reading the record
 * compares it with the target's digest now: drifted, never captured, or no
 * live target at all is `stale`, and the last is also `dangling`.
 */
import type { Citation, CitationProbe } from '../cite/index.js';
import { usageError } from '../errors/index.js';
import type { Memory } from './handle.js';
import { parseKey } from './keys.js';
import { checkRelation, LIMITS } from './record.js';
import type { LinkRegister, StoredRecord } from './types.js';

export type LinkMap = Record<string, string[]>;

/** Validates relation → targets, normalising each target key (paths confined to the repository). */
export function parseLinks(memory: Memory, links: LinkMap | undefined, capture: boolean): { relation: string; target: string; digest: string | null }[] {
  const out: { relation: string; target: string; digest: string | null }[] = [];
  for (const [relation, targets] of Object.entries(links ?? {})) {
    checkRelation(relation);
    for (const raw of targets) {
      const target = parseKey(raw, memory.root);
      const node = capture && target.family !== 'memory' ? memory.code.node(target) : undefined;
      out.push({ relation, target: target.key, digest: node?.digest ?? null });
    }
  }
  if (out.length > LIMITS.links) throw usageError(`at most ${LIMITS.links} links per call`);
  return out;
}

export interface LinkView {
  relation: string;
  target: string;
  exists: boolean;
  stale: boolean;
  path?: string;
  citation_status?: Citation['citation_status'];
  citation_note?: string;
}

export interface Staleness {
  stale: boolean;
  stale_links: string[];
  dangling_links: string[];
}

/** Each live link with its state now, and the record's staleness. */
export async function evaluateLinks(memory: Memory, links: LinkRegister[], probe: CitationProbe, nowMs: number): Promise<{ links: LinkView[] } & Staleness> {
  const memoryTargets = links.filter((l) => l.target.startsWith('memory:')).map((l) => l.target);
  const liveMemory = await memory.store.readMany(memoryTargets, nowMs);
  const views = links.map((l): LinkView => {
    const target = parseKey(l.target, memory.root);
    if (target.family === 'memory') {
      const exists = liveMemory.has(l.target);
      return { relation: l.relation, target: l.target, exists, stale: !exists };
    }
    const node = memory.code.node(target);
    const stale = !node || l.digest === null || l.digest !== node.digest;
    return { relation: l.relation, target: l.target, exists: node !== undefined, stale, path: target.path, ...probe.check(target.path) };
  });
  return {
    links: views,
    stale: views.some((v) => v.stale),
    stale_links: views.filter((v) => v.stale).map((v) => v.target),
    dangling_links: views.filter((v) => !v.exists).map((v) => v.target),
  };
}

/** Link targets of a record by relation (for neighbors). */
export function targetsOf(record: StoredRecord, relation: string | undefined): LinkRegister[] {
  return Object.values(record.links).filter((l) => l.present && (relation === undefined || l.relation === relation));
}
