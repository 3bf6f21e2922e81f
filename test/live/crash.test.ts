/**
 * kill -9, for real. `sightline index` runs in a child process over a
 * generated repository of 2,000 files and is SIGKILLed at points chosen by
 * watching its progress in the index: in the walk, in the lexical writes, and
 * in the embedding pass. After every kill:
 *
 * - `PRAGMA integrity_check` passes and nothing is orphaned (chunks, symbols,
 *   FTS rows, vectors);
 * - the status reports the pass as interrupted;
 * - every file is one version of itself, re-derived from its content: its
 *   digest is that of a version the test wrote, each chunk's text is exactly
 *   that version's lines, each chunk's FTS row matches an identifier only that
 *   version has (and not the other version's), its symbols are that version's,
 *   and each vector present is the embedding of that chunk (a chunk may lack
 *   one: it is pending, and the next pass embeds it).
 *
 * Each run resumes the last. When one completes, the index must match a clean
 * index of the same tree (same files, digests, chunk counts) and have every
 * vector. The tree then switches version (a third of the files rewritten, one
 * in ten deleted, 200 added) and the killing goes on through incremental
 * passes. Four index homes are killed side by side, to keep CI time down.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEmbedder, embeddingText } from '../../src/embed/index.js';
import { jobStatus, repoId } from '../../src/engine/index.js';
import { digest } from '../../src/walk/index.js';
import { CLI } from '../helpers/cli.js';
import { generatedFile, openRepo, scratch } from './helpers.js';

const FILES = 2_000;
const ADDED = 200;
/** Independent index homes killed side by side over the same tree. */
const CHAINS = 4;
/** The tree versions the chains go through: a full index of B, then an incremental pass to A (rewrites, additions, deletions). */
const TREES = ['B', 'A'] as const;
/** Each chain kills one run in each of these phases per tree version, then lets one finish. */
const TARGETS = ['walking', 'writing', 'embedding'] as const;

type Tree = 'A' | 'B';
type Target = (typeof TARGETS)[number];

/** Version of file i in tree `t`, or null when the file is absent there. */
function versionIn(t: Tree, i: number): number | null {
  if (t === 'A') return i < FILES ? 1 : null;
  if (i >= FILES) return 2; // added in B
  if (i % 10 === 7) return null; // deleted in B
  return i % 3 === 0 ? 2 : 1;
}

/** Rewrites the files that differ between `from` (null: an empty directory) and `t`. */
function applyTree(root: string, t: Tree, from: Tree | null): void {
  for (let i = 0; i < FILES + ADDED; i++) {
    const v = versionIn(t, i);
    if (from !== null && versionIn(from, i) === v) continue;
    const f = generatedFile(i, v ?? 1);
    const abs = path.join(root, f.path);
    if (v === null) fs.rmSync(abs, { force: true });
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, f.content);
    }
  }
}

/** Every version of every file the test ever writes, by digest. */
const byDigest = new Map<string, { path: string; i: number; version: number; lines: string[] }>();
for (let i = 0; i < FILES + ADDED; i++) {
  for (const version of [1, 2]) {
    const f = generatedFile(i, version);
    byDigest.set(digest(f.content), { path: f.path, i, version, lines: f.content.split('\n') });
  }
}

/** The generated identifiers: fn_<file>_<k>_v<version>. */
const IDENT = /fn_(\d+)_(\d+)_v(\d+)/g;
const model = BuiltinEmbedder.open();
const vecHex = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

function orphans(db: Database.Database): Record<string, number> {
  const n = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    chunksWithoutFile: n('SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)'),
    symbolsWithoutFile: n('SELECT count(*) FROM symbols WHERE file_id NOT IN (SELECT id FROM files)'),
    ftsWithoutChunk: n('SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)'),
    chunksWithoutFts: n('SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)'),
    vectorsWithoutChunk: n('SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)'),
  };
}

interface ChunkRow {
  id: number;
  start_line: number;
  end_line: number;
  breadcrumb: string;
  text: string;
  tokens: number;
  signature: string | null;
  vec: Buffer | null;
}

/**
 * Checks that every file in the index is exactly one version of itself, and
 * returns path → [digest, chunk count] for comparing with a clean index.
 * `complete`: every chunk must have its vector (a finished pass).
 */
