/**
 * BM25 after edits scores as a fresh index of the same tree does: the FTS
 * row count that deleted chunks inflate is reset once it drifts too far.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { doctor, Repo } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { MAX_TERM_STATS_DRIFT } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const dirs: string[] = [];
const repos: Repo[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.close());
  dirs.splice(0).forEach(removeDir);
});

const WORDS = ['parse', 'token', 'stream', 'buffer', 'header', 'socket', 'retry', 'cache', 'render', 'schema'];
function source(i: number, version: number): string {
  const w = (k: number) => WORDS[(i * 3 + k + version) % WORDS.length]!;
  return Array.from({ length: 4 }, (_, f) => `export function ${w(f)}${f}V${version}(input: string): string {\n  return input + '${w(f + 1)} ${w(f + 2)}';\n}\n`).join('\n');
}
const tree = (version: (i: number) => number) => Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/m${i}.ts`, source(i, version(i))]));

async function open(root: string): Promise<Repo> {
  const home = tempDir('sightline-home-');
  dirs.push(home);
  const repo = Repo.open(root, { flags: { home, embedder: 'none', queryCacheSize: 0 }, env: {} });
  repos.push(repo);
  await repo.index();
  return repo;
}

const scores = (repo: Repo) => search(repo, { query: 'parse token stream header', mode: 'keyword', k: 50, force: true }).results.map((r) => `${r.path}:${r.start_line}:${r.score.toFixed(9)}`);

describe('BM25 statistics after edits', () => {
  it('a small edit leaves a small drift; a large one is rewritten, and then every score equals a fresh index of the same tree', async () => {
    const root = makeRepo(tree(() => 0));
    dirs.push(root);
    const live = await open(root);
    expect(live.store.chunks.termStatsDrift()).toBe(0);

    writeFiles(root, { 'src/m0.ts': source(0, 1) }); // one file of twenty: under the threshold, kept
    await live.index();
    const small = live.store.chunks.termStatsDrift();
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThanOrEqual(MAX_TERM_STATS_DRIFT);
    expect(doctor(live).checks.find((c) => c.name === 'term statistics')).toMatchObject({ ok: true, detail: `BM25 counts ${Math.round(small * 100)}% more rows than the index holds; ${live.store.chunks.termSegments()} FTS segments` });

    writeFiles(root, tree((i) => (i < 8 ? 2 : 0))); // eight files: past it, rewritten
    await live.index();
    expect(live.store.chunks.termStatsDrift()).toBe(0);

    const fresh = await open(root);
    expect(scores(live).length).toBeGreaterThan(5);
    expect(scores(live)).toEqual(scores(fresh));
  });

  it('a pass that writes many files leaves the FTS index in one segment, which its batches would not', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/f${i}.ts`, source(i, 0)]));
    const root = makeRepo(files);
    dirs.push(root);
    const repo = await open(root);
    expect(repo.store.chunks.termSegments()).toBe(1);
    writeFiles(root, { 'src/f0.ts': source(0, 3) }); // one more batch: merged later by FTS5 itself, not by us
    await repo.index();
    expect(repo.store.chunks.termSegments()).toBeGreaterThan(1);
  });

  it('reads the whole index a page of files at a time, in order, for a rewrite and a full scan', async () => {
    const files = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`src/f${String(i).padStart(3, '0')}.ts`, source(i, 0)]));
    const root = makeRepo(files);
    dirs.push(root);
    const live = await open(root);
    writeFiles(root, Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`src/f${String(i * 4).padStart(3, '0')}.ts`, source(i * 4, 5)])));
    await live.index();
    expect(live.store.chunks.termStatsDrift()).toBe(0); // rewritten across more than one page of files
    const fresh = await open(root);
    expect(scores(live)).toEqual(scores(fresh));

    const scanned = [...live.store.chunks.scan()];
    const chunks = live.store.counts().chunks;
    expect(new Set(scanned.map((c) => c.id)).size).toBe(chunks);
    const paths = scanned.map((c) => c.path);
    expect(paths).toEqual([...paths].sort());
    expect(new Set(paths).size).toBe(600);
    const sources = [...live.store.chunks.termSources()];
    expect(sources.map((c) => c.id)).toEqual(scanned.map((c) => c.id).sort((a, b) => a - b));
  });
});
