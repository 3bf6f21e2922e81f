/**
 * kill -9, for real. `sightline index` runs in a child process over a
 * generated repository of 2,000 files and is SIGKILLed at points chosen by
 * watching its progress in the index: in the walk, in the lexical writes, and
 * in the embedding pass. After every kill:
 *
 * - `PRAGMA integrity_check` passes and nothing is orphaned (chunks, symbols,
 *   FTS rows, vectors), and every file's chunks add up to it;
 * - the status reports the pass as interrupted;
 * - every file is one version of itself: its row, chunks, symbols, references (edges),
 *   FTS terms (every term, column and position) and any vector it has are,
 *   row for row, those a clean index holds for that version (a chunk may lack
 *   its vector: it is pending, and the next pass embeds it).
 *
 * The clean indexes of the two trees are built once, and checked themselves
 * by re-deriving every file from its content: its digest is that of a version
 * the test wrote, each chunk's text is exactly that version's lines, each FTS
 * row holds an identifier only that version has (and not the other's), its
 * symbols are that version's, and each vector is the embedding of its chunk.
 * Their rows are then kept in one reference database, so each later check is
 * a few SQL set differences.
 *
 * Each run resumes the last. When one completes, the index must hold exactly
 * the clean index's files, each with every vector. The tree then switches
 * version (a third of the files rewritten, one in ten deleted, 200 added) and
 * the killing goes on through incremental passes. Two repositories, each with
 * its own index, are killed side by side: one per core.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEmbedder, embeddingText } from '../../src/embed/index.js';
import { jobStatus, repoId } from '../../src/engine/index.js';
import { unpackTexts } from '../../src/store/chunk-text.js';
import { encodeHalves } from '../../src/store/float16.js';
import { digest } from '../../src/walk/index.js';
import { CLI } from '../helpers/cli.js';
import { generatedFile, openRepo, scratch } from './helpers.js';

const FILES = 2_000;
const ADDED = 200;
/** Independent repositories and index homes, killed side by side; each full first index costs more than a switch of version. */
const CHAINS = 2;
const KILLS_PER_CHAIN = 10;
/** A chain kills runs in these phases in turn; after three kills on one tree version it lets a run finish, then switches version. */
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

const model = BuiltinEmbedder.open();
const vecHex = (v: Float32Array) => encodeHalves(v).toString('hex');

function soundness(db: Database.Database): Record<string, number> {
  const n = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    chunksWithoutFile: n('SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)'),
    symbolsWithoutFile: n('SELECT count(*) FROM symbols WHERE file_id NOT IN (SELECT id FROM files)'),
    ftsWithoutChunk: n('SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)'),
    chunksWithoutFts: n('SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)'),
    vectorsWithoutChunk: n('SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)'),
    filesMissingChunks: n('SELECT count(*) FROM files f WHERE f.tokens <> (SELECT coalesce(sum(tokens), 0) FROM chunks WHERE file_id = f.id)'),
  };
}
const SOUND = { chunksWithoutFile: 0, symbolsWithoutFile: 0, ftsWithoutChunk: 0, chunksWithoutFts: 0, vectorsWithoutChunk: 0, filesMissingChunks: 0 };

/**
 * What an index holds of each file version, keyed by (path, digest) rather
 * than row ids, which differ between indexes. `s` is a schema name; `terms`
 * an fts5vocab instance table over its chunks_fts (contentless: the index is
 * the only place its terms can be read back).
 */
const holdings = (s: string, terms: string) => ({
  files: `SELECT path, digest, language, kind, size, line_count, tokens, invalid_utf8 FROM ${s}.files`,
  chunks: `SELECT f.path, f.digest, c.ord, c.start_line, c.end_line, c.breadcrumb, c.symbol, c.text_at, c.text_length, x.packed, c.tokens
           FROM ${s}.chunks c JOIN ${s}.files f ON f.id = c.file_id JOIN ${s}.file_texts x ON x.file_id = c.file_id`,
  symbols: `SELECT f.path, f.digest, y.name, y.qualified, y.kind, y.signature, y.start_line, y.end_line FROM ${s}.symbols y JOIN ${s}.files f ON f.id = y.file_id`,
  edges: `SELECT f.path, f.digest, e.kind, r.name, r.qualifier, r.module, r.alias, e.line
          FROM ${s}.edges e JOIN ${s}.refs r ON r.id = e.ref_id JOIN ${s}.files f ON f.id = e.file_id`,
  // The terms that tell versions apart (fn_<file>_<k>_v<version> is indexed whole as fn<file><k>v<version>), in every column and position.
  terms: `SELECT f.path, f.digest, c.ord, t.col, t.offset, t.term FROM ${terms} t JOIN ${s}.chunks c ON c.id = t.doc JOIN ${s}.files f ON f.id = c.file_id
          WHERE t.term >= 'fn' AND t.term < 'fo'`,
  vectors: `SELECT f.path, f.digest, c.ord, v.vec FROM ${s}.vectors v JOIN ${s}.chunks c ON c.id = v.chunk_id JOIN ${s}.files f ON f.id = c.file_id`,
});
type Holding = keyof ReturnType<typeof holdings>;
const HOLDINGS = Object.keys(holdings('main', '')) as Holding[];

