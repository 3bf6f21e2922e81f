/**
 * Everything one query yields before any weighing: the query as read, the
 * chunks its words hit, and the file-level signals (definitions, mentions,
 * names). Computed once per query and shared by chunk and file ranking.
 */
import type { LexicalHit, Lookup, StoredFile, Store } from '../store/index.js';
import { everyPath } from './filters.js';
import { lexicalSearch } from './lexical.js';
import type { Question, ReadQuery, WeightedTerm } from './query.js';
import { fileRole, ROLE_WORDS, type FileRole } from './roles.js';
import { definitionScores, mentionScores, nameScores, type Definitions } from './signals.js';

export interface Evidence {
  read: ReadQuery;
  /** The terms sent to the chunk index: the query's that it holds, less those too common to tell chunks apart (NIL_IDF_SHARE, ISSUE_COMMON_SHARE). */
  terms: WeightedTerm[];
  /** The terms sent to the history: the same, and also words the code lacks (commit messages have their own). */
  historyTerms: WeightedTerm[];
  /** Files that pass the caller's filters, by id and by path (shared between queries: read-only). */
  files: Lookup<number, StoredFile>;
  byPath: Lookup<string, StoredFile>;
  /** Chunk hits in files that pass the filters, best first. */
  hits: LexicalHit[];
  definitions: Map<number, Definitions>;
  mentioned: Map<number, number>;
  named: Map<number, number>;
  /** Roles the query's title names: not demoted. */
  liftedRoles: Set<FileRole>;
}

export interface EvidenceOptions {
  accept?: (path: string) => boolean;
  kinds?: string[];
}

/**
 * FTS5's BM25 gives a term found in half the chunks or more an idf of nil
 * (clamped to 1e-6): it cannot change a chunk's score, yet would make most
 * chunks a match to score, so a one-line question's chunk query leaves it
 * out (unless nothing else is left). Every rarer word of a question is
 * searched and weighs by its idf: each word carries the question (a quarter
 * used to be the cut, which took "transport", "client" and "server" out of
 * questions about the MCP TypeScript SDK). A word left out still counts
 * where it names a definition or a file (signals.ts).
 */
const NIL_IDF_SHARE = 0.5;
/**
 * A whole issue holds dozens of words, and searching its words found in more
 * than a quarter of the chunks cost the dev issues 3 points of Acc@5 (also
 * when kept only where they name a definition, a folder or a file): there
 * the quarter stays the cut.
 */
const ISSUE_COMMON_SHARE = 0.25;

/** A mention this clear (a path with directories, or a name only two files share) lifts a file's demotion. */
const MENTION_LIFT = 0.5;

/** The files that pass the caller's filters: listed in path order, by id and by path. */
function filteredFiles(store: Store, options: EvidenceOptions): { all: readonly StoredFile[]; files: Lookup<number, StoredFile>; byPath: Lookup<string, StoredFile> } {
  const list = store.fileList();
  const kinds = options.kinds?.length ? new Set(options.kinds) : null;
  const accept = options.accept === everyPath ? undefined : options.accept;
  if (!kinds && !accept) return { all: list.files, files: list.byId, byPath: list.byPath };
  const all = list.files.filter((f) => (!kinds || kinds.has(f.kind)) && (!accept || accept(f.path)));
  return { all, files: new Map(all.map((f) => [f.id, f])), byPath: new Map(all.map((f) => [f.path, f])) };
}

/** The terms worth asking the indexes for: not too common to tell chunks apart (for the chunk index, also present in it). */
function discerningTerms(store: Store, read: ReadQuery, terms: readonly WeightedTerm[]): { chunks: WeightedTerm[]; history: WeightedTerm[] } {
  const df = store.terms.documentFrequency(terms.map((t) => t.term));
  const documents = store.terms.documents();
  const history = read.question ? terms.filter((t) => df.get(t.term)! < NIL_IDF_SHARE * documents) : terms.filter((t) => df.get(t.term)! <= ISSUE_COMMON_SHARE * documents);
  const present = terms.filter((t) => df.get(t.term)! > 0);
  const chunks = history.filter((t) => df.get(t.term)! > 0);
  return { chunks: chunks.length > 0 ? chunks : present, history };
}

/** The names a query uses: those written as code, and a question's words; the heavier weight where both. */
function namesUsed(read: ReadQuery): Map<string, number> {
  const names = new Map(read.askedNames);
  for (const [key, weight] of read.identifiers) if ((names.get(key) ?? 0) < weight) names.set(key, weight);
  return names;
}

/**
 * A question's word that names a definition weighs in the chunk query what
 * the word it came from does: the plain form of "walked" is searched at half
 * weight, but where the index defines `walk` that is what the question asks for.
 */
function withDefinedNames(terms: readonly WeightedTerm[], read: ReadQuery, definitions: ReadonlyMap<number, Definitions>): readonly WeightedTerm[] {
  if (read.askedNames.size === 0 || definitions.size === 0) return terms;
  const defined = new Set([...definitions.values()].flatMap((d) => d.keys));
  return terms.map((t) => {
    const asked = read.askedNames.get(t.term);
    return asked !== undefined && asked > t.weight && defined.has(t.term) ? { term: t.term, weight: asked } : t;
  });
}

export function gatherEvidence(store: Store, question: Question, options: EvidenceOptions, depth: number): Evidence {
  const { read } = question;
  const { all, files, byPath } = filteredFiles(store, options);
  const definitions = definitionScores(store, namesUsed(read));
  const { chunks: terms, history: historyTerms } = discerningTerms(store, read, withDefinedNames(read.terms, read, definitions));
  const hits = lexicalSearch(store, terms, depth).filter((h) => files.has(h.fileId));
  const liftedRoles = new Set((Object.keys(ROLE_WORDS) as FileRole[]).filter((r) => ROLE_WORDS[r]!.some((w) => read.title.has(w))));
  return {
    read,
    terms,
    historyTerms,
    files,
    byPath,
    hits,
    definitions,
    mentioned: mentionScores(all, read),
    named: nameScores(all, read),
    liftedRoles,
  };
}

/** Roles of stored files, worked out once per file row (Store.fileList keeps the rows no pass rewrote). */
const roles = new WeakMap<StoredFile, FileRole>();

/** A file's role, and whether it is demoted: not code, not clearly mentioned, and its role not named in the title. */
export function roleOf(file: StoredFile, ev: Evidence): { role: FileRole; demoted: boolean } {
  let role = roles.get(file);
  if (role === undefined) roles.set(file, (role = fileRole(file.path, file.kind, file.language)));
  return { role, demoted: role !== 'code' && !ev.liftedRoles.has(role) && (ev.mentioned.get(file.id) ?? 0) < MENTION_LIFT };
}
