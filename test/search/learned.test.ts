/** The learned file ranker: its features, its two stages, the shipped model, and co-change read from a real git history. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { ask, firstFeatures, kindOf, rankCandidates, shippedRanker, withNearness, type Candidate, type RankerModel } from '../../src/search/index.js';
import { parseRanker, parseRankers, secondFeatures } from '../../src/search/learned.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

function candidate(path: string, signals: Partial<Candidate> = {}): Candidate {
  return { path, demoted: false, content: 0, top: 0, hitCount: 0, history: 0, definition: 0, mention: 0, name: 0, semantic: 0, ...signals };
}

/** Content alone, and stage two's weights as given. */
function model(second: Partial<RankerModel['second']['weights']> = {}, pool = 10, seeds = 1): RankerModel {
  return {
    first: { weights: { content: 1, top: 0, hits: 0, contentRank: 0, history: 0, definition: 0, mention: 0, name: 0, semantic: 0 }, demote: 0.1 },
    second: { pool, seeds, weights: { cochange: 0, sibling: 0, pair: 0, ...second } },
  };
}

const none = () => new Map<string, Set<number>>();
const order = (ranked: { candidate: Candidate }[]) => ranked.map((r) => r.candidate.path);

describe('stage one', () => {
  it('divides content, best chunk and history by their best, fades content ranks, caps the absolute signals at 1', () => {
    const [a, b, c] = firstFeatures([
      candidate('a.ts', { content: 8, top: 4, hitCount: 3, history: 2, definition: 3 }),
      candidate('b.ts', { content: 2, top: 2, hitCount: 1, mention: 0.5 }),
      candidate('c.ts', { semantic: 0.4 }),
    ]);
    expect(a).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0]);
    expect(b![0]).toBeCloseTo(0.25);
    expect(b![1]).toBeCloseTo(0.5);
    expect(b![2]).toBeCloseTo(Math.log1p(1) / Math.log1p(3));
    expect(b![3]).toBeCloseTo(1 / 1.2); // second by content
    expect(b![6]).toBe(0.5);
    expect(c).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0.4]); // no content: no content rank
  });

  it('demotes files whose role is not the code by the model\'s factor', () => {
    const ranked = rankCandidates([candidate('test/a.test.ts', { content: 10, demoted: true }), candidate('src/a.ts', { content: 2 })], model(), none);
    expect(order(ranked)).toEqual(['src/a.ts', 'test/a.test.ts']);
  });

  it('scales nearness by the config knob, and 0 ignores it', () => {
    const near = { ...model(), first: { ...model().first, weights: { ...model().first.weights, semantic: 1 } } };
    const files = [candidate('a.ts', { content: 10 }), candidate('b.ts', { content: 8, semantic: 1 })];
    expect(order(rankCandidates(files, near, none))[0]).toBe('b.ts');
    expect(order(rankCandidates(files, withNearness(near, 0), none))[0]).toBe('a.ts');
  });
});

describe('stage two', () => {
  const files = [candidate('src/core/parser.ts', { content: 10 }), candidate('src/util/log.ts', { content: 6 }), candidate('src/core/lexer.ts', { content: 5 }), candidate('src/core/parser.d.ts', { content: 4 })];

  it('credits the files that changed with a seed, by the share of its commits that touched them', () => {
    const commits = new Map([
      ['src/core/parser.ts', new Set([1, 2, 3, 4])],
      ['src/core/lexer.ts', new Set([1, 2, 3])],
      ['src/util/log.ts', new Set([9])],
    ]);
    const [, log, lexer, decl] = secondFeatures(files, [10, 6, 5, 4], 1, () => commits);
    expect(lexer![0]).toBeCloseTo(0.75);
    expect(log![0]).toBe(0);
    expect(decl![0]).toBe(0); // no commits at all
    expect(order(rankCandidates(files, model({ cochange: 0.5 }), () => commits)).slice(0, 2)).toEqual(['src/core/parser.ts', 'src/core/lexer.ts']);
    expect(order(rankCandidates(files, model(), () => commits)).slice(0, 2)).toEqual(['src/core/parser.ts', 'src/util/log.ts']);
  });

  it('marks siblings (same folder and extension) and the other half of a module (same stem)', () => {
    const [parser, log, lexer, decl] = secondFeatures(files, [10, 6, 5, 4], 1, none);
    expect([parser![1], log![1], lexer![1], decl![1]]).toEqual([0, 0, 1, 1]); // .d.ts ends in .ts too
    expect([parser![2], log![2], lexer![2], decl![2]]).toEqual([0, 0, 0, 1]);
    expect(order(rankCandidates(files, model({ pair: 0.5 }), none)).slice(0, 2)).toEqual(['src/core/parser.ts', 'src/core/parser.d.ts']);
  });

  it('lends by the seed\'s share of the best first-stage score, and re-ranks only the pool', () => {
    const [, second] = secondFeatures([candidate('a/x.ts'), candidate('a/y.ts'), candidate('a/z.ts')], [10, 5, 1], 2, none);
    expect(second![1]).toBe(1); // sibling of the first seed, whose share is 1 (its own seed share is skipped)
    const many = [candidate('src/a.ts', { content: 10 }), candidate('lib/b.ts', { content: 9 }), candidate('src/c.ts', { content: 1 })];
    expect(order(rankCandidates(many, model({ sibling: 0.85 }, 2), none))).toEqual(['src/a.ts', 'lib/b.ts', 'src/c.ts']); // c is outside the pool of 2
    expect(order(rankCandidates(many, model({ sibling: 0.85 }, 3), none))).toEqual(['src/a.ts', 'src/c.ts', 'lib/b.ts']);
  });
});

