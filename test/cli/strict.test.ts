/**
 * The CLI's side of strict inputs and budgets: commander's refusals honour --json, listing verbs
 * take --max-tokens and --cursor, and text output marks citations that are not verified.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderLocate, renderRead, renderSearch } from '../../src/cli/render.js';
import { Repo } from '../../src/engine/index.js';
import { runCli } from '../helpers/cli.js';
import { useRepo } from '../helpers/fixture.js';

const sample = useRepo();
const cliWith = (env: NodeJS.ProcessEnv) => (...args: string[]) => runCli([...args, '--repo', sample.root], { SIGHTLINE_HOME: sample.home, SIGHTLINE_EMBEDDER: 'none', ...env });
const cli = cliWith({});

describe('usage errors', () => {
  it.each([
    [['search', 'x', '--bogus'], /unknown option '--bogus'/],
    [['search', 'x', '--max-tokens', 'many'], /option '--max-tokens <n>' argument 'many' is invalid. expected a positive integer/],
    [['search', 'x', '--mode', 'fuzzy'], /argument 'fuzzy' is invalid. Allowed choices are hybrid, keyword, semantic/],
  ])('%j with --json prints one JSON error on stdout and exits 2', (args, message) => {
    const r = cli(...args, '--json');
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const answer = JSON.parse(lines[0]!);
    expect(Object.keys(answer)).toEqual(['status', 'error']);
    expect(answer.status).toBe('error');
    expect(answer.error).toMatch(message);
    expect(answer.error).not.toMatch(/^error:/);
  });

  it('without --json stdout stays empty and the refusal goes to stderr, still exit 2', () => {
    const r = cli('search', 'x', '--bogus');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown option '--bogus'/);
  });
});

describe('budgets and cursors', () => {
  beforeAll(() => expect(cli('index').code).toBe(0));
  it('list-files pages with --cursor, and refuses a cursor it did not give', () => {
    const first = JSON.parse(cli('list-files', '--max-results', '2', '--json').stdout);
    expect(first.files).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const seen = [...first.files];
    let cursor: string | undefined = first.next_cursor;
    while (cursor) {
      const page = JSON.parse(cli('list-files', '--max-results', '2', '--cursor', cursor, '--json').stdout);
      seen.push(...page.files);
      cursor = page.next_cursor;
    }
    const paths = seen.map((f: { path: string }) => f.path);
    expect(paths).toEqual([...paths].sort()); // in path order, none twice
    expect(new Set(paths).size).toBe(first.total);
    expect(cli('list-files', '--max-results', '2').stdout).toMatch(/… \d+ more: continue with --cursor \S+/);
    const bad = cli('list-files', '--cursor', 'garbage', '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error).toMatch(/cursor is not one list_files gave/);
  });

  it('related and outline take --max-tokens and say what they left out', () => {
    const small = JSON.parse(cli('outline', 'src/server/http_server.py', '--max-tokens', '100', '--json').stdout);
    expect(small.response_tokens).toBeLessThanOrEqual(100);
    expect(small.symbols.length).toBeGreaterThan(0);
    expect(small.omitted.symbols).toBeGreaterThan(0);
    const tiny = cli('outline', 'src/server/http_server.py', '--max-tokens', '20', '--json');
    expect(tiny.code).toBe(2); // not even the path and counts fit: refused, not sent over budget
    expect(JSON.parse(tiny.stdout).error).toMatch(/max_tokens 20 is too small for this answer, whose fields alone take \d+ tokens; pass at least \d+/);
    expect(cli('outline', 'src/server/http_server.py', '--max-tokens', '100').stdout).toMatch(/left out to fit the token budget: \d+ symbols \(raise --max-tokens for more\)/);
    const related = JSON.parse(cli('related', 'src/util/crypto.ts', '--max-tokens', '5000', '--json').stdout);
    expect(related.omitted).toBeUndefined();
    expect(related.response_tokens).toBeLessThanOrEqual(5000);
    expect(cli('related', 'src/util/crypto.ts', '--max-tokens', '0').code).toBe(2);
  });
});

describe('citation status in text output', () => {
  it('search, read and locate mark a file edited since the index as stale, with the note', () => {
    expect(cli('index').code).toBe(0);
    const file = path.join(sample.root, 'src/util/crypto.ts');
    fs.writeFileSync(file, '// moved down\n' + fs.readFileSync(file, 'utf8'));
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    // An answer re-indexes a file it would cite stale; with the index lock held elsewhere it cannot, and discloses it
    // instead once reindexWaitMs has passed (shortened here: six calls would each wait the default 5 s).
    const holder = Repo.open(sample.root, { flags: { home: sample.home }, env: {} });
    const me = { owner: 'strict-test', pid: process.pid, host: os.hostname() };
    expect(holder.store.jobs.tryAcquire(me, 120_000, Date.now(), () => false)).toBeUndefined();
    const cliWaiting = cliWith({ SIGHTLINE_REINDEX_WAIT_MS: '300' });
    try {
      for (const args of [['search', 'hashToken', '--scope', 'src/util'], ['read', 'src/util/crypto.ts:3-5'], ['locate', 'hashToken', '--scope', 'src/util']]) {
        const json = JSON.parse(cliWaiting(...args, '--json').stdout);
        const cited = json.results?.[0] ?? json;
        expect(cited.citation_status, args.join(' ')).toBe('stale');
        const text = cliWaiting(...args).stdout;
        expect(text, args.join(' ')).toContain('[stale]');
        expect(text, args.join(' ')).toContain(`stale: ${cited.citation_note}`);
      }
    } finally {
      holder.store.jobs.release(me.owner);
      holder.close();
    }
  }, 120_000);

  it('renders the mark from any envelope, verified ones unmarked', () => {
    const note = 'content_changed: the file changed after it was indexed';
    const item = { path: 'a.ts', start_line: 1, end_line: 2, symbol: 'f', kind: 'code', score: 1, reasons: ['bm25'], snippet: '1  f()' };
    const search = renderSearch({ status: 'ok', mode: 'keyword', query: 'f', total: 2, results: [{ ...item, citation_status: 'stale', citation_note: note }, { ...item, path: 'b.ts', citation_status: 'verified' }] });
    expect(search).toMatch(/^a\.ts:1-2 {2}f {2}\[1\] bm25 {2}\[stale\]\n {4}stale: content_changed/);
    expect(search).toMatch(/\nb\.ts:1-2 {2}f {2}\[1\] bm25\n/);
    const read = renderRead({ status: 'ok', path: 'a.ts', start_line: 1, end_line: 1, symbol: null, reasons: [], content: 'x', tokens: 1, truncated: false, citation_status: 'unverifiable', citation_note: 'missing: gone' });
    expect(read.split('\n').slice(0, 2)).toEqual(['a.ts:1-1  [unverifiable]', '  unverifiable: missing: gone']);
    const locate = renderLocate({ status: 'ok', query: 'f', total: 1, results: [{ ...item, kind: 'definition', citation_status: 'stale', citation_note: note }] } as unknown as Parameters<typeof renderLocate>[0]);
    expect(locate).toContain('[stale]');
    expect(locate).toContain(`stale: ${note}`);
    const bounded = renderLocate({ status: 'ok', query: 'f', total: 1, unread_files: 12, results: [{ ...item, kind: 'definition', citation_status: 'verified' }] } as unknown as Parameters<typeof renderLocate>[0]);
    expect(bounded.split('\n').at(-1)).toBe('12 more files say the word, not checked for further mentions: raise --max-results or narrow --scope');
  });
});
