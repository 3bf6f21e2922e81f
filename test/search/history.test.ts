/** The history signal: commits reachable from HEAD lend their words to the files they touched, and nothing else does. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { indexHistory } from '../../src/index/history.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

const cleanup: string[] = [];
afterEach(() => {
  while (cleanup.length) removeDir(cleanup.pop()!);
});

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A git repository with two unrelated modules, committed once. */
function gitRepo(): string {
  const root = makeRepo({
    'src/alpha.ts': 'export function alpha(input: string) {\n  return input.trim();\n}\n',
    'src/beta.ts': 'export function beta(items: number[]) {\n  return items.length;\n}\n',
  });
  cleanup.push(root);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Initial import');
  return root;
}

/** Appends to `file` (made when missing) and commits it. */
function commitTouching(root: string, file: string, message: string): void {
  fs.appendFileSync(path.join(root, file), '// touched\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

function open(root: string): Repo {
  const home = tempDir('sightline-home-');
  cleanup.push(home);
  return Repo.open(root, { flags: { home, embedder: 'none' }, env: {} });
}

const files = (repo: Repo, query: string) => search(repo, { query, files: true, k: 10, force: true }).results;

describe('history', () => {
  it('a commit that touched a file lends it the words of its message', async () => {
    const root = gitRepo();
    commitTouching(root, 'src/beta.ts', 'Fix frobnication overflow in the widget counter');
    const repo = open(root);
    await repo.index();
    const results = files(repo, 'Widget counter overflows after frobnication');
    expect(results[0]!.path).toBe('src/beta.ts');
    expect(results[0]!.reasons).toContain('history:1');
    expect(results.map((r) => r.path)).not.toContain('src/alpha.ts');
    repo.close();
  });

  it('reads nothing past HEAD, and forgets commits HEAD no longer reaches', async () => {
    const root = gitRepo();
    commitTouching(root, 'src/beta.ts', 'Teach zanzibar quokkas to count');
    const repo = open(root);
    await repo.index();
    expect(files(repo, 'zanzibar quokkas')[0]?.path).toBe('src/beta.ts');

    git(root, 'reset', '-q', '--hard', 'HEAD~1'); // the commit still exists, but HEAD does not reach it
    await repo.index();
    expect(files(repo, 'zanzibar quokkas')).toEqual([]);
    repo.close();

    // A fresh index of the same state never sees it either.
    const fresh = open(root);
    await fresh.index();
    expect(files(fresh, 'zanzibar quokkas')).toEqual([]);
    fresh.close();
  });

  it('indexes only new commits on the next pass', async () => {
    const root = gitRepo();
    const repo = open(root);
    await repo.index();
    commitTouching(root, 'src/alpha.ts', 'Support marmalade separators');
    await repo.index();
    expect(repo.store.history.stored().size).toBe(2);
    expect(files(repo, 'marmalade separators')[0]!.path).toBe('src/alpha.ts');
    repo.close();
  });

  it('after a reset forgets commits, BM25 over the messages scores as a fresh index of the same history does', async () => {
    const root = gitRepo();
    const words = ['quokka', 'marmalade', 'zanzibar', 'widget', 'counter', 'overflow'];
    for (let i = 0; i < 12; i++) commitTouching(root, i % 2 ? 'src/alpha.ts' : 'src/beta.ts', `Teach the ${words[i % 6]} ${words[(i + 1) % 6]} to count ${i}`);
    const repo = open(root);
    await repo.index();
    expect(repo.store.history.statsDrift()).toBe(0);

    git(root, 'reset', '-q', '--hard', 'HEAD~6'); // half the commits forgotten: past the drift a deletion alone would leave
    await repo.index();
    expect(repo.store.history.stored().size).toBe(7);
    expect(repo.store.history.statsDrift()).toBe(0);
    const scores = (r: Repo) => r.store.history.lexical(['quokka', 'zanzibar'], 20).map((h) => h.score.toFixed(9)).sort();
    const fresh = open(root);
    await fresh.index();
    expect(scores(repo)).toEqual(scores(fresh));
    expect(scores(repo)).toHaveLength(4); // the four of the seven that name either word
    repo.close();
    fresh.close();
  });

  it('a first read stores what reading one commit at a time does; below the top level, only the commits in that directory', async () => {
    const root = gitRepo();
    const sub = path.join(root, 'src');
    const stepwise = open(sub);
    await stepwise.index();
    for (let i = 0; i < 3; i++) {
      commitTouching(root, 'README.md', `Document step ${i}`);
      commitTouching(root, i % 2 ? 'src/alpha.ts' : 'src/beta.ts', `Step ${i}`);
      await stepwise.index();
    }
    const first = open(sub);
    await first.index();
    const shape = (r: Repo) => {
      const stored = r.store.history.stored();
      const files = r.store.history.filesOf([...stored.values()]);
      return [...stored].map(([hash, id]) => `${hash} ${files.get(id)?.paths.sort().join(',')}`).sort();
    };
    expect(shape(first)).toEqual(shape(stepwise));
    // The initial import and the three steps, not the README's commits; paths relative to src/.
    expect(shape(first).map((s) => s.split(' ')[1]).sort()).toEqual(['alpha.ts', 'alpha.ts,beta.ts', 'beta.ts', 'beta.ts']);
    stepwise.close();
    first.close();
  });

  it('a first read that git fails records nothing, so the next pass reads the history', async () => {
    const root = gitRepo();
    commitTouching(root, 'src/beta.ts', 'Teach the quokka ledger to balance');
    const repo = open(root);
    await repo.index();
    repo.store.transaction(() => repo.store.history.clear());
    repo.store.setMeta('history_head', ''); // as before a first read
    const searchPath = process.env.PATH;
    process.env.PATH = ''; // no git to run; HEAD is still read from git's files
    try {
      expect(await indexHistory(root, repo.store)).toBeNull();
    } finally {
      process.env.PATH = searchPath;
    }
    expect(repo.store.history.stored().size).toBe(0);
    expect(repo.store.getMeta('history_head')).toBe('');
    await repo.index();
    expect(repo.store.history.stored().size).toBe(2);
    expect(files(repo, 'quokka ledger')[0]?.path).toBe('src/beta.ts');
    repo.close();
  });

  it('a directory without git ranks on its content alone', async () => {
    const root = makeRepo({ 'src/gamma.ts': 'export function gammaRay() {\n  return 1;\n}\n' });
    cleanup.push(root);
    const repo = open(root);
    await repo.index();
    expect(repo.store.history.stored().size).toBe(0);
    expect(files(repo, 'gamma ray')[0]!.path).toBe('src/gamma.ts');
    repo.close();
  });
});