describe('the shipped models', () => {
  it('load from models/ranker.json, one per kind of query, with every weight a number', () => {
    for (const kind of ['question', 'issue'] as const) {
      const m = shippedRanker(kind);
      for (const w of [...Object.values(m.first.weights), ...Object.values(m.second.weights), m.first.demote]) expect(Number.isFinite(w)).toBe(true);
      expect(m.second.pool).toBeGreaterThan(0);
    }
  });

  it('refuses a model file with a missing or non-numeric weight, naming it', () => {
    const good = JSON.parse(JSON.stringify(shippedRanker('issue'))) as RankerModel;
    expect(parseRanker(good, 'x.json')).toEqual(good);
    expect(() => parseRanker({ ...good, first: { ...good.first, demote: 'low' } }, 'x.json')).toThrow(/x.json .*first.demote must be a number/);
    const { cochange: _, ...rest } = good.second.weights;
    expect(() => parseRanker({ ...good, second: { ...good.second, weights: rest } }, 'x.json')).toThrow(/second.weights.cochange/);
    expect(() => parseRanker({ ...good, second: { ...good.second, pool: 2.5 } }, 'x.json')).toThrow(/second.pool must be a whole number/);
    expect(() => parseRankers({ issue: good }, 'x.json')).toThrow(/x.json \(question\) .*needs first.weights/);
  });

  it('ranks a one-line question with the question model and a whole issue with the issue model', () => {
    expect(kindOf(ask('where are files walked'))).toBe('question');
    expect(kindOf(ask('Crash on start\n\nIt fails when the config is empty.'))).toBe('issue');
  });
});

describe('co-change from the index', () => {
  const cleanup: string[] = [];
  afterEach(() => {
    while (cleanup.length) removeDir(cleanup.pop()!);
  });

  it('lists the stored commits that touched each path', async () => {
    const root = makeRepo({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n', 'c.ts': 'export const c = 1;\n' });
    const home = tempDir('sightline-home-');
    cleanup.push(root, home);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    for (const [files, message] of [[['a.ts', 'b.ts'], 'one'], [['a.ts', 'b.ts'], 'two'], [['c.ts'], 'three']] as const) {
      for (const f of files) fs.appendFileSync(path.join(root, f), '// more\n');
      git('commit', '-q', '-am', message);
    }
    const repo = Repo.open(root, { flags: { home, embedder: 'none' }, env: {} });
    await repo.index();
    const touching = repo.store.history.commitsTouching(['a.ts', 'b.ts', 'c.ts', 'missing.ts']);
    repo.close();
    expect(touching.get('a.ts')!.size).toBe(3);
    expect([...touching.get('b.ts')!].sort()).toEqual([...touching.get('a.ts')!].sort());
    expect(touching.get('c.ts')!.size).toBe(2);
    expect([...touching.get('c.ts')!].filter((id) => touching.get('a.ts')!.has(id))).toHaveLength(1); // only the first commit
    expect(touching.has('missing.ts')).toBe(false);
  });
});
