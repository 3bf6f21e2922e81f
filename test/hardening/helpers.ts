/** Inputs the hardening tests share. */

/** Seeded pseudo-random ACGT letters: a FASTA-like sequence whose chunks do not repeat. */
export function sequence(length: number, seed = 7): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += 'ACGT'[x >>> 30];
  }
  return out;
}
