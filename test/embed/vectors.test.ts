import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { Repo } from '../../src/engine/index.js';
import { embedPass } from '../../src/index/embed-pass.js';
import { retrievalPhase } from '../../src/search/index.js';
import { modelStamp, normalize } from '../../src/embed/index.js';
import { packTexts } from '../../src/store/chunk-text.js';
import { dot } from '../../src/search/vector.js';
import { fileCentroids } from '../../src/search/vector-matrix.js';
import { embedderSpec } from '../../src/embed/index.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir, writeFiles } from '../helpers/fixture.js';
import { startFakeEmbeddings, type FakeEmbeddings } from './fixtures/fake-embeddings.mjs';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function open(flags: Partial<Config> = {}, files = SAMPLE_FILES): Repo {
  const root = makeRepo(files);
  const home = tempDir();
  const repo = Repo.open(root, { flags: { home, ...flags }, env: {} });
  cleanup.push(() => removeDir(root), () => removeDir(home), () => repo.close());
  return repo;
}

async function fake(script: string[] = []): Promise<FakeEmbeddings> {
  const f = await startFakeEmbeddings({ dims: 8, script });
  cleanup.push(() => f.close());
  return f;
}

function withConfig(repo: Repo, over: Partial<Config>): Config {
  return { ...repo.config, ...over };
}

