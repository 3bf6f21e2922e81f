/**
 * Which changed files are a pair's gold: non-test source files, by sightline's
 * own file kind rules (src/parse fileKindOf), that exist in the parent tree
 * (the checkout a ranker sees), and are neither vendored nor generated.
 */
import { TREE_SITTER_LANGUAGES, fileKindOf, languageOf } from '../../src/parse/index.js';

/** One line of `git log --name-status` (renames off: a rename is a delete plus an add). */
export interface FileChange {
  status: string;
  path: string;
}


/** Folders that hold someone else's code, build output, or test data in source languages. */
const VENDORED_DIRS = new Set([
  'vendor', 'vendored', '_vendor', 'third_party', 'thirdparty', 'third-party', 'node_modules', 'bower_components', 'dist',
]);
const TEST_DATA_DIRS = new Set(['testdata', 'fixtures', '__fixtures__', '__snapshots__', '__mocks__']);

export function isVendored(path: string): boolean {
  return path.split('/').slice(0, -1).some((d) => VENDORED_DIRS.has(d.toLowerCase()));
}

function isTestData(path: string): boolean {
  return path.split('/').slice(0, -1).some((d) => TEST_DATA_DIRS.has(d.toLowerCase()));
}

/** A non-test source file by its path alone (content checks come later, for files that exist at the parent). */
export function isSourcePath(path: string): boolean {
  const language = languageOf(path);
  // Source means a language sightline parses with a grammar.
  if (!language || !TREE_SITTER_LANGUAGES.has(language)) return false;
  if (isVendored(path) || isTestData(path)) return false;
  return fileKindOf(path, '') === 'code';
}

export interface GoldSelection {
  /** Source files the change touched, added ones included: the size a noise sweep shows. */
  sourceChanged: number;
  /** Source files that exist at the parent (modified or deleted): what a ranker can find. */
  candidates: string[];
}

export function selectGold(changes: FileChange[]): GoldSelection {
  const source = changes.filter((c) => isSourcePath(c.path));
  const candidates = source.filter((c) => c.status.startsWith('M') || c.status.startsWith('D')).map((c) => c.path);
  return { sourceChanged: new Set(source.map((c) => c.path)).size, candidates: [...new Set(candidates)].sort() };
}

/** The candidates whose text at the parent still reads as code (not generated or minified). */
export function withoutGenerated(candidates: string[], textAt: (path: string) => string): string[] {
  return candidates.filter((p) => fileKindOf(p, textAt(p)) === 'code');
}

/** A repository's language: the one most of its source files at HEAD are written in (tsx counts as typescript). */
export function repoLanguage(paths: string[]): string {
  const counts = new Map<string, number>();
  for (const p of paths) {
    if (!isSourcePath(p)) continue;
    const language = languageOf(p) === 'tsx' ? 'typescript' : languageOf(p)!;
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best = 'unknown';
  let most = 0;
  for (const [language, n] of counts) if (n > most) [best, most] = [language, n];
  return best;
}
