/**
 * Issue 21 through the real MCP server over stdio: hostile arguments get a
 * named refusal or an answer, never an internal error or a wedged server.
 */
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../helpers/fixture.js';
import { call, callError, useServedRepo } from '../mcp/harness.js';

/** A line on which a backtracking engine explodes for each of these patterns. */
const LONG_LINE = 'a'.repeat(4_000) + '!';
const CATASTROPHIC = ['(\\w+\\s?)*$', '(a+)+$', '(a|a)*$', '(a|aa)+$', '(.*a){12}$', '([a-z]+)*!x', '(a*)*b', '^(\\w+)*\\d$'];

const served = useServedRepo({ ...SAMPLE_FILES, 'data/long.txt': `${LONG_LINE}\n`, 'data/wide.txt': `${'word '.repeat(3_000)}\n`, 'data/lines.txt': `${'alpha '.repeat(3_000)}\nshort\n${'beta '.repeat(3_000)}\n` });

describe('caller regular expressions run in linear time', () => {
  it('answers every catastrophic pattern, and the server still answers after them', async () => {
    for (const query of CATASTROPHIC) {
      const answer = await call(served.conn.client, 'search', { query, regex: true, force: true });
      expect(answer.status, query).toBe('ok');
    }
    const after = await call(served.conn.client, 'search', { query: 'aaa+!$', regex: true, force: true });
    expect(after.results.map((r: { path: string }) => r.path)).toContain('data/long.txt');
  });

  it('keeps JavaScript semantics that matter: line by line, case-sensitive, \\u escapes', async () => {
    const hits = await call(served.conn.client, 'search', { query: '^export class Session\\u004danager', regex: true, force: true });
    expect(hits.results.map((r: { path: string }) => r.path)).toEqual(['src/auth/session.ts']);
    const lower = await call(served.conn.client, 'search', { query: 'export class sessionmanager', regex: true, force: true });
    expect(lower.results).toEqual([]);
  });

  it('refuses backreferences and lookaround with a sentence saying what to do instead', async () => {
    for (const query of ['(a)\\1', '(?<q>a)\\k<q>']) {
      expect(await callError(served.conn.client, 'search', { query, regex: true })).toMatch(/backreference.*linear-time engine.*: match the text itself/);
    }
    for (const query of ['foo(?=bar)', 'foo(?!bar)', '(?<=x)y', '(?<!x)y']) {
      expect(await callError(served.conn.client, 'search', { query, regex: true })).toMatch(/lookaround.*cannot run: match the surrounding text/);
    }
    expect(await callError(served.conn.client, 'search', { query: 'a(b', regex: true })).toMatch(/^invalid regular expression \(RE2 syntax\): missing closing \)/);
  });
});

describe('patterns are validated at the edge', () => {
  it('refuses an empty exclude and an over-long scope or glob by name', async () => {
    expect(await callError(served.conn.client, 'search', { query: 'session', exclude: [''] })).toMatch(/^exclude\[0\] is an empty pattern/);
    const long = 'a'.repeat(70_000);
    expect(await callError(served.conn.client, 'search', { query: 'session', scope: long })).toMatch(/^scope is 70000 characters; a pattern may have at most 1000/);
    expect(await callError(served.conn.client, 'list_files', { glob: `${long}*` })).toMatch(/^glob is 70001 characters/);
    expect(await callError(served.conn.client, 'locate', { query: 'SessionManager', scope: '' })).toMatch(/^scope is an empty pattern/);
  });

  it('matches a glob that backtracking would take minutes over, and refuses an unmatchable one', async () => {
    const answer = await call(served.conn.client, 'search', { query: 'session', scope: '*a*a*a*a*a*a*a*a*a*b', force: true });
    expect(answer.status).toBe('ok');
    expect(await callError(served.conn.client, 'list_files', { glob: '!(foo).ts' })).toMatch(/negated extglob.*linear time/);
    const listed = await call(served.conn.client, 'list_files', { glob: 'src/**/*.ts' });
    expect(listed.files.map((f: { path: string }) => f.path)).toContain('src/auth/session.ts');
  });
});

