/**
 * `serve --workspace` over stdio with a real SDK client: several repositories
 * under one root, added, listed, searched by `repo`, reset (memory kept) and
 * removed (files kept); paths that leave the root refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';
import { call, callError, connectStdio, type Connected } from '../mcp/harness.js';
import { exists, until } from './helpers.js';

describe('serve --workspace', () => {
  let root: string;
  let home: string;
  let outside: string;
  let conn: Connected;

  beforeAll(async () => {
    root = makeRepo({
      'api/src/orders.ts': 'export function placeOrder(id: string) { return `order ${id}`; }\n',
      'web/app.py': 'def render_invoice(total):\n    return f"invoice {total}"\n',
    });
    fs.mkdirSync(path.join(root, 'docs', 'empty'), { recursive: true });
    outside = makeRepo({ 'secret.ts': 'export const stolen = 1;\n' });
    fs.symlinkSync(outside, path.join(root, 'escape'));
    home = tempDir('sightline-home-');
    conn = await connectStdio(['--workspace', root, '--enable-writes'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
  });

  afterAll(async () => {
    await conn?.close();
    for (const dir of [root, outside, home]) removeDir(dir);
  });

  const indexed = (repo: string) =>
    until(async () => {
      const { job } = await call(conn.client, 'index_status', { repo });
      if (job.status === 'failed') throw new Error(job.error);
      return job.status === 'completed' ? job : undefined;
    }, `${repo} indexed`);

  it('starts with nothing registered: health says nothing_registered, a repository tool says how to add one', async () => {
    const health = await call(conn.client, 'health');
    expect(health).toMatchObject({ retrieval_phase: 'nothing_registered', retrieval_ready: true, repositories: 0 });
    expect(await callError(conn.client, 'search', { query: 'order' })).toMatch(/no repository is registered.*add_repo/);
    expect((await call(conn.client, 'list_repos')).count).toBe(0);
  });

  it('adds repositories asynchronously and lists them with their counts', async () => {
    const added = await call(conn.client, 'add_repo', { path: 'api' });
    expect(added).toMatchObject({ repo: 'api', created: true, indexed_root: path.join(root, 'api') });
    expect(added.job.status).toMatch(/none|running|completed/);
    await call(conn.client, 'add_repo', { path: `${root}/web`, id: 'frontend' });
    await indexed('api');
    await indexed('frontend');
    const { repos, count } = await call(conn.client, 'list_repos');
    expect(count).toBe(2);
    expect(repos.map((r: { id: string }) => r.id)).toEqual(['api', 'frontend']);
    expect(repos[0]).toMatchObject({ source: 'path', indexed_root: path.join(root, 'api'), file_count: 1, indexed_commit: null, vector_count: 0 });
    expect(Date.parse(repos[1].last_verified)).toBeGreaterThan(0);
  });

  it('re-adding is idempotent; one directory keeps one id, one id one source', async () => {
    expect(await call(conn.client, 'add_repo', { path: 'api' })).toMatchObject({ repo: 'api', created: false });
    expect(await callError(conn.client, 'add_repo', { path: 'api', id: 'other' })).toMatch(/already registered as api/);
    expect(await callError(conn.client, 'add_repo', { path: 'web', id: 'api' })).toMatch(/api is registered from the path .*api/);
    expect(await callError(conn.client, 'add_repo', { git: 'web', id: 'api' })).toMatch(/mutually exclusive/);
    expect(await callError(conn.client, 'add_repo', { path: 'api', git: 'api' })).toMatch(/either path .* or git/);
  });

  it('refuses paths that leave the root: .., an absolute path elsewhere, a symlink out', async () => {
    for (const p of ['..', '../..', 'api/../../', outside, '/etc', 'escape']) {
      expect(await callError(conn.client, 'add_repo', { path: p }), p).toMatch(/outside the workspace/);
    }
    expect(await callError(conn.client, 'add_repo', { path: 'nope' })).toMatch(/does not exist/);
    expect((await call(conn.client, 'list_repos')).count).toBe(2);
  });

  it('with two repositories, repo is required and the error names them; with it, each answers from its own', async () => {
    expect(await callError(conn.client, 'search', { query: 'placeOrder' })).toMatch(/repo is required.*\(api, frontend\)/);
    expect(await callError(conn.client, 'search', { query: 'x', repo: 'nope' })).toMatch(/no repository "nope".*api, frontend/);
    const api = await call(conn.client, 'search', { query: 'placeOrder', repo: 'api' });
    expect(api.results[0].path).toBe('src/orders.ts');
    const web = await call(conn.client, 'locate', { query: 'render_invoice', repo: 'frontend' });
    expect(JSON.stringify(web)).toContain('app.py');
    expect(JSON.stringify(web)).not.toContain('orders.ts');
    const health = await call(conn.client, 'health', { repo: 'api' });
    expect(health).toMatchObject({ repo_id: 'api', index: 'ready', retrieval_phase: 'keyword_only', retrieval_ready: true, authoritative: false });
  });

  it('a repository whose pass found no file is nothing_registered and not ready', async () => {
    await call(conn.client, 'add_repo', { path: 'docs/empty', id: 'empty' });
    await indexed('empty');
    expect(await call(conn.client, 'health', { repo: 'empty' })).toMatchObject({ retrieval_phase: 'nothing_registered', retrieval_ready: false });
    await call(conn.client, 'remove_repo', { repo: 'empty' });
  });

  it('keeps each repository indexed: an edit on disk is picked up without a call', async () => {
    writeFiles(root, { 'api/src/refunds.ts': 'export function issueRefund(amount: number) { return amount; }\n' });
    await until(async () => {
      const r = await call(conn.client, 'locate', { query: 'issueRefund', repo: 'api', kind: 'definition' });
      return JSON.stringify(r).includes('refunds.ts') ? r : undefined;
    }, 'the watcher to index refunds.ts');
  });

  it('reset_index drops the code index and keeps memory; add_repo indexes it again', async () => {
    await call(conn.client, 'remember', { repo: 'frontend', topic: 'billing', id: 'tax', title: 'Invoices include VAT' });
    const reset = await call(conn.client, 'reset_index', { repo: 'frontend' });
    expect(reset).toMatchObject({ repo: 'frontend', existed: true, phase: 'resetting', memory_preserved: true });
    // The sweep runs in the background as the repository's job (resetting.test.ts watches it run).
    expect((await indexed('frontend')).reset.dropped.files).toBe(1);
    const row = (await call(conn.client, 'list_repos')).repos.find((r: { id: string }) => r.id === 'frontend');
    expect(row).toMatchObject({ indexed_root: null, last_verified: null, file_count: null, indexed_commit: null });
    expect(await callError(conn.client, 'search', { query: 'invoice', repo: 'frontend' })).toMatch(/was reset; add_repo indexes it again/);
    expect(await callError(conn.client, 'index', { repo: 'frontend' })).toMatch(/was reset; add_repo indexes it again/);
    expect((await call(conn.client, 'recall', { repo: 'frontend', key: 'memory:billing/tax' })).fields.title).toBe('Invoices include VAT');
    expect(await call(conn.client, 'reset_index', { repo: 'unknown' })).toMatchObject({ existed: false });
    expect((await call(conn.client, 'list_repos')).count).toBe(2);

    await call(conn.client, 'add_repo', { path: 'web', id: 'frontend' });
    await indexed('frontend');
    expect((await call(conn.client, 'search', { query: 'render_invoice', repo: 'frontend' })).results[0].path).toBe('app.py');
    expect((await call(conn.client, 'recall', { repo: 'frontend', key: 'memory:billing/tax' })).fields.title).toBe('Invoices include VAT');
  });

  it('remove_repo drops the index and memory and never touches the files', async () => {
    const dirsBefore = fs.readdirSync(home).length;
    expect(await call(conn.client, 'remove_repo', { repo: 'frontend' })).toMatchObject({ removed: true, index_deleted: true });
    expect(fs.readdirSync(home).length).toBe(dirsBefore - 1);
    expect(exists(root, 'web', 'app.py')).toBe(true);
    expect((await call(conn.client, 'list_repos')).repos.map((r: { id: string }) => r.id)).toEqual(['api']);
    expect(await call(conn.client, 'remove_repo', { repo: 'frontend' })).toMatchObject({ removed: false });
    // With one repository left, repo may be left out.
    expect((await call(conn.client, 'search', { query: 'placeOrder' })).results[0].path).toBe('src/orders.ts');
  });

  it('follows the registry: a repository the CLI adds is served, one it removes is not', async () => {
    writeFiles(root, { 'tools/cli.ts': 'export function runTool() {}\n' });
    const added = runCli(['workspace', 'add', 'tools', '--workspace', root, '--json'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
    expect(added.code, added.stderr).toBe(0);
    expect((await call(conn.client, 'list_repos')).repos.map((r: { id: string }) => r.id)).toEqual(['api', 'tools']);
    expect((await call(conn.client, 'search', { query: 'runTool', repo: 'tools' })).results[0].path).toBe('cli.ts');
    expect(runCli(['workspace', 'remove', 'tools', '--workspace', root], { SIGHTLINE_HOME: home }).code).toBe(0);
    expect((await call(conn.client, 'list_repos')).repos.map((r: { id: string }) => r.id)).toEqual(['api']);
    expect(await callError(conn.client, 'search', { query: 'runTool', repo: 'tools' })).toMatch(/no repository "tools"/);
  });

  it('a restarted server serves what was registered', async () => {
    await conn.close();
    conn = await connectStdio(['--workspace', root], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });
    expect((await call(conn.client, 'list_repos')).repos.map((r: { id: string }) => r.id)).toEqual(['api']);
    const tools = (await conn.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('list_repos');
    expect(tools).not.toContain('add_repo'); // no --enable-writes this time
    expect((await call(conn.client, 'search', { query: 'issueRefund', repo: 'api' })).results[0].path).toBe('src/refunds.ts');
  });
});