interface ChunkRow {
  id: number;
  start_line: number;
  end_line: number;
  breadcrumb: string;
  text_at: number;
  text_length: number;
  tokens: number;
  signature: string | null;
  vec: Buffer | null;
}

/** Embeddings of chunk texts, computed once per text. */
const embedded = new Map<string, string>();
function embeddingOf(chunk: { breadcrumb: string; text: string; signature: string | null }): string {
  const text = embeddingText(chunk);
  let hex = embedded.get(text);
  if (hex === undefined) embedded.set(text, (hex = vecHex(model.embedOne(text))));
  return hex;
}

/** Checks a clean index from content: every file exactly one version of itself, every chunk with its vector. */
function verifyVersions(db: Database.Database): void {
  const files = db.prepare('SELECT id, path, digest, tokens, line_count FROM files').all() as { id: number; path: string; digest: string; tokens: number; line_count: number }[];
  // The signature lookup is the embedding pass's own (store/vectors.ts): the text a vector is computed from.
  // A breadcrumb is stored past its file's path.
  const chunksOf = db.prepare(
    `SELECT c.id, c.start_line, c.end_line, (SELECT path FROM files WHERE id = c.file_id) || c.breadcrumb AS breadcrumb, c.text_at, c.text_length, c.tokens, v.vec,
            (SELECT s.signature FROM symbols s WHERE s.file_id = c.file_id AND s.qualified = c.symbol AND s.start_line < c.start_line LIMIT 1) AS signature
     FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id WHERE c.file_id = ? ORDER BY c.ord`,
  );
  const packedOf = db.prepare('SELECT packed FROM file_texts WHERE file_id = ?').pluck();
  const symbolsOf = db.prepare('SELECT name, end_line FROM symbols WHERE file_id = ?');
  const ftsHas = db.prepare('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?').pluck();
  const problems: string[] = [];
  for (const f of files) {
    const v = byDigest.get(f.digest);
    if (v?.path !== f.path) {
      problems.push(`${f.path}: digest ${f.digest} is no version the test wrote`);
      continue;
    }
    const { i, version, lines } = v;
    const packed = packedOf.get(f.id) as Buffer | undefined;
    const fileText = packed ? unpackTexts(packed) : '';
    const chunks = (chunksOf.all(f.id) as ChunkRow[]).map((c) => ({ ...c, text: fileText.slice(c.text_at, c.text_at + c.text_length) }));
    let tokens = 0;
    for (const c of chunks) {
      const where = `${f.path} chunk ${c.id}`;
      if (c.text !== lines.slice(c.start_line - 1, c.end_line).join('\n')) problems.push(`${where}: not lines ${c.start_line}-${c.end_line} of version ${version}`);
      tokens += c.tokens;
      const k = /fn_\d+_(\d+)_v\d+/.exec(c.text)?.[1];
      if (k !== undefined) {
        if (ftsHas.get(`body:fn${i}${k}v${version}`, c.id) !== 1) problems.push(`${where}: FTS row lacks its own identifier`);
        if (ftsHas.get(`body:fn${i}${k}v${3 - version}`, c.id) !== 0) problems.push(`${where}: FTS row holds the other version's identifier`);
      }
      if (c.vec?.toString('hex') !== embeddingOf(c)) problems.push(`${where}: ${c.vec ? "vector is not this chunk's" : 'no vector after a completed pass'}`);
    }
    if (tokens !== f.tokens) problems.push(`${f.path}: chunks missing`);
    for (const s of symbolsOf.all(f.id) as { name: string; end_line: number }[]) {
      if (!new RegExp(`^fn_${i}_\\d+_v${version}$`).test(s.name) || s.end_line > f.line_count) problems.push(`${f.path}: symbol ${s.name} is not of version ${version}`);
    }
  }
  expect(problems.slice(0, 10)).toEqual([]);
}

interface KillPoint {
  phase: 'walking' | 'writing' | 'embedding';
  /** For writing and embedding: the share of the phase's work done when the kill comes. */
  fraction: number;
  /** For walking: milliseconds after the walk started. */
  walkDelay: number;
}

