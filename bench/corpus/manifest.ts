/** bench/corpus/manifest.tsv: one row per mined repository, kept sorted; a run replaces the rows of the repositories it mined. */
import fs from 'node:fs';

export interface ManifestRow {
  repository: string;
  language: string;
  split: string;
  commits_scanned: number;
  pairs_kept: number;
  head_commit: string;
}

const COLUMNS: (keyof ManifestRow)[] = ['repository', 'language', 'split', 'commits_scanned', 'pairs_kept', 'head_commit'];

export function readManifest(file: string): ManifestRow[] {
  if (!fs.existsSync(file)) return [];
  const [header, ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  if (header !== COLUMNS.join('\t')) throw new Error(`${file}: not a corpus manifest (header ${JSON.stringify(header)})`);
  return lines.map((line) => {
    const [repository, language, split, scanned, kept, head] = line.split('\t') as string[];
    return {
      repository: repository!, language: language!, split: split!,
      commits_scanned: Number(scanned), pairs_kept: Number(kept), head_commit: head!,
    };
  });
}

export function writeManifest(file: string, rows: ManifestRow[]): void {
  const sorted = [...rows].sort((a, b) => a.repository.toLowerCase().localeCompare(b.repository.toLowerCase()));
  const text = [COLUMNS.join('\t'), ...sorted.map((r) => COLUMNS.map((c) => String(r[c])).join('\t'))].join('\n') + '\n';
  fs.writeFileSync(file, text);
}

export function mergeRows(old: ManifestRow[], fresh: ManifestRow[]): ManifestRow[] {
  const byRepo = new Map(old.map((r) => [r.repository.toLowerCase(), r]));
  for (const r of fresh) byRepo.set(r.repository.toLowerCase(), r);
  return [...byRepo.values()];
}