describe('vectors in the index', () => {
  it('embeds every chunk after the lexical pass and records the space', async () => {
    const repo = open();
    const summary = await repo.index();
    const vectors = repo.store.vectors;
    const chunks = repo.store.counts().chunks;
    expect(summary.embed).toMatchObject({ embedded: chunks, pending: 0, error: null });
    expect(vectors.count()).toBe(chunks);
    expect(vectors.identity()).toMatchObject({ name: 'builtin' });
    expect(retrievalPhase(repo.store, embedderSpec(repo.config))).toBe('serving');
  });

  it('stamps the model file beside the space, so a reader learns the space is current without reading the model', async () => {
    const repo = open();
    await repo.index();
    const vectors = repo.store.vectors;
    expect(vectors.stamp()).toBe(modelStamp()); // left by the pass that embedded
    // A file that is no model at all, stamped as if it were the one the space came from: it is never read.
    const file = path.join(tempDir(), 'builtin.bin');
    cleanup.push(() => removeDir(path.dirname(file)));
    fs.writeFileSync(file, 'not a model');
    const spec = { kind: 'builtin' as const, modelPath: file };
    repo.store.transaction(() => vectors.vouch(modelStamp(file)));
    expect(retrievalPhase(repo.store, spec)).toBe('serving');
    // Another stamp (a model replaced or moved) vouches for nothing: the model is read.
    repo.store.transaction(() => vectors.vouch('["elsewhere",1,2]'));
    expect(() => retrievalPhase(repo.store, spec)).toThrow(/not a sightline embedding model/);
    // A pass that finds the space current without its stamp (as an index from before stamps) stamps it.
    expect(await embedPass(repo.store, repo.config)).toMatchObject({ embedded: 0, pending: 0 });
    expect(vectors.stamp()).toBe(modelStamp());
  });

  it('gives each file the unit mean of its chunks\' vectors', async () => {
    const repo = open();
    await repo.index();
    const vectors = repo.store.vectors;
    const { matrix } = vectors.load(vectors.identity()!.dims);
    const centroids = fileCentroids(repo.store, matrix);
    const file = repo.store.files.get('src/auth/session.ts')!;
    const rows = repo.store.chunks.ofFileId(file.id).map((c) => matrix.ids.indexOf(c.id));
    expect(rows.length).toBeGreaterThan(0);
    const mean = new Float32Array(matrix.dims);
    for (const r of rows) for (let d = 0; d < matrix.dims; d++) mean[d]! += matrix.data[r * matrix.dims + d]!;
    const expected = normalize(mean);
    const got = centroids.get(file.id)!;
    expect(dot(got, got)).toBeCloseTo(1, 5);
    got.forEach((x, d) => expect(x).toBeCloseTo(expected[d]!, 6));
    expect(centroids.size).toBe(repo.store.files.list().filter((f) => repo.store.chunks.ofFileId(f.id).length > 0).length);
    expect(fileCentroids(repo.store, matrix)).toBe(centroids); // worked out once per loaded matrix
  });

  it('never stores a vector for text the chunk no longer holds', async () => {
    const repo = open({ embedder: 'none' });
    await repo.index();
    const vectors = repo.store.vectors;
    const [first] = vectors.pending(0, 1);
    repo.store.db.prepare('UPDATE chunks SET text_length = text_length - 1 WHERE id = ?').run(first!.id); // it now holds less of its file's text
    const stored = repo.store.transaction(() => vectors.put(first!, new Float32Array([1, 0])));
    expect(stored).toBe(false);
    expect(vectors.pending(0, 1)[0]!.id).toBe(first!.id);
  });

  it('never stores a vector when the chunk’s file text changed under the same span', async () => {
    const repo = open({ embedder: 'none' });
    await repo.index();
    const vectors = repo.store.vectors;
    const [first] = vectors.pending(0, 1);
    const { packed } = packTexts([first!.text.replace(/\w/, '_')]);
    repo.store.db.prepare('UPDATE file_texts SET packed = ? WHERE file_id = (SELECT file_id FROM chunks WHERE id = ?)').run(packed, first!.id);
    expect(repo.store.transaction(() => vectors.put(first!, new Float32Array([1, 0])))).toBe(false);
    const { source, ...now } = vectors.pending(0, 1)[0]!;
    expect(now.text).not.toBe(first!.text);
    expect(source.packed.equals(packed)).toBe(true);
  });

  it('drops a file’s vectors in the transaction that replaces the file; the new chunks wait for the next pass', async () => {
    const repo = open();
    await repo.index();
    const vectors = repo.store.vectors;
    const before = vectors.count();
    const file = repo.store.files.get('src/util/crypto.ts')!;
    const old = repo.store.chunks.ofFileId(file.id).length;
    writeFiles(repo.root, { 'src/util/crypto.ts': SAMPLE_FILES['src/util/crypto.ts'] + '\nexport const ALGORITHM = "sha256";\n' });
    const lexicalOnly = withConfig(repo, { embedder: 'none' });
    const { indexRepository } = await import('../../src/index/index.js');
    await indexRepository(repo.root, repo.store, lexicalOnly);
    const fresh = repo.store.chunks.ofFileId(repo.store.files.get('src/util/crypto.ts')!.id).length;
    expect(vectors.count()).toBe(before - old);
    expect(vectors.pendingCount()).toBe(fresh);
    // An edit's few pending chunks, looked for from the highest id down until all are found, are the ones a page scan finds.
    expect(vectors.pending(0, fresh, true)).toEqual(vectors.pending(0, 256));
    expect(vectors.pending(0, fresh, true)).toHaveLength(fresh);
    expect(vectors.pending(vectors.pending(0, fresh, true).at(-1)!.id, fresh, true)).toEqual([]); // the next page: none above the last
    // One pending far below them (a chunk an earlier pass failed to embed) is found too, when counted.
    const lowest = repo.store.db.prepare('SELECT min(chunk_id) FROM vectors').pluck().get() as number;
    repo.store.db.prepare('DELETE FROM vectors WHERE chunk_id = ?').run(lowest);
    expect(vectors.pendingCount()).toBe(fresh + 1);
    expect(vectors.pending(0, fresh + 1, true)).toEqual(vectors.pending(0, 256));
    expect(vectors.pending(0, fresh + 1, true)[0]!.id).toBe(lowest);
    // Looked for from the top down: asked for one, the few path gives the highest pending chunk, a page scan the lowest.
    expect(vectors.pending(0, 1, true)[0]!.id).toBe(vectors.pending(0, 256).at(-1)!.id);
    expect(vectors.pending(0, 1)[0]!.id).toBe(lowest);
    expect(retrievalPhase(repo.store, embedderSpec(repo.config))).toBe('building');
    const again = await embedPass(repo.store, repo.config);
    expect(again).toMatchObject({ embedded: fresh + 1, pending: 0 });
  });

  it('re-embeds everything when the embedder changes, never mixing spaces', async () => {
    const repo = open();
    await repo.index();
    const chunks = repo.store.counts().chunks;
    const server = await fake();
    const http = withConfig(repo, { embedder: 'http', embedUrl: server.url, embedModel: 'fake-embed', embedDimensions: 8 });
    const summary = await embedPass(repo.store, http, { inThreadMax: 0 }); // on the embedding thread
    expect(summary).toMatchObject({ embedded: chunks, pending: 0, identity: { name: 'http', model: 'fake-embed', dims: 8 } });
    const vectors = repo.store.vectors;
    expect(vectors.identity()).toEqual({ name: 'http', model: 'fake-embed', dims: 8 });
    expect(vectors.load(8).matrix.ids).toHaveLength(chunks);
    // Back to builtin: the other space is dropped and rebuilt, and until then builtin answers by keyword.
    expect(retrievalPhase(repo.store, embedderSpec(repo.config))).toBe('building');
    expect(await embedPass(repo.store, repo.config)).toMatchObject({ embedded: chunks, identity: { name: 'builtin' } });
  });

  it('leaves the chunks of a failed batch pending and embeds them on the next pass', async () => {
    const repo = open({ embedder: 'none' });
    await repo.index();
    const chunks = repo.store.counts().chunks;
    const server = await fake(['400']);
    const http = withConfig(repo, { embedder: 'http', embedUrl: server.url, embedModel: 'fake-embed', embedDimensions: 8, embedBatchSize: 2 });
    const failed = await embedPass(repo.store, http, { inThreadMax: 0 });
    expect(failed!.error).toMatch(/embedding stopped: .*400.*retried on the next index pass/);
    expect(failed!.pending).toBeGreaterThan(0);
    expect(failed!.embedded + failed!.pending).toBe(chunks);
    const retried = await embedPass(repo.store, http);
    expect(retried).toMatchObject({ embedded: failed!.pending, pending: 0, error: null });
  });

  it('sends its first pages before the thread has opened its model, and loses none when the model cannot open', async () => {
    const repo = open({ embedder: 'none' });
    await repo.index();
    const chunks = repo.store.counts().chunks;
    // Nothing stored, so pages go at once; the thread then fails to open a model that is not there.
    const broken = withConfig(repo, { embedder: 'onnx', modelDir: path.join(repo.root, 'no-such-model') });
    const failed = await embedPass(repo.store, broken, { inThreadMax: 0 });
    expect(failed).toMatchObject({ embedded: 0, pending: chunks, identity: null });
    expect(failed!.error).toMatch(/embedding did not start: .*no-such-model/);
    expect(repo.store.vectors.count()).toBe(0);
    const builtin = withConfig(repo, { embedder: 'builtin' });
    expect(await embedPass(repo.store, builtin, { inThreadMax: 0 })).toMatchObject({ embedded: chunks, pending: 0, error: null });
    expect(repo.store.vectors.load(repo.store.vectors.identity()!.dims).matrix.ids).toHaveLength(chunks);
  });

  it('reports keyword_only with no embedder, and an unreachable endpoint as an error of the pass, not of the index', async () => {
    const repo = open({ embedder: 'none' });
    const summary = await repo.index();
    expect(summary.embed).toBeNull();
    expect(retrievalPhase(repo.store, embedderSpec(repo.config))).toBe('keyword_only');
    const down = withConfig(repo, { embedder: 'http', embedUrl: 'http://127.0.0.1:9/v1', embedModel: 'm' });
    const res = await embedPass(repo.store, down);
    expect(res!.error).toMatch(/did not start/);
    expect(res!.pending).toBe(repo.store.counts().chunks);
  });
});
