/**
 * The corpus's fixed choices, by stable hash. The split by repository: a
 * repository is validation-only when the 32-bit FNV-1a hash of its lower-cased
 * `owner/name` is divisible by 3, so its split never depends on which others
 * were mined with it. The scoring sample: per repository, the pairs whose ids
 * hash smallest.
 */
export type Split = 'train' | 'validation';

/** What sampling reads of a pair. */
export interface SampledPair {
  id: string;
  repo: string;
  split: string;
}

export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function splitOf(repo: string): Split {
  return fnv1a32(repo.toLowerCase()) % 3 === 0 ? 'validation' : 'train';
}

/**
 * Per repository, the `perRepo` pairs of `split` with the smallest id hash (or, with `newest`, the first
 * `perRepo` in the pairs file: its newest); repositories in name order, each one's pairs in the file's
 * order, newest first, so a checkout moving through them only ever goes back in history.
 */
export function samplePairs<P extends SampledPair>(pairs: P[], split: string, perRepo: number, newest = false): P[] {
  const byRepo = new Map<string, P[]>();
  for (const p of pairs) {
    if (p.split !== split) continue;
    const list = byRepo.get(p.repo) ?? [];
    list.push(p);
    byRepo.set(p.repo, list);
  }
  const repos = [...byRepo.keys()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return repos.flatMap((repo) =>
    byRepo
      .get(repo)!
      .map((p, order) => ({ p, order, h: newest ? order : fnv1a32(p.id) }))
      .sort((a, b) => a.h - b.h || a.p.id.localeCompare(b.p.id))
      .slice(0, perRepo)
      .sort((a, b) => a.order - b.order)
      .map(({ p }) => p),
  );
}

