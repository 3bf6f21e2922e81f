/**
 * The plain BM25 whole-file baseline (shared/bench/README.md): every indexed
 * source file (a file in a programming language, tests included; not docs,
 * config or data) is one document of code-aware terms (search/terms.ts), k1 = 1.2,
 * b = 0.75, the query is the whole issue text with no reading of it. Term
 * counts are cached by file digest, so a repository's later records only
 * re-count the files that changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { forEachTerm, queryTerms } from '../src/terms/index.js';

const K1 = 1.2;
const B = 0.75;

interface Doc {
  length: number;
  counts: Map<string, number>;
}

export interface BaselineFile {
  path: string;
  digest: string;
  language: string | null;
}

/** Programming languages: their files are the documents. */
const SOURCE_LANGUAGES = new Set(['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php', 'kotlin']);

export class Bm25FileBaseline {
  private readonly docs = new Map<string, Doc>();

  /** The top `k` paths of `files` (under `root`) for `query`. */
  rank(root: string, files: BaselineFile[], query: string, k: number): string[] {
    const docs = files.filter((f) => f.language && SOURCE_LANGUAGES.has(f.language)).map((f) => ({ path: f.path, doc: this.doc(root, f) }));
    const n = docs.length;
    const avgLength = docs.reduce((s, d) => s + d.doc.length, 0) / Math.max(1, n);
    const terms = queryTerms(query);
    const idf = new Map<string, number>();
    for (const t of terms) {
      const df = docs.reduce((c, d) => c + (d.doc.counts.has(t) ? 1 : 0), 0);
      if (df > 0) idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    }
    const scored = docs.map(({ path: p, doc }) => {
      const norm = K1 * (1 - B + (B * doc.length) / avgLength);
      let s = 0;
      for (const [t, w] of idf) {
        const tf = doc.counts.get(t);
        if (tf) s += (w * tf * (K1 + 1)) / (tf + norm);
      }
      return { path: p, s };
    });
    return scored
      .filter((d) => d.s > 0)
      .sort((a, b) => b.s - a.s || a.path.localeCompare(b.path))
      .slice(0, k)
      .map((d) => d.path);
  }

  private doc(root: string, file: BaselineFile): Doc {
    let doc = this.docs.get(file.digest);
    if (!doc) {
      const counts = new Map<string, number>();
      let length = 0;
      forEachTerm(fs.readFileSync(path.join(root, file.path), 'utf8'), (t) => {
        counts.set(t, (counts.get(t) ?? 0) + 1);
        length++;
      });
      doc = { length, counts };
      this.docs.set(file.digest, doc);
    }
    return doc;
  }
}
