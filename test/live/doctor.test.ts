/**
 * `sightline doctor` finds each kind of damage, names the command that repairs
 * it, and exits non-zero; `sightline reset` drops an index (also one another
 * handle has open) and `index --force` rebuilds one.
 */
import os from 'node:os';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { doctor, jobStatus, reset } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { runCli } from '../helpers/cli.js';
import { openRepo, scratch, writeGenerated } from './helpers.js';

const tmp = scratch();
afterEach(() => tmp.cleanup());

/** The CLI runs keyword-only too (SIGHTLINE_EMBEDDER=none), as the in-process handles do unless asked. */
const cliEnv = (home: string) => ({ SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' });

async function indexed(n = 20, flags = {}) {
  const root = tmp.dir();
  writeGenerated(root, n);
  const home = tmp.dir('sightline-home-');
  const repo = openRepo(root, home, flags);
  await repo.index();
  return { root, home, repo };
}

const failing = (d: ReturnType<typeof doctor>) => Object.fromEntries(d.checks.filter((c) => !c.ok).map((c) => [c.name, c.fix]));

/** Damage the index behind the store's back, as a bug or a bad disk would. */
function damage(dbPath: string, sql: string): void {
  const db = new Database(dbPath);
  db.pragma('foreign_keys = OFF');
  db.exec(sql);
  db.close();
}

describe('doctor', () => {
  it('a sound index passes every check, and the CLI exits 0', async () => {
    const { root, home, repo } = await indexed();
    const d = doctor(repo);
    expect(d.healthy).toBe(true);
    expect(d.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['schema version', 'integrity', 'duplicate paths', 'orphan chunks', 'orphan symbols', 'orphan terms', 'unsearchable chunks', 'files without chunks', 'orphan vectors', 'vector coverage', 'last index pass']),
    );
    repo.close();
    const r = runCli(['doctor', '--repo', root, '--json'], cliEnv(home));
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', healthy: true });
  });

  it('finds a path stored twice, orphans, unsearchable chunks and files missing chunks, suggests a rebuild, and the rebuild cures them', async () => {
    const { root, home, repo } = await indexed();
    damage(
      repo.dbPath,
      `INSERT INTO chunks(file_id, ord, start_line, end_line, breadcrumb, text_at, text_length, tokens) VALUES (999999, 0, 1, 1, 'gone', 0, 4, 1);
       INSERT INTO symbols(file_id, name, name_lc, name_key, qualified, kind, signature, start_line, end_line) VALUES (999999, 'g', 'g', 'g', 'g', 'function', '', 1, 1);
       INSERT INTO chunks_fts(rowid, path, symbols, body) VALUES (888888, 'x', 'x', 'x');
       DELETE FROM chunks_fts WHERE rowid = (SELECT min(id) FROM chunks);
       DELETE FROM chunks WHERE id = (SELECT max(id) FROM chunks WHERE file_id < 999999);
       INSERT INTO files(path, path_key, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens)
         SELECT path, path_key, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, 0 FROM files ORDER BY id DESC LIMIT 1;`,
    );
    expect(failing(doctor(repo))).toEqual({
      'duplicate paths': 'sightline index --force',
      'orphan chunks': 'sightline index --force',
      'orphan symbols': 'sightline index --force',
      'orphan terms': 'sightline index --force',
      'unsearchable chunks': 'sightline index --force',
      'files without chunks': 'sightline index --force',
    });
    repo.close();
    const r = runCli(['doctor', '--repo', root], cliEnv(home));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/FAIL\s+orphan chunks\s+1 chunks without a file/);
    expect(r.stdout).toContain('fix: sightline index --force');
    expect(runCli(['index', root, '--force'], cliEnv(home)).code).toBe(0);
    expect(runCli(['doctor', '--repo', root], cliEnv(home)).code).toBe(0);
  });

  it('no index, an interrupted pass, missing vectors, a newer schema, a corrupt file: each named, each with its fix', async () => {
    const root = tmp.dir();
    writeGenerated(root, 3);
    const home = tmp.dir('sightline-home-');
    expect(failing(doctor(openRepo(root, home)))).toEqual({ index: 'sightline index' });

    const { repo } = await indexed(5, { embedder: 'builtin' });
    // A pass whose process died: a running record under no live lease.
    damage(repo.dbPath, `UPDATE index_job SET status = 'running', phase = 'writing', pid = 4194999, host = '${os.hostname()}'`);
    expect(failing(doctor(repo))).toEqual({ 'last index pass': 'sightline index' });
    expect(doctor(repo).checks.find((c) => c.name === 'last index pass')!.detail).toMatch(/interrupted: pid 4194999 .* during writing/);
    await repo.index();

    damage(repo.dbPath, 'DELETE FROM vectors WHERE chunk_id = (SELECT min(id) FROM chunks)');
    expect(failing(doctor(repo))).toEqual({ 'vector coverage': 'sightline index' });
    const keywordOnly = openRepo(repo.root, repo.config.home);
    expect(failing(doctor(keywordOnly))).toEqual({}); // keyword-only: nothing is pending
    keywordOnly.close();
    await repo.index();
    expect(doctor(repo).healthy).toBe(true);

    damage(repo.dbPath, "UPDATE meta SET value = '9999' WHERE key = 'schema_version'");
    expect(doctor(repo).checks).toEqual([expect.objectContaining({ name: 'schema version', ok: false, fix: 'sightline index --force', detail: expect.stringMatching(/newer/) })]);
    repo.close();

    fs.writeFileSync(repo.dbPath, 'not a database at all; '.repeat(500));
    for (const suffix of ['-wal', '-shm']) fs.rmSync(repo.dbPath + suffix, { force: true });
    expect(failing(doctor(repo))).toEqual({ integrity: 'sightline index --force' });
  });
});

