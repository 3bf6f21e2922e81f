/**
 * The file-level evidence a query yields besides its words: definitions of
 * the names it uses, paths it mentions, files named like what it talks about.
 * Each is a score per file id; rank.ts fuses them with the lexical and history
 * scores.
 */
import type { StoredFile, Store } from '../store/index.js';
import { PART_WEIGHT, type ReadQuery } from './query.js';
import { identifierWords } from '../terms/index.js';

export interface Definitions {
  score: number;
  /** Names of the definitions, as written in the file. */
  names: string[];
  /** Their whole-identifier terms, in the same order. */
  keys: string[];
  /** First line of each, to pick the chunk to show. */
  lines: number[];
}

/**
 * Files that define a name the query uses (`names`: whole-identifier term →
 * weight). A name defined in one file points at it; one defined in twenty
 * points at none of them in particular, so each name's credit is shared among
 * the files that define it.
 */
export function definitionScores(store: Store, names: ReadonlyMap<string, number>): Map<number, Definitions> {
  const out = new Map<number, Definitions>();
  if (names.size === 0) return out;
  const symbols = store.symbols.withKeys([...names.keys()]);
  const filesOf = new Map<string, Set<number>>();
  for (const s of symbols) {
    const key = identifierWords(s.name).join('');
    const set = filesOf.get(key) ?? new Set<number>();
    set.add(s.fileId);
    filesOf.set(key, set);
  }
  const credited = new Set<string>();
  for (const s of symbols) {
    const key = identifierWords(s.name).join('');
    const entry = out.get(s.fileId) ?? { score: 0, names: [], keys: [], lines: [] };
    if (!credited.has(`${s.fileId}:${key}`)) {
      credited.add(`${s.fileId}:${key}`);
      entry.score += (names.get(key) ?? 0) / PART_WEIGHT.code / filesOf.get(key)!.size;
      entry.names.push(s.name);
      entry.keys.push(key);
    }
    entry.lines.push(s.startLine);
    out.set(s.fileId, entry);
  }
  return out;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether a path the query mentions names this file: the same path, one ending in it, or (for a bare name) its file name. */
export function mentions(filePath: string, mentioned: string): boolean {
  if (!mentioned.includes('/')) return baseName(filePath) === mentioned;
  return filePath === mentioned || filePath.endsWith('/' + mentioned) || mentioned.endsWith('/' + filePath);
}

/** What a bare file name (`utils.py`, `Cargo.toml`) is worth next to a path: often it is the writer's own file. */
const BARE_NAME = 0.5;

/**
 * Files the query mentions by path or name (stack-trace frames included). A
 * path is worth 1 and a bare file name half that; a mention that matches
 * several files is shared among them.
 */
export function mentionScores(files: readonly StoredFile[], read: ReadQuery): Map<number, number> {
  const out = new Map<number, number>();
  for (const mentioned of read.paths) {
    const matched = files.filter((f) => mentions(f.path, mentioned));
    const worth = (mentioned.includes('/') ? 1 : BARE_NAME) / matched.length;
    for (const f of matched) out.set(f.id, (out.get(f.id) ?? 0) + worth);
  }
  return out;
}

/** File names that stand for their directory: the module is the folder. */
const GENERIC_STEMS = new Set(['index', 'mod', 'lib', 'main', '__init__', 'init', 'package', 'core']);

/** The name a file goes by: `src/plugin/duration/index.js` → duration, `lib/AxiosHeaders.js` → axiosheaders. */
export function fileNameKey(path: string): string {
  const parts = path.split('/');
  let stem = parts[parts.length - 1]!.replace(/\..*$/, '');
  if (GENERIC_STEMS.has(stem.toLowerCase()) && parts.length > 1) stem = parts[parts.length - 2]!;
  return identifierWords(stem).join('');
}

/** Files by the name they go by, in list order; `first` is the list position of the first, which orders the names. */
type NameIndex = Map<string, { first: number; files: StoredFile[] }>;

/** Made once per file list: the unfiltered list lives until a pass writes files (Store.fileList), and a 30,000-file tree is too many names to work out per question. */
const nameIndexes = new WeakMap<readonly StoredFile[], NameIndex>();
/** Each file row's name, worked out once: a list moved by an edit keeps all but the edited rows. */
const nameKeys = new WeakMap<StoredFile, string>();

function nameKeyOf(file: StoredFile): string {
  let key = nameKeys.get(file);
  if (key === undefined) nameKeys.set(file, (key = fileNameKey(file.path)));
  return key;
}

function nameIndex(files: readonly StoredFile[]): NameIndex {
  let index = nameIndexes.get(files);
  if (!index) {
    index = new Map();
    files.forEach((f, i) => {
      const key = nameKeyOf(f);
      const named = index!.get(key);
      if (named) named.files.push(f);
      else index!.set(key, { first: i, files: [f] });
    });
    nameIndexes.set(files, index);
  }
  return index;
}

/** Files named like a word the query stresses (title words and names written as code); shared among same-named files. */
export function nameScores(files: readonly StoredFile[], read: ReadQuery): Map<number, number> {
  const stressed = new Set(read.terms.filter((t) => t.weight >= PART_WEIGHT.code).map((t) => t.term));
  for (const [key, weight] of read.identifiers) if (weight >= PART_WEIGHT.code) stressed.add(key);
  const index = nameIndex(files);
  const named = [...stressed].flatMap((key) => index.get(key) ?? []).sort((a, b) => a.first - b.first);
  const out = new Map<number, number>();
  for (const { files: list } of named) for (const f of list) out.set(f.id, 1 / list.length);
  return out;
}