const tmp = scratch();
/**
 * The clean indexes' holdings, in one database: a table per holding, every
 * version of both trees (a version both share is held once), and `tree_files`
 * saying which files each tree's clean index has.
 */
let referenceDb = '';
/** How long a clean run spent walking: the window for walk kills. */
let walkMs = 50;
const phasesSeen = new Set<string>();

/** A repository and the home of its index. */
interface Chain {
  root: string;
  home: string;
  tree: Tree;
}

function dbPathOf({ root, home }: Chain): string {
  return path.join(home, repoId(root), 'index.db');
}

function newChain(prefix: string): Chain {
  const root = tmp.dir(`${prefix}-repo-`);
  applyTree(root, 'B', null);
  return { root, home: tmp.dir(`${prefix}-home-`), tree: 'B' };
}

/** Runs `sightline index` to the end, or to `kill`, watched by a killer thread (killer.mjs). */
async function runIndex(chain: Chain, kill: KillPoint | null) {
  const { root, home } = chain;
  const child = spawn(process.execPath, [CLI, 'index', root, '--json'], { env: { PATH: process.env.PATH, SIGHTLINE_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killer = new Worker(new URL('./killer.mjs', import.meta.url), { workerData: { dbPath: dbPathOf(chain), pid: child.pid, kill } });
  const timeline = new Promise<{ phase: string; at: number }[]>((resolve) => killer.once('message', resolve));
  const code = await exited;
  killer.postMessage('stop');
  const seen = await timeline;
  await killer.terminate();
  return { killed: child.signalCode === 'SIGKILL', code, stderr, timeline: seen };
}

function withDb<T>(dbPath: string, fn: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(soundness(db)).toEqual(SOUND);
    return fn(db);
  } finally {
    db.close();
  }
}

/** Builds the reference database from the two clean indexes, after checking each against the content it came from. */
function buildReference(cleanDbs: Record<Tree, string>): void {
  referenceDb = path.join(tmp.dir('sightline-crash-ref-'), 'reference.db');
  const db = new Database(referenceDb);
  db.exec('CREATE TABLE tree_files (tree TEXT NOT NULL, path TEXT NOT NULL, digest TEXT NOT NULL)');
  for (const [tree, dbPath] of Object.entries(cleanDbs)) {
    withDb(dbPath, verifyVersions);
    db.prepare('ATTACH ? AS clean').run(dbPath);
    db.exec("CREATE VIRTUAL TABLE temp.clean_terms USING fts5vocab(clean, 'chunks_fts', 'instance')");
    const from = holdings('clean', 'temp.clean_terms');
    for (const h of HOLDINGS) {
      if (tree === 'A') db.exec(`CREATE TABLE ${h} AS ${from[h]} LIMIT 0`);
      db.exec(`INSERT INTO ${h} ${from[h]} EXCEPT SELECT * FROM ${h}`);
    }
    db.prepare('INSERT INTO tree_files SELECT ?, path, digest FROM clean.files').run(tree);
    db.exec('DROP TABLE temp.clean_terms');
    db.exec('DETACH clean');
  }
  db.close();
}

/**
 * Differences from the clean index, for every version this index holds, as
 * `holding: n rows more|fewer` lines. `complete`: a finished pass, so every
 * chunk has its vector and the files are exactly those of `tree`.
 */
function differences(db: Database.Database, tree: Tree, complete: boolean): string[] {
  db.prepare('ATTACH ? AS ref').run(referenceDb);
  db.exec("CREATE VIRTUAL TABLE temp.main_terms USING fts5vocab(main, 'chunks_fts', 'instance')");
  try {
    const mine = holdings('main', 'temp.main_terms');
    const n = (sql: string) => db.prepare(`SELECT count(*) FROM (${sql})`).pluck().get() as number;
    const problems: string[] = [];
    for (const h of HOLDINGS) {
      const held = `SELECT * FROM ref.${h} WHERE (path, digest) IN (SELECT path, digest FROM main.files)`;
      const more = n(`${mine[h]} EXCEPT ${held}`);
      // A vector may be pending after a kill; a chunk row, term or symbol may not.
      const fewer = h === 'vectors' && !complete ? 0 : n(`${held} EXCEPT ${mine[h]}`);
      // EXCEPT compares sets: equal counts rule out a row held twice.
      const counts = more + fewer === 0 && !(h === 'vectors' && !complete) ? n(mine[h]) - n(held) : 0;
      if (more || fewer || counts) problems.push(`${h}: ${more} rows no clean index holds, ${fewer} missing, ${counts} duplicated`);
    }
    if (complete) {
      const treeFiles = `SELECT path, digest FROM ref.tree_files WHERE tree = '${tree}'`;
      const files = n(`SELECT path, digest FROM main.files EXCEPT ${treeFiles}`) + n(`${treeFiles} EXCEPT SELECT path, digest FROM main.files`);
      if (files) problems.push(`files: ${files} differ from the clean index of tree ${tree}`);
    }
    return problems;
  } finally {
    db.exec('DROP TABLE temp.main_terms');
    db.exec('DETACH ref');
  }
}

/** After a kill: sound, one version per file, reported as interrupted. Returns the phase it died in. */
function verifyAfterKill(chain: Chain): string {
  const phase = withDb(dbPathOf(chain), (db) => {
    expect(differences(db, chain.tree, false)).toEqual([]);
    return (db.prepare('SELECT phase FROM index_job').pluck().get() as string | null) ?? 'starting';
  });
  const repo = openRepo(chain.root, chain.home);
  try {
    expect(jobStatus(repo)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted/) });
  } finally {
    repo.close();
  }
  return phase;
}

