/**
 * How the index lays its rows out to stay small (schema versions 8 and 10): chunk text packed once
 * per file, breadcrumbs stored past their file's path, half-float vectors, a reference's text stored
 * once, a first index rewritten packed, and every per-write edge statement answered through an index
 * rather than a scan of the graph.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const dirs: string[] = [];
const repos: Repo[] = [];
afterEach(() => {
  repos.splice(0).forEach((r) => r.close());
  dirs.splice(0).forEach(removeDir);
});

/** Files whose functions call the same few helpers, as code does. */
function callers(n: number): Record<string, string> {
  const files: Record<string, string> = { 'src/helpers.ts': 'export function check(x: number) {\n  return x > 0;\n}\nexport function report(s: string) {\n  console.log(s);\n}\n' };
  for (let i = 0; i < n; i++) {
    const body = Array.from({ length: 6 }, (_, k) => `export function step${i}_${k}(value: number) {\n  if (!check(value)) report('step ${k} of file ${i} failed');\n  return value + ${k};\n}\n`);
    files[`src/file${i}.ts`] = `import { check, report } from './helpers';\n\n${body.join('\n')}`;
  }
  return files;
}

/** A repository of `files` with a home of its own, not indexed yet; both go after the test. */
function opened(files: Record<string, string>, embedder = 'builtin'): { repo: Repo; root: string } {
  const root = makeRepo(files);
  const home = tempDir('sightline-home-');
  dirs.push(root, home);
  const repo = Repo.open(root, { flags: { home, embedder: embedder as 'builtin' | 'none' }, env: {} });
  repos.push(repo);
  return { repo, root };
}

async function indexed(files: Record<string, string>, embedder = 'builtin'): Promise<Repo> {
  const { repo } = opened(files, embedder);
  await repo.index();
  return repo;
}

const one = (repo: Repo, sql: string) => repo.store.db.prepare(sql).pluck().get() as number;