describe('input sizes are bounded at the edge', () => {
  it('refuses an over-long query, task or path by name, and reads a long token under the bound', async () => {
    const huge = 'a'.repeat(100_001);
    expect(await callError(served.conn.client, 'search', { query: huge })).toMatch(/^query is 100001 characters; at most 100000 are read/);
    expect(await callError(served.conn.client, 'locate', { query: huge })).toMatch(/^query is 100001 characters/);
    expect(await callError(served.conn.client, 'context', { task: huge })).toMatch(/^task is 100001 characters/);
    expect(await callError(served.conn.client, 'outline', { path: 'a/'.repeat(512 * 1024) })).toMatch(/^the path is 1048576 characters; a path may have at most 4096/);
    // A 100,000-letter token is read (in linear time) and is no term: a refusal, quickly.
    expect(await callError(served.conn.client, 'search', { query: 'a'.repeat(100_000) })).toMatch(/has no searchable words/);
  });
});

describe('error text shows what it was given safely', () => {
  it('cuts an echoed value to its head and replaces control characters, in every error', async () => {
    const noWords = await callError(served.conn.client, 'search', { query: `${'\u001b\u0007'.repeat(20)}${'-'.repeat(90_000)}` });
    expect(noWords).toMatch(/^the query "\ufffd{40}-+… \(90042 characters\) has no searchable words/);
    expect(noWords.length).toBeLessThan(1_000);
    expect(noWords).not.toMatch(/[\u0000-\u001f]/);
    const missing = await callError(served.conn.client, 'outline', { path: `src/\u0007bell\r\nInjected: yes ${'x'.repeat(4_000)}.ts` });
    expect(missing).not.toMatch(/[\u0000-\u001f]/);
    expect(missing).toMatch(/\ufffdbell\ufffd\ufffdInjected: yes x+… \(4003 characters\)/);
  });
});

describe('FTS5 syntax in caller text', () => {
  it('locate and search answer a query with quotes instead of an internal error', async () => {
    for (const query of ["\"'`;DROP TABLE files;--", 'a\' OR "b']) {
      expect((await call(served.conn.client, 'locate', { query, force: true })).status, query).toBe('ok');
      expect((await call(served.conn.client, 'search', { query, force: true })).status, query).toBe('ok');
    }
  });
});

describe('session names', () => {
  it('context refuses a 1 MB session name instead of storing it in every receipt', async () => {
    expect(await callError(served.conn.client, 'context', { task: 'hash a token', session: 's'.repeat(1_000_000) })).toMatch(/^session must be 1 to 128 letters/);
    expect((await call(served.conn.client, 'context', { task: 'hash a token', session: 'task-42' })).status).toBe('ok');
  });
});

describe('read pagination', () => {
  it('splits a line longer than the budget and always advances', async () => {
    const pages: Record<string, any>[] = [];
    for (let target: string | undefined = 'data/lines.txt:1-3'; target; ) {
      const page = await call(served.conn.client, 'read', { target, max_tokens: 200, force: true, expand: false });
      pages.push(page);
      expect(page.content.length, JSON.stringify(page).slice(0, 200)).toBeGreaterThan(0);
      expect(page.end_line).toBeGreaterThanOrEqual(page.start_line);
      if (page.next_start_line !== undefined) expect(page.next_start_line).toBeGreaterThan(page.end_line);
      target = page.next_start_line ? `data/lines.txt:${page.next_start_line}-3` : undefined;
      expect(pages.length).toBeLessThan(5);
    }
    expect(pages.map((p) => [p.start_line, p.end_line, p.truncated])).toEqual([[1, 1, true], [2, 2, true], [3, 3, true]]);
    expect(pages[0]!.line_cut).toMatchObject({ line: 1, total_chars: 18_000 });
    expect(pages[0]!.content).toMatch(/^(alpha )+/);
    expect(pages[1]!.content).toBe('short');
    expect(pages[2]!.line_cut.line).toBe(3);
  });
});
