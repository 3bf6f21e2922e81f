/**
 * The files a `context` bundle considers, best first: the definitions of the
 * exact identifiers the task names, then the file ranking's answer, each with
 * the lines whose chunks matched (where its slices are cut).
 */
import type { SearchMode } from '../search/index.js';
import type { StoredFile } from '../store/index.js';
import type { SearchEnvelope } from './envelope.js';
import { locate } from './locate.js';
import type { Repo } from './repo.js';
import { search } from './search.js';

export interface RankedFile {
  file: StoredFile;
  reasons: string[];
  /** Lines whose chunks matched, best first. */
  anchors: number[];
}

export interface RankedFiles {
  files: RankedFile[];
  mode: SearchMode;
  phase: SearchEnvelope['retrieval_phase'];
}

/** Definitions of one named term put first (a name defined everywhere is not a lead). */
const DEFINITIONS_PER_TERM = 5;
/** Chunk hits read to find the slices of each file. */
const CHUNK_POOL = 200;

export function rankFilesFor(repo: Repo, query: string, terms: string[], scope: string | undefined, want: number): RankedFiles {
  const byPath = new Map<string, RankedFile>();
  const add = (path: string, reasons: string[], anchor: number) => {
    const known = byPath.get(path);
    if (known) {
      known.reasons.push(...reasons.filter((r) => !known.reasons.includes(r)));
      known.anchors.push(anchor);
      return;
    }
    const file = repo.store.files.get(path);
    if (file) byPath.set(path, { file, reasons: [...reasons], anchors: [anchor] });
  };
  for (const term of terms) {
    for (const d of locate(repo, { query: term, kind: 'definition', scope, maxResults: DEFINITIONS_PER_TERM }).results) add(d.path, [`defines:${term}`], d.start_line);
  }
  const files = search(repo, { query, scope, files: true, k: want });
  for (const r of files.results) add(r.path, r.reasons, r.start_line);
  for (const r of search(repo, { query, scope, k: CHUNK_POOL }).results) byPath.get(r.path)?.anchors.push(r.start_line);
  return { files: [...byPath.values()], mode: files.mode, phase: files.retrieval_phase };
}