function verifyVersions(db: Database.Database, complete: boolean): Map<string, string> {
  const files = db.prepare('SELECT id, path, digest, tokens, line_count FROM files').all() as { id: number; path: string; digest: string; tokens: number; line_count: number }[];
  // The signature lookup is the embedding pass's own (store/vectors.ts): the text a vector is computed from.
  const chunksOf = db.prepare(
    `SELECT c.id, c.start_line, c.end_line, c.breadcrumb, c.text, c.tokens, v.vec,
            (SELECT s.signature FROM symbols s WHERE s.file_id = c.file_id AND s.qualified = c.symbol AND s.start_line < c.start_line LIMIT 1) AS signature
     FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id WHERE c.file_id = ? ORDER BY c.ord`,
  );
  const symbolsOf = db.prepare('SELECT name, start_line, end_line FROM symbols WHERE file_id = ?');
  const ftsHas = db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?').pluck();
  const summary = new Map<string, string>();
  for (const f of files) {
    const v = byDigest.get(f.digest);
    expect(v?.path, `${f.path}: digest ${f.digest} is no version the test wrote`).toBe(f.path);
    const { i, version, lines } = v!;
    const other = 3 - version;
    const chunks = chunksOf.all(f.id) as ChunkRow[];
    let tokens = 0;
    for (const c of chunks) {
      expect(c.text, `${f.path} chunk ${c.id}: not lines ${c.start_line}-${c.end_line} of version ${version}`).toBe(lines.slice(c.start_line - 1, c.end_line).join('\n'));
      tokens += c.tokens;
      for (const [, , k] of c.text.matchAll(IDENT)) {
        expect(ftsHas.get(`body:fn${i}${k}v${version}`, c.id), `${f.path} chunk ${c.id}: FTS row lacks its own identifier`).toBe(1);
        expect(ftsHas.get(`body:fn${i}${k}v${other}`, c.id), `${f.path} chunk ${c.id}: FTS row holds the other version`).toBe(0);
      }
      if (c.vec) {
        const want = vecHex(model.embedOne(embeddingText(c)));
        expect(c.vec.toString('hex'), `${f.path} chunk ${c.id}: vector is not this chunk's`).toBe(want);
      } else {
        expect(complete, `${f.path} chunk ${c.id}: no vector after a completed pass`).toBe(false);
      }
    }
    expect(tokens, `${f.path}: chunks missing`).toBe(f.tokens);
    for (const s of symbolsOf.all(f.id) as { name: string; start_line: number; end_line: number }[]) {
      expect(s.name, `${f.path}: symbol of another version`).toMatch(new RegExp(`^fn_${i}_\\d+_v${version}$`));
      expect(s.end_line).toBeLessThanOrEqual(f.line_count);
    }
    summary.set(f.path, `${f.digest} ${chunks.length}`);
  }
  return summary;
}

interface KillPoint {
  phase: 'walking' | 'writing' | 'embedding';
  /** For writing and embedding: the share of the phase's work done when the kill comes. */
  fraction: number;
  /** For walking: milliseconds after the walk started. */
  walkDelay: number;
}

const tmp = scratch();
let root: string;
/** Per tree: path → "digest chunkCount" of a clean index. */
const clean = new Map<Tree, Map<string, string>>();
/** How long a clean run spent walking: the window for walk kills. */
let walkMs = 50;
const phasesSeen = new Set<string>();

function dbPathOf(home: string): string {
  return path.join(home, repoId(root), 'index.db');
}

