/**
 * The workspace registry in the team database: `sightline workspace` on two
 * machines (two $SIGHTLINE_HOMEs) pointed at one PostgreSQL see the same
 * registered repositories, each indexing them into its own local files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeDir, tempDir, writeFiles } from '../helpers/fixture.js';
import { usePostgres } from '../helpers/use-postgres.js';

const db = usePostgres();
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function machine(): NodeJS.ProcessEnv {
  const home = tempDir('sightline-home-');
  dirs.push(home);
  return { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' };
}

const json = (r: { code: number; stdout: string; stderr: string }) => {
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

it('a repository added on one machine is listed on another with the same store, indexed there locally, and removed for both with its memory', () => {
  const root = tempDir('sightline-ws-');
  dirs.push(root);
  writeFiles(path.join(root, 'svc'), { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
  const [one, two] = [machine(), machine()];
  const ws = ['--workspace', root, '--json'];

  const added = json(runCli(['workspace', 'add', 'svc', ...ws, '--store', db.url], one));
  expect(added).toMatchObject({ repo: 'svc', created: true });

  const seen = json(runCli(['workspace', 'list', ...ws], { ...two, SIGHTLINE_DATABASE_URL: db.url }));
  expect(seen.repos.map((r: { id: string }) => r.id)).toEqual(['svc']);
  // Machine two's own SQLite registry never heard of it: the list came from the database.
  expect(json(runCli(['workspace', 'list', ...ws], two)).repos).toEqual([]);
  expect(fs.readdirSync(two.SIGHTLINE_HOME!).some((d) => d.startsWith('svc-'))).toBe(false);

  json(runCli(['workspace', 'add', 'svc', ...ws, '--store', db.url], two)); // idempotent: indexes it on machine two
  expect(fs.readdirSync(two.SIGHTLINE_HOME!).some((d) => d.startsWith('svc-'))).toBe(true);
  const listed = json(runCli(['workspace', 'list', ...ws, '--store', db.url], two));
  expect(listed.repos[0]).toMatchObject({ id: 'svc', file_count: 2 });

  // Its memory lives in the database (under the folder's name), so remove_repo deletes it there.
  const svc = ['--repo', path.join(root, 'svc'), '--store', db.url, '--json'];
  json(runCli(['remember', 'notes', '--id', 'n1', '--body', 'kept in the team database', '--enable-writes', ...svc], one));
  expect(json(runCli(['recall', 'memory:notes/n1', ...svc], two)).fields.body).toBe('kept in the team database');

  expect(json(runCli(['workspace', 'remove', 'svc', ...ws, '--store', db.url], two))).toMatchObject({ removed: true, memory_deleted: true });
  expect(json(runCli(['workspace', 'list', ...ws, '--store', db.url], one)).repos).toEqual([]);
  expect(json(runCli(['recall', 'memory:notes/n1', ...svc], one))).toMatchObject({ exists: false });
});
