/**
 * npm run bench:budget -- <repository> [--budget N]
 * npm run bench:budget -- <mirrors-dir> <records.jsonl> [--budget N] [--limit N] [--repo owner/name] [--no-history] [--work DIR]
 *
 * What budget discipline buys. For each question (a fixed query set over one
 * repository, or the issues of shared/bench records, each on a checkout at its
 * base commit, with its history unless --no-history): one `context` bundle at --budget tokens (default 8,192) — its
 * response_tokens, and for records whether it holds every gold file — beside
 * the tokens `rg -n` would have printed for the same query words.
 *
 * With a repository it also measures what citation status costs: the same
 * bundles and searches with the probe doing nothing (no stat), with nothing
 * changed (one stat per cited file), and with every cited file touched
 * (same bytes, so each needs a confirming digest read). Touched mtimes are
 * put back afterwards.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { countTokens } from '../src/budget/index.js';
import { CitationProbe } from '../src/cite/index.js';
import { citationProbe, Repo } from '../src/engine/index.js';
import { packContext } from '../src/engine/context.js';
import { gatedSearch } from '../src/engine/search-gate.js';
import { searchTerms } from '../src/search/index.js';
import { Checkout, findMirror } from './quality/checkout.js';
import { byRepository, loadRecords } from './quality/records.js';
import { median, percentile, PHRASE_QUERIES, table, time, usage } from './util.js';

/** Query words given to rg: the heaviest terms the query reader keeps. */
const RG_TERMS = 12;
/** rg output counted exactly up to this many bytes; beyond, extrapolated from the exact rate. */
const RG_COUNT_BYTES = 8 << 20;
const ROUNDS = 5;

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      budget: { type: 'string', default: '8192' },
      limit: { type: 'string' },
      repo: { type: 'string' },
      'no-history': { type: 'boolean', default: false },
      work: { type: 'string', default: path.join(os.tmpdir(), 'sightline-budget-bench') },
    },
  });
  if (positionals.length < 1) usage('usage: npm run bench:budget -- <repository> | <mirrors-dir> <records.jsonl> [--budget N] [--limit N] [--repo owner/name]');
  return { target: positionals[0]!, dataset: positionals[1], budget: Number(values.budget), limit: values.limit ? Number(values.limit) : Infinity, repo: values.repo, history: !values['no-history'], work: values.work! };
}

/** Tokens of what `rg -n` prints for the query's words over the tree. */
function rgTokens(root: string, query: string): number {
  const terms = searchTerms(query).slice(0, RG_TERMS);
  if (terms.length === 0) return 0;
  const r = spawnSync('rg', ['-n', '-i', '-w', '-F', '--no-messages', ...terms.flatMap((t) => ['-e', t]), '.'], { cwd: root, maxBuffer: 1 << 30 });
  const out = r.stdout ?? Buffer.alloc(0);
  if (out.length <= RG_COUNT_BYTES) return countTokens(out.toString('utf8'));
  const head = out.subarray(0, RG_COUNT_BYTES).toString('utf8');
  return Math.round((countTokens(head) / RG_COUNT_BYTES) * out.length);
}

function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

