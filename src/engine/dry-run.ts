/** `index --dry-run`: what an index pass would take in, without writing anything. */
import { extOf, languageOf } from '../parse/index.js';
import { walkOptions } from '../index/index.js';
import { readSource, Turns, tallySkips, walk, type ReadOutcome, type SkipTally, type WalkedFile } from '../walk/index.js';
import type { Repo } from './repo.js';

export interface DryRunReport {
  status: 'ok';
  root: string;
  files: number;
  bytes: number;
  languages: Record<string, number>;
  /** Files by the text encoding they would be decoded from (utf-8, utf-16le, latin1, …). */
  encodings: Record<string, number>;
  top_directories: { dir: string; files: number }[];
  largest_files: { path: string; bytes: number }[];
  /** Files (or whole directories) left out, by the skip ledger's reasons, as a pass counts them (too_slow shows only in a pass). */
  skipped: SkipTally;
  /** Which rule left out how many entries, most first. */
  ignored_by_rule: { rule: string; entries: number }[];
}

const TOP = 10;

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

/** Each file read as a pass reads it (whole, up to maxFileBytes, to learn its encoding). */
async function readAll(files: WalkedFile[], maxFileBytes: number): Promise<ReadOutcome[]> {
  const out: ReadOutcome[] = [];
  const turns = new Turns();
  for (const file of files) {
    await turns.take();
    out.push(readSource(file.abs, maxFileBytes));
  }
  return out;
}

export async function dryRun(repo: Repo): Promise<DryRunReport> {
  const { config } = repo;
  const walked = await walk(walkOptions(repo.root, config));
  const read = await readAll(walked.files, config.maxFileBytes);
  const files = walked.files.filter((_, i) => read[i]!.ok);
  const encodings = read.flatMap((r) => (r.ok ? [r.encoding] : []));
  const contentSkips = read.flatMap((r) => (!r.ok && r.reason !== 'vanished' ? [r.reason] : []));
  const topDir = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '.');
  const rules = countBy(walked.skipped.map((s) => s.rule ?? s.reason));
  return {
    status: 'ok',
    root: repo.root,
    files: files.length,
    bytes: files.reduce((s, f) => s + f.size, 0),
    languages: countBy(files.map((f) => languageOf(f.path) ?? (extOf(f.path) || 'text'))),
    encodings: countBy(encodings),
    top_directories: Object.entries(countBy(files.map((f) => topDir(f.path))))
      .slice(0, TOP)
      .map(([dir, n]) => ({ dir, files: n })),
    largest_files: [...files].sort((a, b) => b.size - a.size).slice(0, TOP).map((f) => ({ path: f.path, bytes: f.size })),
    skipped: tallySkips([...walked.skipped.map((s) => s.reason), ...contentSkips]),
    ignored_by_rule: Object.entries(rules).map(([rule, entries]) => ({ rule, entries })),
  };
}
