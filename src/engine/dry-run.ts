/** `index --dry-run`: what an index pass would take in, without writing anything. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { languageOf } from '../parse/index.js';
import { walkOptions } from '../index/index.js';
import { isBinary, walk } from '../walk/index.js';
import type { Repo } from './repo.js';

export interface DryRunReport {
  status: 'ok';
  root: string;
  files: number;
  bytes: number;
  languages: Record<string, number>;
  top_directories: { dir: string; files: number }[];
  largest_files: { path: string; bytes: number }[];
  /** Files (or whole directories) left out, by reason. */
  skipped: Record<string, number>;
  /** Which rule left out how many entries, most first. */
  ignored_by_rule: { rule: string; entries: number }[];
}

const TOP = 10;
const SNIFF_BYTES = 8000;

async function sniffBinary(abs: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(abs, 'r');
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return isBinary(buf.subarray(0, bytesRead));
  } catch {
    return false; // unreadable files are reported by the real pass
  } finally {
    await handle?.close();
  }
}

function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

export async function dryRun(repo: Repo): Promise<DryRunReport> {
  const { config } = repo;
  const walked = await walk(walkOptions(repo.root, config));
  const binary = await Promise.all(walked.files.map((f) => sniffBinary(f.abs)));
  const files = walked.files.filter((_, i) => !binary[i]);
  const skippedReasons = [...walked.skipped.map((s) => s.reason), ...binary.filter(Boolean).map(() => 'binary')];
  const topDir = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '.');
  const rules = countBy(walked.skipped.map((s) => s.rule ?? s.reason));
  return {
    status: 'ok',
    root: repo.root,
    files: files.length,
    bytes: files.reduce((s, f) => s + f.size, 0),
    languages: countBy(files.map((f) => languageOf(f.path) ?? (path.extname(f.path).slice(1) || 'text'))),
    top_directories: Object.entries(countBy(files.map((f) => topDir(f.path))))
      .slice(0, TOP)
      .map(([dir, n]) => ({ dir, files: n })),
    largest_files: [...files].sort((a, b) => b.size - a.size).slice(0, TOP).map((f) => ({ path: f.path, bytes: f.size })),
    skipped: countBy(skippedReasons),
    ignored_by_rule: Object.entries(rules).map(([rule, entries]) => ({ rule, entries })),
  };
}
