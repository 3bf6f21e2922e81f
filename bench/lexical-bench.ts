/**
 * npm run bench:lexical -- <path>...
 * The two reads under every keyword question and every indexed chunk, each
 * side by side with the plain way of doing it, on the same input in one run:
 *   - a term's postings (every chunk holding it, with its bm25 for the term),
 *     as TermPostings reads them against FTS5's rows read as arrays, by how
 *     many chunks hold the term (the kept postings are bypassed: each read is
 *     a question's first);
 *   - the terms of every chunk's text, as forEachTerm finds them against the
 *     same terms from the regex that defines an identifier (`/[\p{L}\p{N}_]+/gu`).
 * Both sides must give the same answer: a row says so, or the bench fails.
 * Indexes each tree in a throwaway home first. Prints tables; asserts no time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Repo } from '../src/engine/index.js';
import { FIELD_WEIGHTS } from '../src/store/chunks.js';
import { anyPhrase } from '../src/store/fts.js';
import { Memo } from '../src/store/memo.js';
import { TermPostings } from '../src/store/term-postings.js';
import { forEachTerm, identifierWords, MAX_TERM_LENGTH } from '../src/terms/index.js';
import { median, table, usage } from './util.js';

const ROUNDS = 5;
const TERMS_PER_BUCKET = 100;
/** Chunks holding a term: the buckets a question's words fall in, rare to everywhere. */
const BUCKETS: [number, number][] = [
  [1, 10],
  [10, 100],
  [100, 1000],
  [1000, Infinity],
];

/** Median over ROUNDS of the ms one pass of `fn` over `items` takes, per item. */
function perItem<T>(items: readonly T[], fn: (item: T) => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (const item of items) fn(item);
    runs.push((performance.now() - t0) / items.length);
  }
  return median(runs);
}

function postingsRows(repo: Repo, tree: string): (string | number)[][] {
  const db = repo.store.db;
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab USING fts5vocab(main, chunks_fts, 'row')");
  const vocab = db.prepare('SELECT term, doc FROM temp.bench_vocab').raw().all() as [string, number][];
  const { body, path: inPath, symbols } = FIELD_WEIGHTS;
  const weights = `${body}, ${inPath}, ${symbols}`;
  let version = 0; // a version per read: nothing kept between reads
  const postings = new TermPostings(db, weights, new Memo(), () => String(version++), Number.MAX_SAFE_INTEGER);
  const rows = db.prepare(`SELECT rowid, -bm25(chunks_fts, ${weights}) FROM chunks_fts WHERE chunks_fts MATCH ?`).raw();
  const asRows = (term: string) => rows.all(anyPhrase([term])) as [number, number][];
  return BUCKETS.flatMap(([lo, hi]) => {
    const terms = vocab.filter(([, n]) => n >= lo && n < hi).slice(0, TERMS_PER_BUCKET).map(([t]) => t);
    if (terms.length === 0) return [];
    const same = terms.every((t) => {
      const mine = postings.of(t);
      const theirs = asRows(t).sort((a, b) => a[0] - b[0]);
      return theirs.length === mine.ids.length && theirs.every(([id, score], i) => mine.ids[i] === id && mine.scores[i] === score);
    });
    if (!same) throw new Error(`${tree}: postings differ from FTS5's rows for a term holding ${lo}–${hi} chunks`);
    const ours = perItem(terms, (t) => postings.of(t));
    const plain = perItem(terms, asRows);
    const label = hi === Infinity ? `≥ ${lo}` : `${lo}–${hi - 1}`;
    return [[path.basename(tree), `postings of a term in ${label} chunks (${terms.length} terms)`, ours, plain, ours / plain, 'yes']];
  });
}

const IDENTIFIER = /[\p{L}\p{N}_]+/gu;

/** The terms of `text` as forEachTerm emitted them when it took the regex's matches: the plain way, as a baseline. */
function regexTerms(text: string, emit: (term: string, isWhole: boolean) => void): void {
  for (const [raw] of text.matchAll(IDENTIFIER)) {
    if (raw.length > MAX_TERM_LENGTH) continue;
    const words = identifierWords(raw);
    if (words.length > 1) emit(words.join(''), true);
    for (const w of words) emit(w, words.length === 1);
  }
}

function scanRow(repo: Repo, tree: string): (string | number)[] {
  const texts = [...repo.store.chunks.scan()].map((c) => c.text);
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const emitted = (each: typeof forEachTerm, t: string) => {
    const out: string[] = [];
    each(t, (term, whole) => out.push(whole ? term : `-${term}`));
    return out.join(' ');
  };
  if (!texts.every((t) => emitted(forEachTerm, t) === emitted(regexTerms, t))) throw new Error(`${tree}: terms differ from the regex's`);
  const pass = (each: typeof forEachTerm) => perItem([texts], (all) => all.forEach((t) => each(t, () => {})));
  const [ours, plain] = [pass(forEachTerm), pass(regexTerms)];
  return [path.basename(tree), `terms of every chunk (${(chars / 1e6).toFixed(1)} M chars), ms per pass`, ours, plain, ours / plain, 'yes'];
}

async function main(): Promise<void> {
  const trees = process.argv.slice(2);
  if (trees.length === 0) usage('usage: npm run bench:lexical -- <path-to-repository>...');
  const rows: (string | number)[][] = [];
  for (const tree of trees) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
    const repo = Repo.open(tree, { flags: { home, embedder: 'none' } });
    try {
      await repo.index();
      rows.push(...postingsRows(repo, tree), scanRow(repo, tree));
    } finally {
      repo.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
  console.log(`bench:lexical, median of ${ROUNDS} rounds; node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log(table(['tree', 'read', 'sightline ms', 'plain ms', 'ratio', 'same answer'], rows));
}

await main();
