/**
 * `brief`: what an agent starting a session should know first, in one
 * screen: whether the index can answer, and the repository at a glance
 * (languages, main modules, entry points, most-used definitions). It reads
 * only what the index already holds: it never indexes, so it stays fast, and
 * it never throws (a session hook must not fail the session).
 */
import { describeError } from '../errors/index.js';
import { overview, type Overview } from '../graph/index.js';
import type { HealthEnvelope } from './health.js';
import type { Repo } from './repo.js';

export interface BriefEnvelope {
  status: 'ok';
  health: HealthEnvelope;
  /** Null while there is no readable index to summarise. */
  overview: Overview | null;
  /** What to do next, when the index is not ready. */
  next: string | null;
}

const NEXT: Record<HealthEnvelope['index'], string | null> = {
  ready: null,
  missing: 'no index yet: run `sightline index` in the repository (the sightline MCP server also builds it in the background on the first tool call)',
  building: 'the first index is being built: answers may be incomplete until it completes (`sightline status` shows its progress)',
  unreadable: 'the index cannot be read: run `sightline doctor` for the fix, or `sightline index --force` to rebuild it',
};

/** `h`: the repository's health as its engine sees it (see Engine.brief). */
export function brief(repo: Repo, h: HealthEnvelope): BriefEnvelope {
  let summary: Overview | null = null;
  if ((h.index === 'ready' || h.index === 'building') && h.files) {
    try {
      summary = overview(repo.store, '');
    } catch (err) {
      h.problems.push(describeError(err));
    }
  }
  return { status: 'ok', health: h, overview: summary, next: NEXT[h.index] };
}
