/**
 * When the disk refuses: a full disk or a read-only index directory gives a
 * clear error (exit 4 from the CLI) and leaves the index as it was, never torn.
 *
 * Disk full is tested two ways: SQLite's own SQLITE_FULL, raised by capping
 * the database's page count (always runs), and a real full filesystem, a 2 MiB
 * tmpfs (runs where this process may mount one, e.g. as root in a container).
 * Read-only: the directory is chmod 0555 and its files 0444; root ignores
 * permission bits, so as root the directory is also bind-mounted read-only
 * where this process may mount, and otherwise the CLI runs as nobody.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/engine/index.js';
import { SightlineError } from '../../src/errors/index.js';
import { CLI } from '../helpers/cli.js';
import { writeFiles } from '../helpers/fixture.js';
import { openRepo, scratch, writeGenerated } from './helpers.js';

const tmp = scratch();
const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) spawnSync('umount', [m]);
  tmp.cleanup();
});

/** The consistency the crash test demands, in the checks doctor runs: none may find anything. */
function consistent(dbPath: string): Record<string, unknown> {
  const db = new Database(dbPath, { readonly: true });
  const n = (sql: string) => db.prepare(sql).pluck().get();
  const out = {
    integrity: db.pragma('integrity_check', { simple: true }),
    orphanChunks: n('SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)'),
    orphanTerms: n('SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)'),
    unsearchable: n('SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)'),
    partialFiles: n('SELECT count(*) FROM files f WHERE f.tokens <> (SELECT coalesce(sum(tokens), 0) FROM chunks WHERE file_id = f.id)'),
  };
  db.close();
  return out;
}
const CONSISTENT = { integrity: 'ok', orphanChunks: 0, orphanTerms: 0, unsearchable: 0, partialFiles: 0 };

function cli(args: string[], env: NodeJS.ProcessEnv, user?: { uid: number; gid: number }) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 60_000, ...user });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const canMount = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync('/tmp/sightline-mount-probe-');
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status === 0;
  if (ok) spawnSync('umount', [probe]);
  fs.rmSync(probe, { recursive: true, force: true });
  return ok;
})();

describe('disk full', () => {
  it('SQLITE_FULL mid-pass: a clear error, the job failed with it, the index intact, and the next pass completes', async () => {
    const root = tmp.dir();
    writeGenerated(root, 300);
    const repo = openRepo(root, tmp.dir('sightline-home-'));
    const pages = repo.store.db.pragma('page_count', { simple: true }) as number;
    repo.store.db.pragma(`max_page_count = ${pages + 40}`); // room for a batch or two, not for 300 files
    const err = await repo.index().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SightlineError);
    expect((err as SightlineError).code).toBe('io');
    expect((err as SightlineError).message).toMatch(/disk is full/);
    expect(jobStatus(repo)).toMatchObject({ status: 'failed', error: expect.stringMatching(/disk is full/) });
    expect(repo.store.counts().files).toBeLessThan(300);
    expect(consistent(repo.dbPath)).toEqual(CONSISTENT);

    repo.store.db.pragma('max_page_count = 1073741823'); // space again
    const s = await repo.index();
    expect(s.added + s.unchanged).toBe(300);
    expect(repo.store.counts().files).toBe(300);
    expect(consistent(repo.dbPath)).toEqual(CONSISTENT);
    repo.close();
  });

  it.runIf(canMount)('a real full filesystem (2 MiB tmpfs): exit 4 naming the full disk, no torn index, completes once there is room', () => {
    const root = tmp.dir();
    writeGenerated(root, 1_500);
    const home = tmp.dir('sightline-home-');
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', home]).status).toBe(0);
    mounts.push(home);
    const full = cli(['index', root], { SIGHTLINE_HOME: home });
    expect(full.code, full.stderr).toBe(4);
    expect(full.stderr).toMatch(/disk is full/);
    const dbPath = path.join(home, fs.readdirSync(home)[0]!, 'index.db');
    expect(consistent(dbPath)).toEqual(CONSISTENT);

    execFileSync('mount', ['-o', 'remount,size=128m', home]);
    const done = cli(['index', root, '--json'], { SIGHTLINE_HOME: home });
    expect(done.code, done.stderr).toBe(0);
    expect(consistent(dbPath)).toEqual(CONSISTENT);
    const db = new Database(dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1_500);
    db.close();
  });
});

