/**
 * Git-sourced repositories over stdio: a commit is indexed (not a working
 * tree) and reported as indexed_commit, a new commit is picked up on the
 * refresh interval, and a source that cannot be fetched yet fails, is
 * retried with backoff (visible in index_status and health), and succeeds
 * once it can. All sources are local repositories: no network.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeFiles } from '../helpers/fixture.js';
import { call, callError, connectStdio, type Connected } from '../mcp/harness.js';
import { commit, gitRepo, until } from './helpers.js';

describe('git-sourced repositories', () => {
  let root: string;
  let home: string;
  let conn: Connected;
  let first: string;

  beforeAll(async () => {
    root = tempDir('sightline-workspace-');
    home = tempDir('sightline-home-');
    first = gitRepo(path.join(root, 'upstream'), { 'src/ledger.ts': 'export function postEntry() { return 1; }\n' });
    fs.mkdirSync(path.join(root, 'later'));
    conn = await connectStdio(['--workspace', root, '--enable-writes'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none', SIGHTLINE_RETRY_BASE_MS: '200' });
  });

  afterAll(async () => {
    await conn?.close();
    removeDir(root);
    removeDir(home);
  });

  const row = async (id: string) => (await call(conn.client, 'list_repos')).repos.find((r: { id: string }) => r.id === id);

  it('indexes the commit its ref names, not the working tree, and reports indexed_commit', async () => {
    writeFiles(root, { 'upstream/src/uncommitted.ts': 'export function draftOnly() {}\n' });
    const added = await call(conn.client, 'add_repo', { git: 'upstream', ref: 'main', refresh: '1s', id: 'ledger' });
    expect(added).toMatchObject({ repo: 'ledger', source: 'git', created: true });
    const listed = await until(async () => ((await row('ledger'))?.indexed_commit === first ? row('ledger') : undefined), 'the first commit indexed');
    expect(listed).toMatchObject({ source: 'git', file_count: 1, git: { url: path.join(root, 'upstream'), ref: 'main', refresh_ms: 1000 } });
    expect(listed.indexed_root.startsWith(home)).toBe(true);
    expect((await call(conn.client, 'search', { query: 'postEntry', repo: 'ledger' })).results[0].path).toBe('src/ledger.ts');
    expect(JSON.stringify(await call(conn.client, 'locate', { query: 'draftOnly', repo: 'ledger' }))).not.toContain('uncommitted.ts');
  });

  it('picks up a new commit on its refresh interval', async () => {
    const second = commit(path.join(root, 'upstream'), { 'src/refund.ts': 'export function reverseEntry() { return -1; }\n' }, 'second');
    await until(async () => ((await row('ledger'))?.indexed_commit === second ? true : undefined), 'the second commit indexed');
    // The uncommitted file was committed with it (commit adds everything), so the tree now holds three.
    expect((await row('ledger')).file_count).toBe(3);
  });

  it('a git source and a mounted path are mutually exclusive for one id', async () => {
    expect(await callError(conn.client, 'add_repo', { path: 'upstream', id: 'ledger' })).toMatch(/mutually exclusive/);
    expect(await callError(conn.client, 'add_repo', { git: 'https://user:hunter2@example.com/x.git' })).toMatch(/carries a password/);
    expect(await callError(conn.client, 'add_repo', { git: '--upload-pack=touch /tmp/x' })).toMatch(/must not start with "-"/);
    expect(await callError(conn.client, 'add_repo', { git: 'upstream', ref: '--all' })).toMatch(/not a branch, tag or commit/);
    expect(await callError(conn.client, 'add_repo', { git: 'upstream', refresh: 'often' })).toMatch(/not an interval/);
  });

  it('a pass that fails is retried with backoff, visibly, until it succeeds', async () => {
    await call(conn.client, 'add_repo', { git: 'later', refresh: '1h' });
    const failing = await until(async () => {
      const { upkeep } = await call(conn.client, 'index_status', { repo: 'later' });
      return upkeep?.failures >= 2 ? upkeep : undefined;
    }, 'two failures in a row');
    expect(failing.last_error).toMatch(/git clone failed/);
    expect(failing.next_retry_at).not.toBeNull();
    expect((await call(conn.client, 'health', { repo: 'later' })).reason).toMatch(/the last pass failed/);

    const made = gitRepo(path.join(root, 'later'), { 'main.go': 'package main\nfunc settleLater() {}\n' });
    await until(async () => ((await row('later'))?.indexed_commit === made ? true : undefined), 'the retried pass to index the commit');
    const { upkeep, job } = await call(conn.client, 'index_status', { repo: 'later' });
    expect(upkeep).toMatchObject({ failures: 0, next_retry_at: null });
    expect(job.status).toBe('completed');
  });
});