/** Runs `sightline index` to the end, or to `kill`, watched by a killer thread (killer.mjs). */
async function runIndex(home: string, kill: KillPoint | null) {
  const child = spawn(process.execPath, [CLI, 'index', root, '--json'], { env: { PATH: process.env.PATH, SIGHTLINE_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killer = new Worker(new URL('./killer.mjs', import.meta.url), { workerData: { dbPath: dbPathOf(home), pid: child.pid, kill } });
  const timeline = new Promise<{ phase: string; at: number }[]>((resolve) => killer.once('message', resolve));
  const code = await exited;
  killer.postMessage('stop');
  const seen = await timeline;
  await killer.terminate();
  return { killed: child.signalCode === 'SIGKILL', code, stderr, timeline: seen };
}

function withDb<T>(home: string, fn: (db: Database.Database) => T): T {
  const db = new Database(dbPathOf(home), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(orphans(db)).toEqual({ chunksWithoutFile: 0, symbolsWithoutFile: 0, ftsWithoutChunk: 0, chunksWithoutFts: 0, vectorsWithoutChunk: 0 });
    return fn(db);
  } finally {
    db.close();
  }
}

/** After a kill: sound, one version per file, reported as interrupted. Returns the phase it died in. */
function verifyAfterKill(home: string): string {
  const phase = withDb(home, (db) => {
    verifyVersions(db, false);
    return (db.prepare('SELECT phase FROM index_job').pluck().get() as string | null) ?? 'starting';
  });
  const repo = openRepo(root, home);
  try {
    expect(jobStatus(repo)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted/) });
  } finally {
    repo.close();
  }
  return phase;
}

function expectMatchesClean(home: string, tree: Tree): void {
  const got = withDb(home, (db) => verifyVersions(db, true));
  expect(Object.fromEntries(got)).toEqual(Object.fromEntries(clean.get(tree)!));
}

beforeAll(async () => {
  root = tmp.dir('sightline-crash-repo-');
  applyTree(root, 'A', null);
  for (const t of ['A', 'B'] as const) {
    if (t === 'B') applyTree(root, 'B', 'A');
    const home = tmp.dir('sightline-crash-clean-');
    const run = await runIndex(home, null);
    expect(run.code, run.stderr).toBe(0);
    const walkStart = run.timeline.find((e) => e.phase === 'walking');
    const walkEnd = run.timeline.find((e) => e.phase !== 'walking');
    if (walkStart && walkEnd) walkMs = Math.max(walkMs, walkEnd.at - walkStart.at);
    for (const e of run.timeline) phasesSeen.add(e.phase);
    clean.set(t, withDb(home, (db) => verifyVersions(db, true)));
  }
}, 180_000);
afterAll(() => tmp.cleanup());

describe('kill -9 during indexing', () => {
  it(`survives ${CHAINS * TREES.length * TARGETS.length} SIGKILLs across walk, write and embed, and every next run completes to the clean index`, async () => {
    const started = Date.now();
    const killsByPhase: Record<string, number> = {};
    let completions = 0;
    const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

    /** A random point of `target` (a pass with no embedding phase is killed in its writes instead). */
    const killAt = (target: Target): KillPoint => ({
      phase: target === 'embedding' && !phasesSeen.has('embedding') ? 'writing' : target,
      // Embedding progress comes a page (256 chunks) at a time: a point past the last page would never come.
      fraction: target === 'embedding' ? rand(0, 0.75) : rand(0.05, 0.95),
      walkDelay: rand(0, walkMs),
    });

    /** One chain on one tree version: a kill in each target phase, each run resuming the last, then a run to the end. */
    const chain = async (home: string, tree: Tree) => {
      for (const target of TARGETS) {
        const run = await runIndex(home, killAt(target));
        if (run.killed) {
          const phase = verifyAfterKill(home);
          killsByPhase[phase] = (killsByPhase[phase] ?? 0) + 1;
        } else {
          // It finished before the point came (little was left): a resume, checked as one.
          expect(run.code, run.stderr).toBe(0);
          expectMatchesClean(home, tree);
          completions++;
        }
      }
      const run = await runIndex(home, null);
      expect(run.code, run.stderr).toBe(0);
      expectMatchesClean(home, tree);
      completions++;
    };

    const homes = Array.from({ length: CHAINS }, () => tmp.dir('sightline-crash-home-'));
    let onDisk: Tree = 'B'; // after beforeAll
    for (const tree of TREES) {
      applyTree(root, tree, onDisk);
      onDisk = tree;
      await Promise.all(homes.map((home) => chain(home, tree)));
    }
    const kills = Object.values(killsByPhase).reduce((a, b) => a + b, 0);
    process.stderr.write(
      `kill -9: survived ${kills} kills (${Object.entries(killsByPhase).map(([p, n]) => `${p} ${n}`).join(', ')}); ` +
        `${completions} resumed runs matched the clean index; phases reported: ${[...phasesSeen].join(', ')}; ${Date.now() - started} ms\n`,
    );
    expect(kills).toBeGreaterThanOrEqual(20);
    // Kills landed in the walk and in the writes, not only in one of them (and in embedding, when the pass embeds).
    expect(killsByPhase.walking ?? 0).toBeGreaterThan(0);
    expect((killsByPhase.writing ?? 0) + (killsByPhase.parsing ?? 0)).toBeGreaterThan(0);
    if (phasesSeen.has('embedding')) expect(killsByPhase.embedding ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
