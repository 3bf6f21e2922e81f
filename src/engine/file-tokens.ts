/**
 * What reading a whole file costs, counted exactly when an answer needs it
 * (not at index time: most files are never asked about). Counts are kept in
 * memory by content digest, so a file is counted once per version.
 */
import { countTokens } from '../budget/index.js';
import type { StoredFile } from '../store/index.js';
import { decodeSource, digest, readInsideSync } from '../walk/index.js';
import type { Repo } from './repo.js';

const CACHE_LIMIT = 20_000;
const byDigest = new Map<string, number>();

export function fullReadTokens(repo: Repo, file: StoredFile): number {
  const known = byDigest.get(file.digest);
  if (known !== undefined) return known;
  let bytes: Buffer;
  try {
    bytes = readInsideSync(repo.root, file.path);
  } catch {
    return file.tokens; // gone, unreadable or swapped out of the root: the index's estimate is all there is (the citation says so)
  }
  const d = digest(bytes);
  const decoded = decodeSource(bytes);
  const n = byDigest.get(d) ?? countTokens(decoded.binary ? bytes.toString('utf8') : decoded.text);
  if (byDigest.size >= CACHE_LIMIT) byDigest.clear();
  byDigest.set(d, n);
  return n;
}