describe('reset', () => {
  it('drops the index in place: a handle that has it open keeps working and rebuilds it on its next pass', async () => {
    const { root, home, repo } = await indexed(30);
    const other = openRepo(root, home);
    const r = await reset(other);
    expect(r).toMatchObject({ existed: true, dropped: { files: 30 } });
    expect(fs.existsSync(repo.dbPath)).toBe(true);
    expect(repo.store.counts()).toMatchObject({ files: 0, chunks: 0, symbols: 0 });
    expect(repo.hasIndex()).toBe(false);
    expect(jobStatus(repo).status).toBe('none');
    expect(doctor(repo).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['last index pass']);
    const s = await repo.index();
    expect(s.added).toBe(30);
    expect(search(repo, { query: 'fn_7_1_v1' }).results[0]?.path).toMatch(/file7\.ts$/);
    other.close();
    repo.close();
  });

  it('CLI: --json says what it dropped; no index is fine; an unreadable file is moved aside', async () => {
    const { root, home, repo } = await indexed(10);
    repo.close();
    const r = runCli(['reset', '--repo', root, '--json'], { SIGHTLINE_HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', existed: true, dropped: { files: 10 } });
    const status = JSON.parse(runCli(['status', '--repo', root, '--json'], { SIGHTLINE_HOME: home }).stdout);
    expect(status.job.status).toBe('none');

    const fresh = tmp.dir('sightline-home-');
    expect(JSON.parse(runCli(['reset', '--repo', root, '--json'], { SIGHTLINE_HOME: fresh }).stdout)).toMatchObject({ existed: false });

    fs.writeFileSync(repo.dbPath, 'garbage '.repeat(1000));
    const gone = runCli(['reset', '--repo', root], { SIGHTLINE_HOME: home });
    expect(gone.code).toBe(0);
    expect(gone.stdout).toMatch(/^the index was damaged \(.*\); it was moved to .*index\.db\.damaged and a new one begun/);
    expect(fs.readFileSync(`${repo.dbPath}.damaged`, 'utf8')).toMatch(/^garbage /);
  });
});
