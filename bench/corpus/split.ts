/**
 * The fixed split by repository: a repository is validation-only when the
 * 32-bit FNV-1a hash of its lower-cased `owner/name` is divisible by 3, so a
 * repository's split never depends on which others were mined with it.
 */
export type Split = 'train' | 'validation';

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