describe('index layout', () => {
  it('stores chunk text once per file, compressed, and reads every chunk back whole', async () => {
    const repo = await indexed(callers(12), 'none');
    const { store } = repo;
    const texts = [...store.chunks.scan()];
    const textBytes = texts.reduce((s, c) => s + Buffer.byteLength(c.text), 0);
    expect(texts.length).toBeGreaterThan(12);
    expect(one(repo, 'SELECT count(*) FROM file_texts')).toBe(store.counts().files);
    expect(one(repo, 'SELECT sum(length(packed)) FROM file_texts')).toBeLessThan(textBytes / 2);
    for (const f of store.files.list()) {
      const chunks = store.chunks.ofFileId(f.id);
      const byId = store.chunks.byIds(chunks.map((c) => c.id));
      for (const c of chunks) expect(byId.get(c.id)).toEqual(c);
      // Chunks cover the file's lines: their texts are those lines.
      const lines = fs.readFileSync(path.join(repo.root, f.path), 'utf8').split('\n');
      for (const c of chunks) expect(c.text).toBe(lines.slice(c.startLine - 1, c.endLine).join('\n'));
    }
  });

  it('stores a breadcrumb past its file path, and reads it whole', async () => {
    const repo = await indexed(callers(3), 'none');
    const stored = repo.store.db.prepare('SELECT breadcrumb FROM chunks WHERE id = ?').pluck();
    const chunks = [...repo.store.chunks.scan()];
    expect(chunks.some((c) => c.breadcrumb.includes(' > '))).toBe(true);
    for (const c of chunks) {
      expect(c.breadcrumb.startsWith(c.path)).toBe(true);
      expect(stored.get(c.id)).toBe(c.breadcrumb.slice(c.path.length));
    }
  });

  it('rewrites the file packed after a pass that wrote most of the index, not after a small one', async () => {
    const { repo, root } = opened(callers(40), 'none');
    const compact = vi.spyOn(repo.store, 'compact');
    await repo.index();
    expect(compact).toHaveBeenCalledTimes(1);
    const pragma = (name: string) => repo.store.db.pragma(name, { simple: true }) as number;
    const packed = path.join(path.dirname(repo.dbPath), 'packed.db');
    repo.store.db.prepare('VACUUM INTO ?').run(packed);
    expect(fs.statSync(packed).size).toBe(pragma('page_count') * pragma('page_size'));
    writeFiles(root, { 'src/file0.ts': 'export const x = 1;\n' });
    await repo.index();
    expect(compact).toHaveBeenCalledTimes(1);
    // The rewrite drops the connection's temporary tables, the term vocabulary among them: it is made again.
    const frequency = (term: string) => repo.store.terms.documentFrequency([term]).get(term);
    expect(frequency('check')).toBeGreaterThan(0);
    repo.store.compact();
    expect(frequency('report')).toBe(frequency('check')); // each file calls both
  });

  it('completes a first index whose rewrite finds the database busy, giving back the pages it freed instead', async () => {
    const { repo } = opened(callers(10), 'none');
    vi.spyOn(repo.store, 'compact').mockImplementation(() => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    });
    const release = vi.spyOn(repo.store, 'releaseFreePages');
    expect((await repo.index()).added).toBe(11);
    expect(release).toHaveBeenCalledTimes(1);
    expect(repo.store.chunks.lexical(['check'], 5)).not.toEqual([]);
  });

  it('stores two bytes a dimension for a vector', async () => {
    const repo = await indexed(callers(2));
    const dims = repo.store.vectors.identity()!.dims;
    expect(one(repo, 'SELECT count(*) FROM vectors')).toBe(repo.store.counts().chunks);
    expect(one(repo, 'SELECT min(length(vec)) FROM vectors')).toBe(dims * 2);
    expect(one(repo, 'SELECT max(length(vec)) FROM vectors')).toBe(dims * 2);
  });

  it('stores a reference’s text once however many edges write it, and drops it when no edge does', async () => {
    const repo = await indexed(callers(12), 'none');
    const edges = one(repo, 'SELECT count(*) FROM edges');
    expect(one(repo, "SELECT count(*) FROM edges e JOIN refs r ON r.id = e.ref_id WHERE r.name = 'check'")).toBe(12 * 6 + 12); // calls, imports
    expect(one(repo, "SELECT count(*) FROM refs WHERE name = 'check'")).toBe(2); // the import and the call
    expect(one(repo, 'SELECT count(*) FROM refs')).toBeLessThan(edges / 10);
    writeFiles(repo.root, { 'src/file0.ts': 'export const gone = oneOffCall();\n' });
    await repo.index();
    expect(one(repo, "SELECT count(*) FROM refs WHERE name = 'oneOffCall'")).toBe(1);
    writeFiles(repo.root, { 'src/file0.ts': 'export const gone = 1;\n' });
    await repo.index();
    expect(one(repo, "SELECT count(*) FROM refs WHERE name = 'oneOffCall'")).toBe(0);
    expect(one(repo, 'SELECT count(*) FROM refs WHERE id NOT IN (SELECT ref_id FROM edges)')).toBe(0);
  });

  it('tells apart references of one file that differ only by a missing part and an empty one', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n' }, 'none');
    const fileId = repo.store.files.get('a.ts')!.id;
    const ref = (qualifier: string | null, alias: string | null) => ({ kind: 'import' as const, name: 'x', qualifier, module: 'm', alias, line: 1, from: -1 });
    const records = [ref(null, null), ref(null, ''), ref('', null), ref(null, null), ref(null, ''), ref('', '')];
    repo.store.transaction(() => repo.store.edges.addAll(fileId, records, []));
    const rows = repo.store.db
      .prepare("SELECT r.qualifier, r.alias FROM edges e JOIN refs r ON r.id = e.ref_id WHERE r.name = 'x' ORDER BY e.id")
      .all() as { qualifier: string | null; alias: string | null }[];
    expect(rows).toEqual(records.map(({ qualifier, alias }) => ({ qualifier, alias })));
    expect(one(repo, "SELECT count(*) FROM refs WHERE name = 'x'")).toBe(4);
  });

  it('gives the pages a pass freed back to the file system', async () => {
    const repo = await indexed(callers(40), 'none');
    const pragma = (name: string) => repo.store.db.pragma(name, { simple: true }) as number;
    expect(pragma('auto_vacuum')).toBe(2); // incremental
    expect(pragma('freelist_count')).toBe(0);
    const pages = pragma('page_count');
    // A third of the files shrink to one line (too few to rewrite the file): their chunks, terms and edges go, and so do their pages.
    writeFiles(repo.root, Object.fromEntries(Object.keys(callers(40)).slice(0, 14).map((p) => [p, 'export const x = 1;\n'])));
    await repo.index();
    expect(pragma('freelist_count')).toBe(0);
    expect(pragma('page_count')).toBeLessThan(pages);
  });

  it('answers every per-write and per-resolution edge statement through an index, never a scan of the graph', async () => {
    const repo = await indexed(callers(3), 'none');
    const edges = repo.store.edges as unknown as Record<string, { source: string }>;
    const statements = ['ofFileKindStmt', 'pendingStmt', 'pendingCountStmt', 'targetsStmt', 'clearTargets', 'markTargeting', 'importsInto', 'markNamed', 'markImports', 'findRef'];
    for (const name of statements) {
      const sql = edges[name]!.source;
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
      const plan = (repo.store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      // A scan of a partial index reads only the rows it holds (the pending edges, the unresolved imports).
      const scans = plan.filter((d) => /^SCAN (e|edges|t|edge_targets|refs)\b/.test(d) && !/USING (COVERING )?INDEX (edges_pending|edges_unresolved_imports)\b/.test(d));
      expect(scans, `${name}: ${plan.join('; ')}`).toEqual([]);
    }
  });
});
