/** explore, related and changed over both faces: the built CLI (text and --json) and MCP over stdio. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, callError, connectStdio, waitForIndex, type Connected } from '../mcp/harness.js';
import { GRAPH_FILES } from './fixture.js';

let root: string;
let home: string;

beforeAll(() => {
  root = makeRepo(GRAPH_FILES);
  home = tempDir('sightline-home-');
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

describe('CLI', () => {
  const cli = (...args: string[]) => runCli([...args, '--repo', root], { SIGHTLINE_HOME: home });

  it('explore answers in JSON and in text (indexing on first use)', () => {
    const json = cli('explore', '--relation', 'callers', '--anchor', 'hashToken', '--json');
    expect(json.code, json.stderr).toBe(0);
    const e = JSON.parse(json.stdout);
    expect(e).toMatchObject({ status: 'ok', relation: 'callers', total: 1 });
    expect(e.results[0]).toMatchObject({ path: 'src/auth/session.ts', symbol: 'SessionManager.createSession', confidence: 'import' });
    const text = cli('explore', 'what', 'breaks', 'if', 'I', 'change', 'hashToken', '--depth', '3');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^impact of hashToken/);
    expect(text.stdout).toContain('src/api/routes.ts');
    expect(text.stdout).toContain('via ');
  });

  it('search --expand lists the expansions after the results', () => {
    const text = cli('search', 'createSession', '-k', '1', '--expand');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/\nexpanded:\n.*imported-by:/);
  });

  it('explore refuses a huge blast radius with a refine answer, and says what to narrow', () => {
    const r = cli('explore', '--relation', 'callers', '--anchor', 'log', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'refine', summary: { total_found: 30 } });
    expect(cli('explore', '--relation', 'callers', '--anchor', 'log').stdout).toMatch(/too broad/);
  });

  it('related and changed', () => {
    const rel = JSON.parse(cli('related', 'src/auth/session.ts', '--json').stdout);
    expect(rel.tests).toEqual([{ path: 'test/session.test.ts', reasons: ['imports-it', 'named-after-it'], citation_status: 'verified' }]);
    const ch = cli('changed', '--json');
    expect(ch.code, ch.stderr).toBe(0);
    expect(JSON.parse(ch.stdout)).toMatchObject({ status: 'ok', added: [], removed: [] });
    expect(cli('changed').stdout).toMatch(/^since the index: 0 added/);
  });

  it('refuses a path outside the repository with a usage exit code', () => {
    const r = cli('changed', '../', '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error' });
    expect(cli('related', '../x.ts').stderr).toMatch(/outside the repository/);
  });

  it('every verb has help with examples', () => {
    for (const verb of ['explore', 'related', 'changed']) {
      const h = runCli([verb, '--help']);
      expect(h.code).toBe(0);
      expect(h.stdout).toContain('Examples:');
      expect(h.stdout).toContain(`sightline ${verb}`);
    }
  });
});

describe('MCP', () => {
  let conn: Connected;
  beforeAll(async () => {
    conn = await connectStdio(['--repo', root], { SIGHTLINE_HOME: tempDir('sightline-home-') });
  });
  afterAll(async () => conn?.close());

  it('offers explore, related and changed with described arguments', async () => {
    const { tools } = await conn.client.listTools();
    for (const name of ['explore', 'related', 'changed']) {
      const t = tools.find((x) => x.name === name)!;
      expect(t, name).toBeDefined();
      expect(t.annotations?.readOnlyHint).toBe(true);
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) expect((schema as { description?: string }).description, `${name}.${arg}`).toBeTruthy();
    }
  });

  it('answers each tool', async () => {
    await call(conn.client, 'search', { query: 'hashToken' }).catch(() => undefined); // the first read starts the index
    await waitForIndex(conn.client);
    const e = await call(conn.client, 'explore', { relation: 'impact', anchor: 'src/util/crypto.ts', depth: 3 });
    expect(e.status).toBe('ok');
    expect(e.by_file.map((g: { path: string }) => g.path)).toContain('src/api/routes.ts');
    const auto = await call(conn.client, 'explore', { question: 'who calls login' });
    expect(auto).toMatchObject({ relation: 'callers', results: [expect.objectContaining({ symbol: 'routes' })] });
    const overview = await call(conn.client, 'explore', { relation: 'overview' });
    expect(overview.entry_points.map((p: { path: string }) => p.path)).toContain('src/main.ts');
    const rel = await call(conn.client, 'related', { path: 'src/util/crypto.ts' });
    expect(rel.dependents.map((f: { path: string }) => f.path)).toEqual(['src/auth/session.ts']);
    expect(rel).toMatchObject({ citation_status: 'verified', dependents: [{ path: 'src/auth/session.ts', citation_status: 'verified' }] });
    const found = await call(conn.client, 'search', { query: 'createSession', k: 1, expand: true });
    const at = `${found.results[0].path}:${found.results[0].start_line}`;
    expect(found.expansions.flatMap((x: { reasons: string[] }) => x.reasons)).toContain(`imported-by:${at}`);
    const ask = { task: 'create a session', terms: ['createSession'], detail: 'slices' };
    const bundle = await call(conn.client, 'context', ask);
    const crypto = bundle.entries.find((x: { path: string }) => x.path === 'src/util/crypto.ts');
    expect(crypto?.reasons).toEqual([expect.stringMatching(/^imported-by:src\/auth\/session\.ts:\d+$/)]);
    const unexpanded = await call(conn.client, 'context', { ...ask, expand: false });
    expect(unexpanded.entries.map((x: { path: string }) => x.path)).not.toContain('src/util/crypto.ts');
    const ch = await call(conn.client, 'changed', {});
    expect(ch).toMatchObject({ status: 'ok', modified: [] });
  });

  it('answers bad calls with an error that says what to do', async () => {
    expect(await callError(conn.client, 'changed', { path: '../..' })).toMatch(/outside the repository/);
    expect(await callError(conn.client, 'explore', { relation: 'callers', anchor: 'hashToken', depth: 9 })).toMatch(/depth/);
    expect(await callError(conn.client, 'explore', { relation: 'sideways' })).toMatch(/relation must be one of/);
  });
});
