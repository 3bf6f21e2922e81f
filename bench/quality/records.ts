/** The benchmark records (shared/bench/README.md): one real issue each, with the files its fix changed. */
import fs from 'node:fs';

export interface BenchRecord {
  id: string;
  /** GitHub owner/name. */
  repo: string;
  base_commit: string;
  language: string;
  /** The issue text, verbatim. */
  query: string;
  /** Source files the fix changed: what a ranking is scored against. */
  gold_code_files: string[];
  /** A corpus pair's split (train | validation); none for the benchmark's records. */
  split?: string;
}

export function loadRecords(file: string): BenchRecord[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => {
      const r = fromCorpusPair(JSON.parse(line) as BenchRecord & CorpusPairFields);
      if (!r.repo || !r.base_commit || !r.query || !Array.isArray(r.gold_code_files)) {
        throw new Error(`${file}:${i + 1}: not a benchmark record`);
      }
      return r;
    });
}

/** What a corpus pair (bench/corpus) names differently: its checkout and its gold. */
interface CorpusPairFields {
  parent?: string;
  gold_files?: string[];
}

/** A corpus pair read as a benchmark record, so every benchmark over records runs on the corpus too. */
function fromCorpusPair(r: BenchRecord & CorpusPairFields): BenchRecord {
  if (r.base_commit || !r.parent || !Array.isArray(r.gold_files)) return r;
  return { ...r, base_commit: r.parent, gold_code_files: r.gold_files };
}

/** Records grouped by repository, in first-seen order, so one checkout serves a repository's records in turn. */
export function byRepository(records: BenchRecord[]): Map<string, BenchRecord[]> {
  const out = new Map<string, BenchRecord[]>();
  for (const r of records) {
    const list = out.get(r.repo);
    if (list) list.push(r);
    else out.set(r.repo, [r]);
  }
  return out;
}

/** The command-line options every benchmark over records shares (for node:util parseArgs). */
export function recordOptions(defaultWork: string) {
  return {
    mirrors: { type: 'string', default: '../.mirror' },
    repo: { type: 'string' },
    limit: { type: 'string' },
    'keep-index': { type: 'boolean', default: false },
    work: { type: 'string', default: defaultWork },
    out: { type: 'string' },
  } as const;
}
