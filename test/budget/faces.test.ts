/** The budget layer through both faces: the CLI (a child process per call) and MCP over stdio. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/budget/index.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, connectStdio, waitForIndex, type Connected } from '../mcp/harness.js';
import { filesMentioning, KEYWORD_ONLY } from './helpers.js';

let root: string;
let home: string;
const env = () => ({ SIGHTLINE_HOME: home, ...KEYWORD_ONLY });

beforeAll(() => {
  root = makeRepo({ ...SAMPLE_FILES, ...filesMentioning('lib/alpha', 20, 'widget'), ...filesMentioning('lib/beta', 10, 'widget') });
  home = tempDir('sightline-home-');
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

describe('CLI', () => {
  it('context --json prints one bundle whose response_tokens is the size of what was printed', () => {
    const r = runCli(['context', 'get the user name of a session', '--repo', root, '--budget', '2000', '--json'], env());
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(r.stdout);
    expect(bundle.status).toBe('ok');
    expect(bundle.entries[0].path).toBe('src/auth/session.ts');
    expect(countTokens(r.stdout.trimEnd())).toBe(bundle.response_tokens);
    expect(bundle.response_tokens).toBeLessThanOrEqual(2000);
  });

  it('--session carries refusals across processes until the gate opens', () => {
    const search = () => JSON.parse(runCli(['search', 'widget', '--repo', root, '--session', 'cli-cap', '--json'], env()).stdout);
    expect([search(), search(), search()].map((e) => [e.status, e.refusal_count])).toEqual([
      ['refine', 1],
      ['refine', 2],
      ['refine', 3],
    ]);
    const opened = search();
    expect(opened.status).toBe('ok');
    expect(opened.gate_note).toMatch(/gate opened/);
    expect(search().refusal_count).toBe(1);
  }, 120_000);

  it('without --session, CLI calls share one session, so refusals end there too', () => {
    const search = () => JSON.parse(runCli(['search', 'widget', '--repo', root, '--json'], env()).stdout);
    const statuses = [search(), search(), search(), search()].map((e) => e.status);
    expect(statuses.slice(0, 3)).toEqual(['refine', 'refine', 'refine']);
    expect(statuses[3]).toBe('ok');
  }, 120_000);

  it('renders refine and context answers as text, and documents context with examples', () => {
    const refine = runCli(['search', 'widget', '--repo', root], env());
    expect(refine.code).toBe(0);
    expect(refine.stdout).toMatch(/^too broad \(breadth\): 30 hits in 30 files/);
    expect(refine.stdout).toMatch(/narrow_scope lib\/alpha {2}→ 20 hits/);
    const text = runCli(['context', 'hash a token', '--repo', root, '--budget', '600'], env());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/src\/util\/crypto\.ts {2}\d+\/\d+ tokens \(whole file\)/);
    expect(text.stdout).toMatch(/of 600 tokens, detail slices/);
    const help = runCli(['context', '--help']);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('$ sightline context');
  });
});

describe('MCP', () => {
  let first: Connected;
  beforeAll(async () => {
    first = await connectStdio(['--repo', root], env());
    await waitForIndex(first.client);
  });
  afterAll(async () => {
    await first?.close();
  });

  it('context answers within budget_tokens, counted as the text sent', async () => {
    const r = (await first.client.callTool({ name: 'context', arguments: { task: 'get the user name of a session', budget_tokens: 1500 } })) as CallToolResult;
    const text = (r.content[0] as { text: string }).text;
    const bundle = JSON.parse(text);
    expect(countTokens(text)).toBe(bundle.response_tokens);
    expect(bundle.response_tokens).toBeLessThanOrEqual(1500);
    expect(bundle.entries.every((e: { citation_status: string }) => e.citation_status === 'verified')).toBe(true);
    // the connection is a session: asked again, nothing is sent twice
    const again = await call(first.client, 'context', { task: 'get the user name of a session', budget_tokens: 1500 });
    const before = new Set(bundle.entries.flatMap((e: { units?: { receipt: string }[] }) => (e.units ?? []).map((u) => u.receipt)));
    const after = again.entries.flatMap((e: { units?: { receipt: string }[] }) => (e.units ?? []).map((u) => u.receipt));
    expect(after.filter((x: string) => before.has(x))).toEqual([]);
    expect(again.reused.length).toBeGreaterThan(0);
  });

  it('counts refusals per connection: the fourth broad search opens the gate; another connection starts at one', async () => {
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await call(first.client, 'search', { query: 'widget' })).refusal_count);
    expect(counts).toEqual([1, 2, 3]);
    const opened = await call(first.client, 'search', { query: 'widget' });
    expect(opened).toMatchObject({ status: 'ok', gate_note: expect.stringMatching(/gate opened/) });
    const second = await connectStdio(['--repo', root], env());
    try {
      expect((await call(second.client, 'search', { query: 'widget' })).refusal_count).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('stats reports usage over the last hour per tool, without queries or paths', async () => {
    const s = await call(first.client, 'stats');
    expect(s.usage.window_seconds).toBe(3600);
    expect(s.usage.tools.context).toMatchObject({ calls: 2, response_tokens: expect.any(Number), reads_replaced_tokens: expect.any(Number) });
    expect(s.usage.tools.context.net_saved_tokens).toBe(s.usage.tools.context.reads_replaced_tokens - s.usage.tools.context.response_tokens);
    expect(s.usage.tools.search.calls).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(s.usage)).not.toMatch(/widget|session\.ts|user name/);
  });
});