function expectMatchesClean(chain: Chain): void {
  withDb(dbPathOf(chain), (db) => expect(differences(db, chain.tree, true)).toEqual([]));
}

beforeAll(async () => {
  // Side by side, as the chains will run: the walk window is measured under the same load.
  const clean = async (t: Tree) => {
    const chain = newChain('sightline-crash-clean');
    if (t === 'A') applyTree(chain.root, (chain.tree = 'A'), 'B');
    const run = await runIndex(chain, null);
    expect(run.code, run.stderr).toBe(0);
    const walkStart = run.timeline.find((e) => e.phase === 'walking');
    const walkEnd = run.timeline.find((e) => e.phase !== 'walking');
    if (walkStart && walkEnd) walkMs = Math.max(walkMs, walkEnd.at - walkStart.at);
    for (const e of run.timeline) phasesSeen.add(e.phase);
    return dbPathOf(chain);
  };
  const [A, B] = await Promise.all([clean('A'), clean('B')]);
  buildReference({ A, B });
}, 180_000);
afterAll(() => tmp.cleanup(), 120_000);

describe('kill -9 during indexing', () => {
  it(`survives ${CHAINS * KILLS_PER_CHAIN} SIGKILLs across walk, write and embed, and every next run completes to the clean index`, async () => {
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

    /** A run that completes is checked against the clean index, and the chain's tree switches version. */
    const completed = (chain: Chain) => {
      expectMatchesClean(chain);
      completions++;
      const next: Tree = chain.tree === 'A' ? 'B' : 'A';
      applyTree(chain.root, next, chain.tree);
      chain.tree = next;
    };

    /** Kills runs in turn in each target phase, each run resuming the last, until it has its share of kills. */
    const runChain = async (chain: Chain) => {
      let kills = 0;
      let killsOnTree = 0;
      for (let attempt = 0; kills < KILLS_PER_CHAIN; attempt++) {
        expect(attempt, 'kills keep missing their point').toBeLessThan(4 * KILLS_PER_CHAIN);
        const run = await runIndex(chain, killsOnTree === 3 ? null : killAt(TARGETS[attempt % TARGETS.length]!));
        if (run.killed) {
          const phase = verifyAfterKill(chain);
          killsByPhase[phase] = (killsByPhase[phase] ?? 0) + 1;
          kills++;
          killsOnTree++;
        } else {
          // Let finish, or it finished before its point came: either way a resume, checked as one.
          expect(run.code, run.stderr).toBe(0);
          completed(chain);
          killsOnTree = 0;
        }
      }
      const run = await runIndex(chain, null);
      expect(run.code, run.stderr).toBe(0);
      completed(chain);
    };

    await Promise.all(Array.from({ length: CHAINS }, () => runChain(newChain('sightline-crash'))));
    const kills = Object.values(killsByPhase).reduce((a, b) => a + b, 0);
    process.stderr.write(
      `kill -9: survived ${kills} kills (${Object.entries(killsByPhase).map(([p, n]) => `${p} ${n}`).join(', ')}); ` +
        `${completions} resumed runs matched the clean index; phases reported: ${[...phasesSeen].join(', ')}; ${Date.now() - started} ms\n`,
    );
    expect(kills).toBe(CHAINS * KILLS_PER_CHAIN);
    // Kills landed in the walk and in the writes, not only in one of them (and in embedding, when the pass embeds).
    expect(killsByPhase.walking ?? 0).toBeGreaterThan(0);
    expect((killsByPhase.writing ?? 0) + (killsByPhase.parsing ?? 0)).toBeGreaterThan(0);
    if (phasesSeen.has('embedding')) expect(killsByPhase.embedding ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
