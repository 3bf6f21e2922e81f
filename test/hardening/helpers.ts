/** Inputs and probes the hardening tests share. */
import fs from 'node:fs';
import path from 'node:path';

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

/** Where each open descriptor of process `pid` that is an index file under `home` points (Linux /proc), " (deleted)" kept. */
export function openIndexFiles(pid: number, home: string): string[] {
  const fdDir = `/proc/${pid}/fd`;
  return fs.readdirSync(fdDir).flatMap((fd) => {
    try {
      const target = fs.readlinkSync(path.join(fdDir, fd));
      return /\/index\.db( \(deleted\))?$/.test(target) && target.startsWith(home) ? [target] : [];
    } catch {
      return []; // closed meanwhile
    }
  });
}