async function records(opts: ReturnType<typeof options>): Promise<void> {
  const all = loadRecords(opts.dataset!).filter((r) => !opts.repo || r.repo.toLowerCase() === opts.repo.toLowerCase());
  const rows: (string | number)[][] = [];
  const outcomes: { full: boolean; response: number; rg: number; language: string }[] = [];
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-budget-home-'));
  let left = opts.limit;
  fs.mkdirSync(path.join(opts.work, 'gitdirs'), { recursive: true }); // Checkout puts history-less git directories here
  try {
    for (const [name, list] of byRepository(all)) {
      if (left <= 0) break;
      let checkout: Checkout;
      try {
        checkout = new Checkout(findMirror(opts.target, name), opts.work, name, opts.history);
      } catch (err) {
        process.stderr.write(`skipping ${name}: ${(err as Error).message}\n`);
        continue;
      }
      let repo: Repo | undefined;
      for (const record of list.slice(0, left)) {
        checkout.moveTo(record.base_commit);
        repo ??= Repo.open(checkout.root, { flags: { home }, env: {} });
        const indexed = await time(() => repo!.index());
        const { ms, value: bundle } = await time(() => packContext(repo!, { task: record.query, budgetTokens: opts.budget }));
        const delivered = new Set(bundle.entries.map((e) => e.path));
        const full = record.gold_code_files.every((g) => delivered.has(g));
        const rg = rgTokens(checkout.root, record.query);
        outcomes.push({ full, response: bundle.response_tokens, rg, language: record.language });
        const took = `index ${(indexed.ms / 1000).toFixed(1)} s, context ${ms.toFixed(0)} ms`;
        process.stderr.write(`${record.id}: ${full ? 'all gold' : 'missing gold'}, ${bundle.response_tokens} tokens (${bundle.detail}, ${bundle.entries.length} files); rg ${rg}; ${took}\n`);
        left--;
      }
      repo?.close();
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  const summarize = (label: string, list: typeof outcomes) =>
    rows.push([
      label,
      list.length,
      (100 * list.filter((o) => o.full).length) / Math.max(1, list.length),
      median(list.map((o) => o.response)),
      percentile(list.map((o) => o.response), 95),
      median(list.map((o) => o.rg)),
      median(list.map((o) => o.rg / Math.max(1, o.response))),
    ]);
  for (const language of [...new Set(outcomes.map((o) => o.language))].sort()) summarize(language, outcomes.filter((o) => o.language === language));
  summarize('ALL', outcomes);
  console.log(`context bundles at budget_tokens ${opts.budget} over ${opts.dataset}; rg -n -i -w on the query's first ${RG_TERMS} terms\n`);
  console.log(table(['set', 'records', 'all gold files %', 'p50 response tok', 'p95 response tok', 'p50 rg tok', 'p50 rg/response'], rows));
}

/** Sets every file's mtime to now (bytes unchanged); returns a function that puts them back. */
function touchAll(root: string, rels: string[]): () => void {
  const before = rels.map((rel) => ({ abs: path.join(root, rel), st: fs.statSync(path.join(root, rel)) }));
  const now = new Date(Date.now() + 2000);
  for (const b of before) fs.utimesSync(b.abs, now, now);
  return () => {
    for (const b of before) fs.utimesSync(b.abs, b.st.atime, b.st.mtime);
  };
}

async function fixedSet(opts: ReturnType<typeof options>): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-budget-home-'));
  try {
    // No query cache: every call retrieves, as a fresh question would.
    const repo = Repo.open(opts.target, { flags: { home, queryCacheSize: 0 } });
    await repo.index();
    const rows: (string | number)[][] = [];
    const rg = hasRipgrep();
    for (const q of PHRASE_QUERIES) {
      const b = packContext(repo, { task: q, budgetTokens: opts.budget });
      rows.push([q, b.detail, b.entries.length, b.response_tokens, b.reads_replaced_tokens, rg ? rgTokens(repo.root, q) : NaN]);
    }
    console.log(`repository: ${repo.root}; context at budget_tokens ${opts.budget}\n`);
    console.log(table(['task', 'detail', 'files', 'response tok', 'whole-file tok delivered', 'rg -n tok'], rows));
    console.log(`\nmedian response_tokens ${median(rows.map((r) => r[3] as number))}; median rg -n tokens ${median(rows.map((r) => r[5] as number))}\n`);

    // Citation cost: the probe's own time per call (stat only, or stat plus a confirming read for
    // every cited file after touching them all), beside the time of the whole call.
    const calls = {
      context: (q: string) => packContext(repo, { task: q, budgetTokens: opts.budget }).entries.map((e) => e.path),
      search: (q: string) => gatedSearch(repo, { query: q, force: true }) as { results?: { path: string }[] },
    };
    const overhead: (string | number)[][] = [];
    for (const [name, call] of Object.entries(calls)) {
      const cited = PHRASE_QUERIES.map((q) => {
        const r = call(q);
        return [...new Set(Array.isArray(r) ? r : (r.results ?? []).map((x) => x.path))];
      });
      const callMs: number[] = [];
      for (let i = 0; i < ROUNDS; i++) callMs.push((await time(() => PHRASE_QUERIES.forEach((q) => call(q)))).ms / PHRASE_QUERIES.length);
      const probeMs = async () => {
        const ms: number[] = [];
        const everyRequest = () =>
          cited.forEach((paths) => {
            const probe = citationProbe(repo); // one probe per request, as the engine makes
            for (const p of paths) probe.check(p);
          });
        for (let i = 0; i < ROUNDS * 20; i++) ms.push((await time(everyRequest)).ms);
        return median(ms) / PHRASE_QUERIES.length;
      };
      const quiet = await probeMs();
      const restore = touchAll(repo.root, [...new Set(cited.flat())]);
      let touched: number;
      try {
        touched = await probeMs();
      } finally {
        restore();
      }
      const per = median(callMs);
      overhead.push([name, median(cited.map((c) => c.length)), per, quiet * 1000, (100 * quiet) / per, touched * 1000, (100 * touched) / per]);
    }
    console.log(`citation status cost per call (${ROUNDS} rounds of ${PHRASE_QUERIES.length} queries; probe timed alone)\n`);
    console.log(table(['call', 'files cited', 'call ms', 'unchanged µs', 'unchanged %', 'all touched µs', 'all touched %'], overhead));
    const sample = packContext(repo, { task: PHRASE_QUERIES[0]!, budgetTokens: opts.budget });
    const verified = countTokens(',"citation_status":"verified"');
    const note = sample.entries.length ? countTokens(JSON.stringify({ citation_status: 'stale', citation_note: citationNoteOf(repo) })) : 0;
    console.log(`\ntokens per cited item: verified +${verified}; stale with its note +${note}`);
    repo.close();
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** The note a stale citation carries (the probe's own sentence, read from a probe over an edited stat). */
function citationNoteOf(repo: Repo): string {
  const probe = new CitationProbe({ root: repo.root, lookup: () => ({ size: -1, indexedAtMs: 1, digest: '' }) });
  const file = repo.store.files.list()[0]!;
  return probe.check(file.path).citation_note ?? '';
}

const opts = options();
await (opts.dataset ? records(opts) : fixedSet(opts));