describe('read-only index directory', () => {
  const asRoot = process.getuid?.() === 0;

  /** Makes `dir` read-only to the CLI; returns the user to run it as (nobody, as root without mount). */
  function readOnly(dir: string, files = false): { uid: number; gid: number } | undefined {
    if (files) for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o444);
    fs.chmodSync(dir, 0o555);
    if (!asRoot) return undefined;
    if (!canMount) return { uid: 65534, gid: 65534 };
    execFileSync('mount', ['--bind', dir, dir]);
    mounts.push(dir);
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
    return undefined;
  }

  /** Undoes readOnly(dir). */
  function writable(dir: string): void {
    if (mounts.at(-1) === dir) execFileSync('umount', [mounts.pop()!]);
    fs.chmodSync(dir, 0o755);
  }

  function readOnlySetup() {
    const root = tmp.dir();
    writeGenerated(root, 30);
    const home = tmp.dir('sightline-home-');
    const built = cli(['index', root], { SIGHTLINE_HOME: home });
    expect(built.code, built.stderr).toBe(0);
    const dbDir = path.join(home, fs.readdirSync(home)[0]!);
    const dbPath = path.join(dbDir, 'index.db');
    for (const d of [root, home]) fs.chmodSync(d, 0o755); // readable by the unprivileged user
    const user = readOnly(dbDir, true);
    return { root, home, dbPath, dbDir, user, before: fs.readFileSync(dbPath) };
  }

  function expectRefused(r: { code: number | null; stderr: string }, dbDir: string) {
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr.trim().split('\n')).toEqual([`sightline: the index directory ${dbDir} is not writable (check permissions, or set SIGHTLINE_HOME to a writable directory)`]);
  }

  it('index: exit 4 with one line that names the directory and the fix; the index is untouched', () => {
    const { root, home, dbPath, dbDir, user, before } = readOnlySetup();
    writeFiles(root, { 'pkg0/new.ts': 'export const added = 1;\n' });
    fs.chmodSync(path.join(root, 'pkg0/new.ts'), 0o644);
    expectRefused(cli(['index', root], { SIGHTLINE_HOME: home }, user), dbDir);
    expect(fs.readFileSync(dbPath).equals(before)).toBe(true);
    expect(fs.readdirSync(dbDir)).toEqual(['index.db']);
    writable(dbDir);
    expect(consistent(dbPath)).toEqual(CONSISTENT);
  });

  it('queries and doctor: the same line, exit 4 (SQLite cannot read a WAL index without writing its -shm file beside it)', () => {
    const { root, home, dbPath, dbDir, user, before } = readOnlySetup();
    for (const args of [['search', 'fn_3_1_v1'], ['locate', 'fn_3_1_v1'], ['stats'], ['status'], ['doctor']]) {
      expectRefused(cli([...args, '--repo', root], { SIGHTLINE_HOME: home }, user), dbDir);
    }
    expect(fs.readFileSync(dbPath).equals(before)).toBe(true);
  });

  it('a home that cannot be created: exit 4, the same kind of sentence', () => {
    const root = tmp.dir();
    writeGenerated(root, 3);
    fs.chmodSync(root, 0o755);
    const parent = tmp.dir('sightline-ro-');
    const user = readOnly(parent);
    const r = cli(['index', root, '--json'], { SIGHTLINE_HOME: path.join(parent, 'home') }, user);
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error', error: expect.stringMatching(/not writable/) });
  });
});
