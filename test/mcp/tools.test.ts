/**
 * The SDK's own Client over each transport against a fixture repository:
 * the tools listed, each tool called, answers checked, and malformed calls
 * answered with isError and a fix instead of a crash.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, callError, connectNetwork, connectStdio, startNetworkServer, stop, waitForIndex, type Connected, type NetworkServer, type Transport } from './harness.js';

const READ_ONLY_TOOLS = ['search', 'context', 'locate', 'explore', 'related', 'changed', 'read', 'outline', 'list_files', 'health', 'index_status', 'stats', 'recall', 'list_topics', 'neighbors', 'scan', 'claim_status'];

let outside: string;
beforeAll(() => {
  outside = tempDir('sightline-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside the repository\n');
});
afterAll(() => removeDir(outside));

describe.each<Transport>(['stdio', 'http', 'sse'])('MCP tools over %s', (transport) => {
  let root: string;
  let home: string;
  let server: NetworkServer | undefined;
  let conn: Connected;

  beforeAll(async () => {
    root = makeRepo(SAMPLE_FILES);
    fs.symlinkSync(outside, path.join(root, 'escape'));
    home = tempDir('sightline-home-');
    const args = ['--repo', root];
    if (transport === 'stdio') {
      conn = await connectStdio(args, { SIGHTLINE_HOME: home });
    } else {
      server = await startNetworkServer(transport, args, { SIGHTLINE_HOME: home });
      conn = await connectNetwork(server);
    }
  });
  afterAll(async () => {
    await conn?.close();
    if (server) await stop(server);
    removeDir(root);
    removeDir(home);
  });

  it('lists the read-only tools, annotated readOnlyHint, with described arguments; index only with --enable-writes', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_ONLY_TOOLS].sort());
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${t.name}.${arg}`).toBeTruthy();
      }
    }
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {}).sort();
    expect(props('search')).toEqual(['exclude', 'expand', 'files', 'force', 'k', 'kind', 'max_tokens', 'mode', 'query', 'regex', 'scope']);
    expect(props('locate')).toEqual(['force', 'kind', 'max_results', 'max_tokens', 'query', 'scope']);
    expect(props('read')).toEqual(['expand', 'force', 'max_tokens', 'target']);
    expect(props('outline')).toEqual(['max_tokens', 'path']);
    expect(props('list_files')).toEqual(['cursor', 'glob', 'language', 'max_results', 'max_tokens']);
    expect(tools.find((t) => t.name === 'search')!.inputSchema.required).toEqual(['query']);
    // Every tool says it takes nothing beyond its arguments, and refuses the rest (below).
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
  });

  it('names itself with the package version, as the CLI does', async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(conn.client.getServerVersion()).toMatchObject({ name: 'sightline', version: pkg.version });
    expect(runCli(['--version']).stdout.trim()).toBe(pkg.version);
  });

  it('the first query waits for the first index to become searchable, then answers; never an empty ok', async () => {
    const first = await call(conn.client, 'search', { query: 'session' });
    expect(first.status).toBe('ok');
    expect(first.results.length).toBeGreaterThan(0);
    await waitForIndex(conn.client);
    const { job } = await call(conn.client, 'index_status');
    expect(job).toEqual(expect.objectContaining({ status: 'completed', phase: 'done', attempts: 1, error: null }));
    expect(job.started_at <= job.ended_at).toBe(true);
    expect(job.total).toBe(job.done);
    const again = await call(conn.client, 'search', { query: 'session' });
    expect(again.retrieval_phase).toBe('serving');
  });

  it('search returns ranked, cited results and honours its arguments', async () => {
    const r = await call(conn.client, 'search', { query: 'get user name', k: 50 });
    expect(r.results[0]).toEqual(
      expect.objectContaining({ path: 'src/auth/session.ts', start_line: expect.any(Number), end_line: expect.any(Number), reasons: expect.any(Array), tokens: expect.any(Number) }),
    );
    const scoped = await call(conn.client, 'search', { query: 'session', scope: 'test', k: 50 });
    expect(scoped.results.length).toBeGreaterThan(0);
    expect(scoped.results.every((x: { path: string }) => x.path.startsWith('test/'))).toBe(true);
    const excluded = await call(conn.client, 'search', { query: 'session', exclude: ['test/**', 'docs/**'], kind: ['code'], k: 50 });
    expect(excluded.results.every((x: { path: string }) => x.path.startsWith('src/'))).toBe(true);
    const files = await call(conn.client, 'search', { query: 'session', files: true, force: true });
    const paths = files.results.map((x: { path: string }) => x.path);
    expect(new Set(paths).size).toBe(paths.length);
    const regex = await call(conn.client, 'search', { query: 'def \\w+\\(', regex: true });
    expect(regex.results[0].path).toBe('src/server/http_server.py');
    const budget = await call(conn.client, 'search', { query: 'session', k: 50, max_tokens: 60 });
    expect(budget.tokens).toBeLessThanOrEqual(60);
    expect(budget.omitted).toBeGreaterThan(0);
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const answer = await call(conn.client, 'search', { query: 'get user name', mode, force: true });
      expect(answer.mode, mode).toBe(mode);
    }
  });

  it('locate finds definitions and references', async () => {
    const defs = await call(conn.client, 'locate', { query: 'hashToken', kind: 'definition' });
    expect(defs.results).toEqual([expect.objectContaining({ path: 'src/util/crypto.ts', start_line: 3, kind: 'definition' })]);
    const refs = await call(conn.client, 'locate', { query: 'hashToken', kind: 'reference', scope: 'src/auth', max_results: 1 });
    expect(refs.results).toHaveLength(1);
    expect(refs.results[0]).toEqual(expect.objectContaining({ path: 'src/auth/session.ts', kind: 'reference' }));
  });

  it('read returns a symbol, a range widened to its block, or the exact lines', async () => {
    const sym = await call(conn.client, 'read', { target: 'hashToken' });
    expect(sym).toEqual(expect.objectContaining({ path: 'src/util/crypto.ts', start_line: 3, end_line: 5 }));
    expect(sym.content).toContain('createHash("sha256")');
    const widened = await call(conn.client, 'read', { target: 'src/auth/session.ts:8' });
    expect([widened.start_line, widened.end_line]).toEqual([7, 11]);
    const exact = await call(conn.client, 'read', { target: 'src/auth/session.ts:8', expand: false });
    expect([exact.start_line, exact.end_line]).toEqual([8, 8]);
    const cut = await call(conn.client, 'read', { target: 'src/auth/session.ts', max_tokens: 20 });
    expect(cut.truncated).toBe(true);
    expect(cut.tokens).toBeLessThanOrEqual(20);
  });

  it('outline, list_files, stats and health describe the repository', async () => {
    const o = await call(conn.client, 'outline', { path: 'src/server/http_server.py' });
    expect(o.symbols.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['HTTPServer', 'serve_forever', 'parse_request_line']));
    const l = await call(conn.client, 'list_files', { glob: 'src/**', language: 'typescript', max_results: 1 });
    expect(l).toEqual(expect.objectContaining({ total: 2, omitted: { files: 1 }, next_cursor: expect.any(String) }));
    expect(l.files).toHaveLength(1);
    const next = await call(conn.client, 'list_files', { glob: 'src/**', language: 'typescript', max_results: 1, cursor: l.next_cursor });
    expect(next.files).toHaveLength(1);
    expect(next.files[0].path > l.files[0].path).toBe(true);
    expect(next.next_cursor).toBeUndefined(); // the last page
    expect(next.omitted).toBeUndefined();
    const s = await call(conn.client, 'stats');
    expect(s.files).toBe(Object.keys(SAMPLE_FILES).length);
    const h = await call(conn.client, 'health');
    expect(h).toEqual(expect.objectContaining({ status: 'ok', repo: root, index: 'ready', problems: [], retrieval_phase: 'serving' }));
    expect(h.server).toEqual(expect.objectContaining({ name: 'sightline', transport, tool_concurrency: 2, writes_enabled: false }));
  });

  it('answers malformed calls with isError and what to fix, and keeps serving', async () => {
    expect(await callError(conn.client, 'search', {})).toMatch(/query must be a non-empty string/);
    expect(await callError(conn.client, 'search', { query: 'x', k: '5' })).toMatch(/k must be a positive whole number/);
    expect(await callError(conn.client, 'search', { query: 'x', k: 0 })).toMatch(/k must be a positive whole number/);
    expect(await callError(conn.client, 'locate', { query: 'x', kind: 'callers' })).toMatch(/kind must be one of definition, reference, any/);
    expect(await callError(conn.client, 'read', { target: 'src/a.ts', expand: 'no' })).toMatch(/expand must be true or false/);
    expect(await callError(conn.client, 'search', { query: '(', regex: true })).toMatch(/invalid regular expression/);
    expect(await callError(conn.client, 'read', { target: 'NoSuchSymbolAnywhere' })).toMatch(/no file or symbol named/);
    expect(await callError(conn.client, 'list_files', { cursor: 'not-a-cursor' })).toMatch(/cursor is not one list_files gave/);
    const l = await call(conn.client, 'list_files', { glob: 'src/**', max_results: 1 });
    expect(await callError(conn.client, 'list_files', { glob: 'test/**', max_results: 1, cursor: l.next_cursor })).toMatch(/cursor continues a listing with glob src\/\*\*/);
    const unknown = (await conn.client.callTool({ name: 'index', arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(await call(conn.client, 'health')).toEqual(expect.objectContaining({ status: 'ok' }));
  });

  it('refuses an argument a tool does not take, naming the ones it does, instead of ignoring it', async () => {
    const misspelt = await callError(conn.client, 'search', { query: 'session', scoep: 'src/auth' });
    expect(misspelt).toMatch(/search has no argument "scoep" \(did you mean "scope"\?\); it takes query, scope, exclude, kind, regex, k, files, mode, max_tokens, force, expand$/);
    expect(misspelt).not.toMatch(/\n\s+at |ZodError|"code"/); // a sentence, not a stack trace or a zod dump
    expect(await callError(conn.client, 'list_files', { maxResults: 5 })).toMatch(/"maxResults" \(did you mean "max_results"\?\)/);
    expect(await callError(conn.client, 'outline', { path: 'src/auth/session.ts', depth: 2 })).toMatch(/outline has no argument "depth"; it takes path, max_tokens$/);
    expect(await callError(conn.client, 'health', { verbose: true })).toMatch(/health has no argument "verbose"; it takes no arguments$/);
    // A wrong argument among right ones is still refused: the call is not answered without it.
    expect(await callError(conn.client, 'related', { path: 'src/auth/session.ts', max_token: 50 })).toMatch(/"max_token" \(did you mean "max_tokens"\?\)/);
  });

  it('never reads outside the root: .., absolute paths and symlinks are refused', async () => {
    const escapes: [string, Record<string, unknown>][] = [
      ['read', { target: '../../../../etc/passwd' }],
      ['read', { target: '/etc/passwd' }],
      ['read', { target: path.join(outside, 'secret.txt') }],
      ['read', { target: 'escape/secret.txt' }],
      ['read', { target: 'escape/secret.txt:1-1' }],
      ['outline', { path: '../secret.txt' }],
      ['outline', { path: 'escape/secret.txt' }],
    ];
    for (const [tool, args] of escapes) {
      const text = await callError(conn.client, tool, args);
      expect(text, JSON.stringify(args)).toMatch(/outside the repository/);
      expect(text).not.toContain('outside the repository\n'); // the secret's own text
    }
  });
});
