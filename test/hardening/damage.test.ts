/**
 * Issue 21: a damaged index is named as such (exit 3, one sentence) by every
 * verb, and `index --force` / `reset` recover from any damage: garbled pages,
 * a dropped table, index.db replaced by a directory. Each case damages a real
 * index built by the real CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';

const DAMAGED = 'the index is damaged; `sightline index --force` rebuilds it';

let root: string;
const homes: string[] = [];

beforeAll(() => {
  root = makeRepo(SAMPLE_FILES);
});
afterAll(() => {
  removeDir(root);
  for (const h of homes) removeDir(h);
});

/** A fresh home with a real index of the sample repository (and one memory record); returns the CLI and the index's path. */
function indexed() {
  const home = tempDir('sightline-home-');
  homes.push(home);
  const cli = (...args: string[]) => runCli([...args, '--repo', root], { SIGHTLINE_HOME: home });
  expect(cli('index').code).toBe(0);
  expect(cli('remember', 'auth', '--id', 'ttl', '--title', 'Sessions expire after 1h', '--enable-writes').code).toBe(0);
  const [dir] = fs.readdirSync(home).filter((d) => fs.existsSync(path.join(home, d, 'index.db')));
  return { cli, dbPath: path.join(home, dir!, 'index.db') };
}

/** Every page but the first two overwritten with garbage: the schema's root survives, the rows do not. */
function garblePages(dbPath: string): void {
  const size = fs.statSync(dbPath).size;
  expect(size).toBeGreaterThan(4 * 4096);
  const fd = fs.openSync(dbPath, 'r+');
  fs.writeSync(fd, Buffer.alloc(size - 3 * 4096, 0xa7), 0, size - 3 * 4096, 2 * 4096);
  fs.closeSync(fd);
}

function dropTable(dbPath: string, table: string): void {
  const db = new Database(dbPath);
  db.exec(`DROP TABLE ${table}`);
  db.close();
}

function replaceWithDirectory(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
  fs.mkdirSync(dbPath);
  fs.writeFileSync(path.join(dbPath, 'stray'), 'x');
}

describe('a damaged index', () => {
  it.each([
    ['garbled pages', (p: string) => garblePages(p), 'lost'],
    ['a dropped files table', (p: string) => dropTable(p, 'files'), 'kept'],
    ['a dropped chunks_fts table', (p: string) => dropTable(p, 'chunks_fts'), 'kept'],
    ['index.db replaced by a directory', (p: string) => replaceWithDirectory(p), 'lost'],
  ] as const)('%s: exit 3 with the sentence, then index --force rebuilds it', (_name, damage, memory) => {
    const { cli, dbPath } = indexed();
    damage(dbPath);
    for (const args of [['search', 'session'], ['locate', 'SessionManager'], ['stats']]) {
      const r = cli(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(r.stderr).toContain(DAMAGED);
      expect(r.stderr).not.toMatch(/internal error|not writable/);
    }
    const rebuilt = cli('index', '--force');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain(`it was moved to ${dbPath}.damaged`);
    expect(rebuilt.stderr).toContain(memory === 'kept' ? 'agent memory was kept' : 'agent memory could not be read');
    const found = cli('search', 'session', '--json');
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).results.map((r: { path: string }) => r.path)).toContain('src/auth/session.ts');
    const recalled = cli('recall', 'memory:auth/ttl', '--json');
    expect(recalled.code, recalled.stderr).toBe(0);
    expect(JSON.parse(recalled.stdout).exists).toBe(memory === 'kept');
    expect(fs.statSync(dbPath).isFile()).toBe(true);
  });

  it('reset moves a damaged index aside too, and the next index builds anew', () => {
    const { cli, dbPath } = indexed();
    garblePages(dbPath);
    const r = cli('reset', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ existed: true, dropped: null, recovered: { aside: `${dbPath}.damaged`, memory: 'lost' } });
    expect(cli('index').code).toBe(0);
    expect(cli('search', 'session').code).toBe(0);
  });
});
