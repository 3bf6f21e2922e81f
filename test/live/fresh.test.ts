/**
 * Answers stay true after the agent's own edits: a file that changed since it
 * was indexed is indexed again before it is cited, so `read`, `search`,
 * `locate` and `context` never lay an old line range over new text — over
 * MCP with and without the watcher, and on the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeFiles } from '../helpers/fixture.js';
import { call, connectStdio, waitForIndex } from '../mcp/harness.js';
import { scratch } from './helpers.js';

const tmp = scratch();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  tmp.cleanup();
});

const SOURCE = [
  '// helpers for lists',
  'export function alpha(x: number): number {',
  '  return x + 1;',
  '}',
  '',
  'export function joinUpper(items: string[]): string {',
  '  const joined = items.join(",");',
  '  return joined.toUpperCase();',
  '}',
  '',
].join('\n');
const INSERTED = '// one\n// two\n// three\n';
const TARGET_LINES = { start_line: 9, end_line: 12 }; // joinUpper after the three inserted lines
const NEW_END = { end_line: 12 }; // a search hit's chunk (this small file is one) ends where the new text does

function repo(): { root: string; home: string } {
  const root = tmp.dir();
  writeFiles(root, { 'src/lists.ts': SOURCE, 'src/other.ts': 'export const other = alpha(1);\n' });
  return { root, home: tmp.dir('sightline-home-') };
}

const edit = (root: string) => fs.writeFileSync(path.join(root, 'src/lists.ts'), INSERTED + SOURCE);

async function served(root: string, home: string, args: string[]) {
  const conn = await connectStdio(['--repo', root, '--embedder', 'none', ...args], { SIGHTLINE_HOME: home });
  closers.push(() => conn.close());
  await call(conn.client, 'locate', { query: 'alpha' }); // without a watcher, the first query starts the first index
  await waitForIndex(conn.client);
  return conn;
}

describe('answers after an edit', () => {
  for (const watching of [false, true]) {
    it(`read, locate and search cite the edited file's new lines (${watching ? 'watching' : '--no-watch'})`, async () => {
      const { root, home } = repo();
      const conn = await served(root, home, watching ? [] : ['--no-watch']);
      const before = await call(conn.client, 'read', { target: 'joinUpper' });
      expect(before).toMatchObject({ start_line: 6, end_line: 9, citation_status: 'verified' });
      edit(root);
      const read = await call(conn.client, 'read', { target: 'joinUpper' });
      expect(read).toMatchObject({ ...TARGET_LINES, citation_status: 'verified' });
      expect(read.content.split('\n')[0]).toBe('export function joinUpper(items: string[]): string {');
      expect(read.content.trimEnd().endsWith('}')).toBe(true);
      const located = await call(conn.client, 'locate', { query: 'joinUpper', kind: 'definition' });
      expect(located.results[0]).toMatchObject({ path: 'src/lists.ts', start_line: 9, citation_status: 'verified' });
      const found = await call(conn.client, 'search', { query: 'joined toUpperCase', mode: 'keyword' });
      expect(found.results[0]).toMatchObject({ path: 'src/lists.ts', ...NEW_END, citation_status: 'verified' });
    });
  }

  it('a file deleted since indexing is dropped from answers, not cited', async () => {
    const { root, home } = repo();
    const conn = await served(root, home, ['--no-watch']);
    expect((await call(conn.client, 'locate', { query: 'alpha', kind: 'definition' })).results[0].path).toBe('src/lists.ts');
    fs.rmSync(path.join(root, 'src/lists.ts'));
    const after = await call(conn.client, 'locate', { query: 'alpha', kind: 'definition' });
    expect(after.results.map((r: { path: string }) => r.path)).not.toContain('src/lists.ts');
  });

  it('context packs the edited file from its new text', async () => {
    const { root, home } = repo();
    const conn = await served(root, home, ['--no-watch']);
    edit(root);
    const bundle = await call(conn.client, 'context', { task: 'joinUpper joined toUpperCase', detail: 'slices', budget_tokens: 2000 });
    const entry = bundle.entries.find((e: { path: string }) => e.path === 'src/lists.ts');
    expect(entry.citation_status).toBe('verified');
    const unit = entry.units.find((u: { symbol?: string }) => u.symbol === 'joinUpper');
    expect(unit.lines[1]).toBe(NEW_END.end_line);
    expect(entry.content).toContain('// three');
  });

  it('the CLI re-indexes an edited file before it answers', () => {
    const { root, home } = repo();
    const env = { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none' };
    expect(runCli(['index', root], env).code).toBe(0);
    edit(root);
    const read = runCli(['read', 'joinUpper', '--repo', root, '--json'], env);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ ...TARGET_LINES, citation_status: 'verified' });
    const found = runCli(['search', 'joined toUpperCase', '--repo', root, '--mode', 'keyword', '--json'], env);
    expect(JSON.parse(found.stdout).results[0]).toMatchObject({ path: 'src/lists.ts', ...NEW_END, citation_status: 'verified' });
  });
});
