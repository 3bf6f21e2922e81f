/** The corpus miner's pure parts (bench/corpus): message parsing, noise filters, gold files, the split, and a real git history. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMinable, ExcludedRepositoryError } from '../../bench/corpus/exclusions.js';
import { firstParentHistory, textHeads, type LoggedCommit } from '../../bench/corpus/git.js';
import { isSourcePath, repoLanguage, selectGold, withoutGenerated } from '../../bench/corpus/gold.js';
import { issueRefs, noiseReason, parseMessage, queryOf, stripTrailers } from '../../bench/corpus/message.js';
import { finish, screen, type Candidate } from '../../bench/corpus/pairs.js';
import { fnv1a32, samplePairs, splitOf } from '../../bench/corpus/split.js';
import { loadRecords } from '../../bench/quality/records.js';

const MINE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/bench/corpus/mine.js');

describe('issue references', () => {
  it('finds #N, fixes #N, squash (#N), GH-N, cross-repository and link references, once each', () => {
    expect(issueRefs('Fix parser crash (#123)')).toEqual(['123']);
    expect(issueRefs('Handle empty input\n\nfixes #45, closes #46 and #45 again')).toEqual(['45', '46']);
    expect(issueRefs('See GH-7 and owner/repo#8')).toEqual(['7', '8']);
    expect(issueRefs('Per https://github.com/a/b/issues/99 and https://github.com/a/b/pull/100')).toEqual(['99', '100']);
  });

  it('does not take HTML entities, colours or words for references', () => {
    expect(issueRefs('Escape &#123; in output')).toEqual([]);
    expect(issueRefs('Set colour to #123abc')).toEqual([]);
    expect(issueRefs('Use C# interop and issue number one')).toEqual([]);
  });
});

describe('message parsing', () => {
  it('strips attribution trailers, squash separators and [skip ci], keeping the text', () => {
    const body = 'Make the cache key stable [skip ci]\n\n---------\n\nSigned-off-by: A <a@x>\nCo-authored-by: B <b@x>\nReviewed-by: C';
    expect(stripTrailers(body)).toBe('Make the cache key stable');
  });

  it('takes a pull request merge title from its body, not the merge boilerplate', () => {
    const p = parseMessage('Merge pull request #12 from someone/fix-walk\n\nFix the walker on symlinked folders\n\nIt looped.');
    expect(p).toMatchObject({ shape: 'pr-merge', title: 'Fix the walker on symlinked folders', body: 'It looped.', refs: ['12'] });
  });

  it('drops a reference that leads the title', () => {
    expect(parseMessage('[jOOQ/jOOQ#17778] Missing trigger meta data').title).toBe('Missing trigger meta data');
    expect(parseMessage('Issue #6294: Refactor the indentation check').title).toBe('Refactor the indentation check');
    expect(parseMessage('GH-12: Handle empty frames').title).toBe('Handle empty frames');
    expect(parseMessage('#40 allow nested groups').title).toBe('allow nested groups');
    expect(parseMessage('Fix #40: allow nested groups').title).toBe('Fix #40: allow nested groups');
  });

  it('reads homu and bors merges', () => {
    expect(parseMessage('Auto merge of #5 - u:b, r=x\n\nSpeed up hashing of keys').title).toBe('Speed up hashing of keys');
    expect(parseMessage('Merge #7\n\n7: Avoid a panic on empty frames r=alice a=bob\n\nDetails.').title).toBe('Avoid a panic on empty frames');
  });

  it("drops a squash title's own reference from the query", () => {
    const p = parseMessage('Support pathlib.Path in edit (#3781)\n\nCloses #3700\n\nSigned-off-by: X <x@y>');
    expect(queryOf(p)).toBe('Support pathlib.Path in edit\n\nCloses #3700');
    expect(p.refs).toEqual(['3781', '3700']);
  });
});

describe('noise filters', () => {
  const noise = (message: string, author = 'Dev <dev@x>') => noiseReason(parseMessage(message), author);
  it('names version bumps, releases, formatting sweeps, reverts, bots and branch merges', () => {
    expect(noise('chore(deps): bump lodash from 4.17.20 to 4.17.21 (#9)')).toBe('version-bump');
    expect(noise('Update golang.org/x/net to v0.7.0 (#9)')).toBe('version-bump');
    expect(noise('Release 2.3.0 (#9)')).toBe('release');
    expect(noise('v1.4.2 (#9)')).toBe('release');
    expect(noise('Pre-8.5.0 release changelog and doc fixes (#9)')).toBe('release');
    expect(noise('Reformat with black (#9)')).toBe('formatting');
    expect(noise('style: run prettier (#9)')).toBe('formatting');
    expect(noise('Fix typos in docs (#9)')).toBe('formatting');
    expect(noise('Revert "Add cache" (#9)')).toBe('revert');
    expect(noise('Add cache (#9)', 'dependabot[bot] <x@y>')).toBe('bot');
    expect(noise("Merge branch 'main' into dev")).toBe('branch-merge');
  });

  it('keeps ordinary fixes, formatting bugs included', () => {
    expect(noise('Fix date formatting for negative years (#9)')).toBeNull();
    expect(noise('Add a --version flag to the CLI (#9)')).toBeNull();
  });
});

describe('gold files', () => {
  it('keeps modified and deleted non-test source files, never tests, docs, config, locks, vendored or added files', () => {
    const gold = selectGold([
      { status: 'M', path: 'src/app/core.py' },
      { status: 'D', path: 'src/app/old.py' },
      { status: 'A', path: 'src/app/new.py' },
      { status: 'M', path: 'tests/test_core.py' },
      { status: 'M', path: 'src/core_test.go' },
      { status: 'M', path: 'docs/index.md' },
      { status: 'M', path: 'package-lock.json' },
      { status: 'M', path: 'vendor/github.com/x/y.go' },
      { status: 'M', path: 'pkg/testdata/case.go' },
      { status: 'M', path: 'web/app.min.js' },
    ]);
    expect(gold).toEqual({ sourceChanged: 3, candidates: ['src/app/core.py', 'src/app/old.py'] });
  });

  it('drops files whose text says they are generated', () => {
    const texts: Record<string, string> = { 'a.go': '// Code generated by stringer. DO NOT EDIT.\npackage a\n', 'b.go': 'package b\n' };
    expect(withoutGenerated(['a.go', 'b.go'], (p) => texts[p] ?? '')).toEqual(['b.go']);
    expect(isSourcePath('src/Main.java')).toBe(true);
    expect(isSourcePath('src/test/java/MainTest.java')).toBe(false);
  });

  it("takes a repository's language from most of its source files", () => {
    expect(repoLanguage(['a.ts', 'b.tsx', 'c.js', 'README.md', 'test/x.ts'])).toBe('typescript');
    expect(repoLanguage(['docs/a.md'])).toBe('unknown');
  });
});

describe('screening commits', () => {
  const commit = (message: string, paths: string[], parents = ['p1']): LoggedCommit => ({
    sha: 'c'.repeat(40), parents, author: 'Dev <dev@x>', message, changes: paths.map((p) => ({ status: 'M', path: p })),
  });
  it('names why a commit is not a pair', () => {
    expect(screen(commit('Fix the walker on symlinks', ['src/walk.ts']))).toBe('no-ref');
    expect(screen(commit('Fix it (#1)', ['src/walk.ts']))).toBe('short-query');
    expect(screen(commit('Fix the walker on symlinks (#1)', ['README.md']))).toBe('no-gold');
    const many = Array.from({ length: 11 }, (_, i) => `src/m${i}.ts`);
    expect(screen(commit('Rename the options across modules (#1)', many))).toBe('too-many-files');
    expect(screen(commit('Fix the walker on symlinks (#1)', ['src/walk.ts'], []))).toBe('root');
  });

  it('makes a pair whose checkout is the first parent', () => {
    const c = screen(commit('Fix the walker on symlinks (#1)', ['src/walk.ts', 'test/walk.test.ts'], ['p1', 'p2'])) as Candidate;
    const pair = finish(c, { repo: 'o/r', language: 'typescript', split: 'train' }, () => 'export {};\n');
    expect(pair).toMatchObject({ id: 'o__r-cccccccccccc', parent: 'p1', query: 'Fix the walker on symlinks', gold_files: ['src/walk.ts'] });
  });
});

describe('the split', () => {
  it('is a fixed function of the lower-cased name: FNV-1a, validation when divisible by 3', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(splitOf('Pallets/Click')).toBe(splitOf('pallets/click'));
    // Pinned as bench/corpus/manifest.tsv records them: a changed hash would move repositories between splits.
    expect(['pallets/click', 'encode/httpx', 'spf13/cobra', 'gin-gonic/gin'].map(splitOf)).toEqual(['train', 'validation', 'validation', 'train']);
    const names = Array.from({ length: 300 }, (_, i) => `owner${i}/repo${i}`);
    const validation = names.filter((n) => splitOf(n) === 'validation').length;
    expect(validation).toBeGreaterThan(70);
    expect(validation).toBeLessThan(130);
  });

  it('samples per repository of one split by id hash, the same pairs whatever their order, kept in file order', () => {
    const pairs = ['a/x', 'b/y'].flatMap((repo, r) =>
      Array.from({ length: 30 }, (_, i) => ({ id: `${repo}-${i}`, repo, split: r === 0 ? 'validation' : 'train' })),
    );
    const sample = samplePairs(pairs, 'validation', 5);
    expect(sample).toHaveLength(5);
    expect(sample.every((p) => p.repo === 'a/x')).toBe(true);
    expect(samplePairs([...pairs].reverse(), 'validation', 5)).toEqual([...sample].reverse());
    expect(sample.map((p) => pairs.indexOf(p))).toEqual(sample.map((p) => pairs.indexOf(p)).sort((a, b) => a - b));
    const hashes = sample.map((p) => fnv1a32(p.id));
    const rest = pairs.filter((p) => p.repo === 'a/x' && !sample.includes(p)).map((p) => fnv1a32(p.id));
    expect(Math.max(...hashes)).toBeLessThan(Math.min(...rest));
  });

  it('samples each repository\'s newest pairs, the first in the file, with --newest', () => {
    const pairs = Array.from({ length: 30 }, (_, i) => ({ id: `a/x-${i}`, repo: 'a/x', split: 'train' }));
    expect(samplePairs(pairs, 'train', 4, true).map((p) => p.id)).toEqual(['a/x-0', 'a/x-1', 'a/x-2', 'a/x-3']);
  });

  it('refuses the benchmark repositories by name', () => {
    expect(() => assertMinable('Psf/Requests')).toThrow(ExcludedRepositoryError);
    expect(() => assertMinable('django/django')).toThrow(/never mined/);
    expect(() => assertMinable('pallets/click')).not.toThrow();
  });
});

describe('a real git history', () => {
  let dir: string;
  const gitIn = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  const commitFiles = (files: Record<string, string>, message: string) => {
    for (const [p, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      fs.writeFileSync(path.join(dir, p), text);
    }
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', message);
    return gitIn('rev-parse', 'HEAD');
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-corpus-'));
    gitIn('init', '-q', '-b', 'main');
    gitIn('config', 'user.name', 'Dev');
    gitIn('config', 'user.email', 'dev@example.com');
    commitFiles({ 'src/walk.py': 'def walk():\n    pass\n' }, 'Initial layout');
    commitFiles({ 'src/walk.py': 'def walk():\n    return []\n', 'tests/test_walk.py': 'x = 1\n' }, 'Return a list from walk (#3)\n\nSigned-off-by: Dev <dev@example.com>');
    gitIn('checkout', '-q', '-b', 'topic');
    commitFiles({ 'src/read.py': 'def read():\n    pass\n', 'src/walk.py': 'def walk():\n    return [1]\n' }, 'Walk yields one');
    gitIn('checkout', '-q', 'main');
    gitIn('merge', '-q', '--no-ff', 'topic', '-m', 'Merge pull request #4 from dev/topic\n\nMake walk yield the root entry');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('walks first parents newest first, a merge diffed against its first parent', async () => {
    const commits: LoggedCommit[] = [];
    for await (const c of firstParentHistory(path.join(dir, '.git'))) commits.push(c);
    expect(commits.map((c) => c.message.split('\n')[0])).toEqual(['Merge pull request #4 from dev/topic', 'Return a list from walk (#3)', 'Initial layout']);
    expect(commits[0]!.changes.map((c) => `${c.status} ${c.path}`).sort()).toEqual(['A src/read.py', 'M src/walk.py']);
    const outcomes = commits.map(screen);
    expect(outcomes[2]).toBe('root');
    const merge = outcomes[0] as Candidate;
    expect(merge.query).toBe('Make walk yield the root entry');
    expect(merge.gold).toEqual(['src/walk.py']);
    expect((outcomes[1] as Candidate).gold).toEqual(['src/walk.py']);
    const heads = textHeads(path.join(dir, '.git'), [`${merge.commit.parents[0]}:src/walk.py`, `${merge.commit.parents[0]}:src/read.py`]);
    expect(heads.get(`${merge.commit.parents[0]}:src/walk.py`)).toBe('def walk():\n    return []\n');
    expect(heads.get(`${merge.commit.parents[0]}:src/read.py`)).toBe('');
  });

  it('mines a mirror into per-repository pairs, pairs.jsonl and a manifest row, and refuses benchmark sources', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-corpus-run-'));
    try {
      execFileSync('git', ['clone', '-q', '--bare', dir, path.join(work, 'mirrors', 'Dev+Tool', 'repo')]);
      const out = path.join(work, 'out');
      const manifest = path.join(work, 'manifest.tsv');
      const args = [MINE, '--out', out, '--repo', 'dev/tool', '--mirrors', path.join(work, 'mirrors'), '--manifest', manifest];
      const mined = spawnSync(process.execPath, args, { encoding: 'utf8' });
      expect(mined.status, mined.stderr).toBe(0);
      const pairs = fs.readFileSync(path.join(out, 'pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(pairs.map((p) => p.query)).toEqual(['Make walk yield the root entry', 'Return a list from walk']);
      expect(pairs[0]).toMatchObject({ repo: 'dev/tool', language: 'python', split: splitOf('dev/tool'), gold_files: ['src/walk.py'] });
      expect(fs.readFileSync(path.join(out, 'pairs', 'dev+tool.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
      const [header, row] = fs.readFileSync(manifest, 'utf8').trim().split('\n');
      expect(header).toBe('repository\tlanguage\tsplit\tcommits_scanned\tpairs_kept\thead_commit');
      expect(row).toBe(`dev/tool\tpython\t${splitOf('dev/tool')}\t3\t2\t${gitIn('rev-parse', 'HEAD')}`);
      expect(JSON.parse(fs.readFileSync(path.join(out, 'stats.json'), 'utf8'))['dev/tool']).toEqual({ root: 1 });
      // The benchmarks over records (bench:quality, bench:budget) read the pairs as they are.
      const records = loadRecords(path.join(out, 'pairs.jsonl'));
      expect(records[0]).toMatchObject({ base_commit: pairs[0].parent, gold_code_files: ['src/walk.py'], query: 'Make walk yield the root entry' });

      const refused = spawnSync(process.execPath, [...args.slice(0, 3), '--repo', 'psf/requests', ...args.slice(5)], { encoding: 'utf8' });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr.trim()).toBe(
        'corpus:mine: ExcludedRepositoryError: psf/requests is a benchmark source (shared/bench/README.md) or named in issue #19: it is never mined',
      );
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
