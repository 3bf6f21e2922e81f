/**
 * The tree side of bench:peer: a private copy of each tree, the queries taken
 * from its own source (so neither system picks its own questions), the file
 * the one-edit pass touches, and bytes on disk. Pure parts are exported for tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PHRASE_QUERIES } from './util.js';

const SOURCE_EXTENSIONS = new Set(['.py', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx']);
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', 'build', '.venv', '__pycache__']);
/** Definitions in Python and TypeScript/JavaScript: `def name`, `class Name`, `function name`, `interface Name`, `type Name =`, top-level `const name =`. */
const DEFINITION = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function\*?|interface|type|enum|const)\s+([A-Za-z_][A-Za-z0-9_]*)/gm;
const MIN_IDENTIFIER = 6;

export interface SourceFile {
  rel: string;
  size: number;
}

/** Source files of the tree (by extension, skipping dependency and build folders), sorted by path. */
export function sourceFiles(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(abs);
      } else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name))) {
        out.push({ rel: path.relative(root, abs), size: fs.statSync(abs).size });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

/** Names the text defines, in order of appearance. */
export function definedNames(text: string): string[] {
  return [...text.matchAll(DEFINITION)].map((m) => m[1]!);
}

/** The words of an identifier: `parseConfigFile` and `parse_config_file` give parse, config, file. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

/** `count` items spread evenly over `items` (all of them when there are fewer). */
export function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}

export interface Queries {
  /** Exact identifiers the tree defines. */
  identifiers: string[];
  /** Word queries: everyday phrases, then the tree's most frequent identifier words. */
  words: string[];
  /** A defined identifier asked once before any measured question (JIT, page cache): none of those measured, and where it can be, sharing none of their words. */
  warmup: string;
}

/** 15 defined identifiers (distinct, at least 6 characters, spread over the sorted list), 15 word queries, and a warm-up identifier. */
export function pickQueries(definitions: string[], perKind = 15): Queries {
  const distinct = [...new Set(definitions.filter((n) => n.length >= MIN_IDENTIFIER && !n.startsWith('_')))].sort();
  const counts = new Map<string, number>();
  for (const name of definitions) for (const w of identifierWords(name)) if (w.length >= 5) counts.set(w, (counts.get(w) ?? 0) + 1);
  const phrases = PHRASE_QUERIES.slice(0, Math.min(PHRASE_QUERIES.length, perKind));
  const frequent = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([w]) => w)
    .filter((w) => !phrases.some((p) => p.split(' ').includes(w)));
  const identifiers = spread(distinct, perKind);
  const words = [...phrases, ...frequent.slice(0, perKind - phrases.length)];
  // Best a name sharing no word with a measured question: warming it must not warm what one reads.
  const measured = new Set([...identifiers, ...words].flatMap((q) => q.split(' ').flatMap(identifierWords)));
  const unmeasured = distinct.filter((n) => !identifiers.includes(n));
  const warmup = unmeasured.find((n) => !identifierWords(n).some((w) => measured.has(w))) ?? unmeasured[0] ?? 'main';
  return { identifiers, words, warmup };
}

export interface PreparedTree {
  name: string;
  /** One private copy per system, so neither sees the other's writes or edits. */
  copies: Record<string, string>;
  files: number;
  queries: Queries;
  /** The source file the one-edit pass appends a comment to (relative path; median size). */
  victim: string;
}

export function prepareTree(original: string, workDir: string, systems: string[]): PreparedTree {
  if (!fs.existsSync(original) || !fs.statSync(original).isDirectory()) throw new Error(`not a directory: ${original}`);
  const name = path.basename(path.resolve(original));
  const copies: Record<string, string> = {};
  for (const system of systems) {
    const copy = path.join(workDir, system, name);
    fs.cpSync(original, copy, { recursive: true, filter: (src) => !SKIPPED_DIRS.has(path.basename(src)) || src === original });
    copies[system] = copy;
  }
  const first = copies[systems[0]!]!;
  const files = sourceFiles(first);
  if (files.length === 0) throw new Error(`no Python or TypeScript/JavaScript source under ${original}`);
  const definitions = files.flatMap((f) => definedNames(fs.readFileSync(path.join(first, f.rel), 'utf8')));
  const bySize = [...files].sort((a, b) => a.size - b.size || a.rel.localeCompare(b.rel));
  return {
    name,
    copies,
    files: files.length,
    queries: pickQueries(definitions),
    victim: bySize[Math.floor(bySize.length / 2)]!.rel,
  };
}

/** Appends a comment line in the file's own syntax; returns the original bytes to restore. */
export function editFile(abs: string, n: number): Buffer {
  const original = fs.readFileSync(abs);
  const comment = path.extname(abs) === '.py' ? '#' : '//';
  fs.appendFileSync(abs, `\n${comment} bench:peer edit ${n}\n`);
  return original;
}

/** Bytes of every file under `dir` (an index home: databases, logs, side files). */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(abs);
    else if (entry.isFile()) total += fs.statSync(abs).size;
  }
  return total;
}
