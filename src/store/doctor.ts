/**
 * Consistency checks over an index database, opened read-only: looking never
 * migrates, rebuilds or repairs. Each check says what it found and, when
 * something is wrong, the command that repairs it.
 */
import { MAX_TERM_STATS_DRIFT, termSegments, termStatsDrift } from './chunks.js';
import { isCorruption } from '../errors/index.js';
import { ioError, type Db } from './db.js';
import { JobTable, type JobRecord, type LockHolder } from './jobs.js';
import { missingTables } from './recover.js';
import { APP_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { openSqlite } from './sqlite.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** The command that repairs it, when `ok` is false. */
  fix?: string;
}

const REBUILD = 'sightline index --force';

function count(db: Db, sql: string): number {
  return db.prepare(sql).pluck().get() as number;
}

/** A check that passes when the query counts nothing. */
function none(db: Db, name: string, sql: string, what: string): Check {
  const n = count(db, sql);
  return n === 0 ? { name, ok: true, detail: `no ${what}` } : { name, ok: false, detail: `${n} ${what}`, fix: REBUILD };
}

/** Chunks without a vector are pending: the next pass embeds them. Only a problem when an embedder is configured. */
function vectorCoverage(db: Db, expectVectors: boolean): Check {
  const name = 'vector coverage';
  const chunks = count(db, 'SELECT count(*) FROM chunks');
  const covered = count(db, 'SELECT count(*) FROM vectors WHERE chunk_id IN (SELECT id FROM chunks)');
  const detail = `${covered} of ${chunks} chunks have a vector`;
  if (!expectVectors) return { name, ok: true, detail: `${detail}; no embedder configured, so keyword retrieval only` };
  return covered === chunks ? { name, ok: true, detail } : { name, ok: false, detail: `${detail}; the rest are pending`, fix: 'sightline index' };
}

export interface Inspection {
  schemaVersion: number | null;
  checks: Check[];
  job?: JobRecord;
  holder?: LockHolder;
  /** The skip ledger's reasons, one per entry, when its table could be read. */
  skipReasons?: string[];
}

/** The schema check; the table checks run only when it passes (other versions have other tables). */
function checkSchema(db: Db): { version: number | null; check: Check } {
  const name = 'schema version';
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get();
  const meta = hasMeta ? Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value])) : {};
  if (meta.app !== APP_ID) return { version: null, check: { name, ok: false, detail: 'not a sightline index', fix: REBUILD } };
  const version = Number(meta.schema_version);
  if (version === SCHEMA_VERSION) return { version, check: { name, ok: true, detail: `schema ${version}, as this build expects` } };
  if (version > SCHEMA_VERSION) {
    return { version, check: { name, ok: false, detail: `schema ${version} is newer than this build's ${SCHEMA_VERSION}: indexing would rebuild it; upgrade sightline, or rebuild`, fix: REBUILD } };
  }
  let migrates = true;
  for (let v = version; v < SCHEMA_VERSION; v++) migrates &&= MIGRATIONS[v] !== undefined;
  return migrates
    ? { version, check: { name, ok: true, detail: `schema ${version}: migrates to ${SCHEMA_VERSION} when next opened (tables not checked until then)` } }
    : { version, check: { name, ok: false, detail: `schema ${version} has no migration to ${SCHEMA_VERSION}: the next index rebuilds it`, fix: 'sightline index' } };
}

/** Inspects the database at `dbPath` without writing to it; `expectVectors` when an embedder is configured. */
export function inspectIndex(dbPath: string, expectVectors: boolean): Inspection {
  let db: Db;
  try {
    db = openSqlite(dbPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    return { schemaVersion: null, checks: [{ name: 'integrity', ok: false, detail: `cannot be opened: ${(err as Error).message}`, fix: REBUILD }] };
  }
  try {
    const schema = checkSchema(db);
    if (schema.version !== SCHEMA_VERSION) return { schemaVersion: schema.version, checks: [schema.check] };
    const missing = missingTables(db);
    if (missing) return { schemaVersion: schema.version, checks: [schema.check, { name: 'tables', ok: false, detail: `${missing}: the index is damaged`, fix: REBUILD }] };
    const jobs = new JobTable(db);
    const checks = [schema.check, ...checkIndex(db, expectVectors)];
    const skipReasons = db.prepare('SELECT reason FROM skipped').pluck().all() as string[];
    return { schemaVersion: schema.version, checks, job: jobs.job(), holder: jobs.holder(), skipReasons };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (isCorruption(err)) {
      return { schemaVersion: null, checks: [{ name: 'integrity', ok: false, detail: `not a readable database (${(err as Error).message})`, fix: REBUILD }] };
    }
    // Even reading a WAL database needs its -shm file beside it: a read-only directory refuses that.
    if (code?.startsWith('SQLITE_CANTOPEN')) throw ioError(dbPath, err);
    throw err;
  } finally {
    db.close();
  }
}

function checkIndex(db: Db, expectVectors: boolean): Check[] {
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  const checks: Check[] = [
    integrity.length === 1 && integrity[0] === 'ok'
      ? { name: 'integrity', ok: true, detail: 'PRAGMA integrity_check: ok' }
      : { name: 'integrity', ok: false, detail: `PRAGMA integrity_check: ${integrity.slice(0, 3).join('; ')}`, fix: REBUILD },
  ];
  // The rest reads the tables; on a damaged file their answers mean little.
  if (!checks[0]!.ok) return checks;
  checks.push(
    none(db, 'duplicate paths', 'SELECT count(*) - count(DISTINCT path) FROM files', 'paths stored twice'),
    none(db, 'orphan chunks', 'SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)', 'chunks without a file'),
    none(db, 'orphan symbols', 'SELECT count(*) FROM symbols WHERE file_id NOT IN (SELECT id FROM files)', 'symbols without a file'),
    // Contentless FTS5 keeps one docsize row per indexed rowid: the way to see its rows.
    none(db, 'orphan terms', 'SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)', 'FTS rows without a chunk'),
    none(db, 'unsearchable chunks', 'SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)', 'chunks without FTS rows'),
    // A file's token count is the sum of its chunks' counts: a file whose chunks do not add up lost some.
    none(
      db,
      'files without chunks',
      'SELECT count(*) FROM files f WHERE f.tokens <> (SELECT coalesce(sum(c.tokens), 0) FROM chunks c WHERE c.file_id = f.id)',
      'files missing some or all of their chunks',
    ),
  );
  const drift = termStatsDrift(db);
  const ok = drift >= 0 && drift <= MAX_TERM_STATS_DRIFT;
  const why = drift > MAX_TERM_STATS_DRIFT ? ' (deleted chunks): scores drift from a fresh index' : drift < 0 ? ': terms missing' : '';
  checks.push({
    name: 'term statistics',
    ok,
    detail: `BM25 counts ${Math.round(Math.abs(drift) * 100)}% ${drift < 0 ? 'fewer' : 'more'} rows than the index holds${why}; ${termSegments(db)} FTS segments`,
    ...(ok ? {} : { fix: 'sightline index (an index pass rewrites the terms)' }),
  });
  checks.push(
    none(db, 'orphan vectors', 'SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)', 'vectors without a chunk'),
    vectorCoverage(db, expectVectors),
  );
  return checks;
}
