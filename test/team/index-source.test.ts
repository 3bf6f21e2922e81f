/**
 * Every health, search and context answer names what its local index was
 * built from (git HEAD and a digest of the indexed files), so two servers
 * that index the same repository on their own can be compared.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openEngine } from '../../src/engine/index.js';
import { digest } from '../../src/walk/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

const root = makeRepo({ 'src/session.ts': 'export function refreshSession(token: string) {\n  return token.trim();\n}\n', 'src/other.ts': 'export const other = 1;\n' });
const homes = [tempDir('sightline-home-'), tempDir('sightline-home-')];
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'pipe' }).toString().trim();
git('init', '-q');
git('add', '.');
git('commit', '-qm', 'first');
const servers = homes.map((home) => openEngine(root, { flags: { home, embedder: 'none' }, env: {} }));

afterAll(async () => {
  for (const r of servers) await r.close();
  for (const d of [root, ...homes]) removeDir(d);
});

it('two indexes of one checkout name the same commit and digest, in health, search and context', async () => {
  for (const r of servers) await r.repo.index();
  const head = git('rev-parse', 'HEAD');
  const sources = servers.map((r) => r.health().index_source);
  expect(sources[0]).toEqual({ commit: head, digest: expect.stringMatching(/^[0-9a-f]{16}$/) });
  expect(sources[1]).toEqual(sources[0]);
  const found = await servers[0]!.search({ query: 'refresh session', k: 3 });
  expect(found).toMatchObject({ status: 'ok', index_source: sources[0] });
  const bundle = await servers[1]!.context({ task: 'refresh the session token', budgetTokens: 2_000 });
  expect(bundle.index_source).toEqual(sources[0]);
  expect(bundle.response_tokens).toBeLessThanOrEqual(2_000);
});

it('the digest moves when an indexed file changes, and only for the index that saw it', async () => {
  const before = servers[0]!.health().index_source;
  fs.writeFileSync(path.join(root, 'src/other.ts'), 'export const other = 2_000;\n');
  await servers[0]!.repo.index();
  const after = servers.map((r) => r.health().index_source);
  expect(after[0]!.digest).not.toBe(before.digest);
  expect(after[0]!.commit).toBe(before.commit); // uncommitted: the digest tells them apart
  expect(after[1]).toEqual(before);
  // The digest comes from the file list the pass moved, not read again: it is the one a fresh index of the same files gives.
  await servers[1]!.repo.index();
  expect(servers[1]!.health().index_source).toEqual(after[0]);
  const freshSource = async () => {
    const home = tempDir('sightline-home-');
    const fresh = openEngine(root, { flags: { home, embedder: 'none' }, env: {} });
    try {
      await fresh.repo.index();
      return fresh.health().index_source;
    } finally {
      await fresh.close();
      removeDir(home);
    }
  };
  expect(await freshSource()).toEqual(after[0]);
  // Files added and removed, with paths whose UTF-8 order and code-unit order differ: the list kept is in the first, the digest in the second.
  const added = ['src/\u{1F600}.ts', 'src/\uFF21.ts'];
  for (const p of added) fs.writeFileSync(path.join(root, p), 'export const x = 1;\n');
  const other = fs.readFileSync(path.join(root, 'src/other.ts'));
  fs.rmSync(path.join(root, 'src/other.ts'));
  try {
    await servers[0]!.repo.index();
    const moved = servers[0]!.health().index_source;
    expect(moved.digest).not.toBe(after[0]!.digest);
    // The digest's definition: every file's path and content digest, in code-unit order of the paths.
    const rows = servers[0]!.repo.store.files.list().sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(rows.map((f) => f.path).slice(-2)).toEqual(['src/\u{1F600}.ts', 'src/\uFF21.ts']);
    expect(moved.digest).toBe(digest(rows.map((f) => `${f.path}\u0000${f.digest}\n`).join('')));
    expect(await freshSource()).toEqual(moved);
  } finally {
    for (const p of added) fs.rmSync(path.join(root, p));
    fs.writeFileSync(path.join(root, 'src/other.ts'), other);
  }
});

it('health says where memory lives: sqlite by default, the team URL without its password with --store', async () => {
  expect(servers[0]!.health()).toMatchObject({ memory_store: 'sqlite', team_repo: null });
  const team = openEngine(root, { flags: { home: homes[0]!, databaseUrl: 'postgres://u:hunter2@db:5432/team', teamRepo: 'web' }, env: {} });
  expect(team.health()).toMatchObject({ memory_store: 'postgres://u:***@db:5432/team', team_repo: 'web' });
  await team.close();
});
