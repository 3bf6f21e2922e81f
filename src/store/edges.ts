/**
 * The code graph's rows. `edges` holds the references extracted from one file version (written
 * and dropped with the file); `edge_targets` holds what each reference resolved to, possibly
 * several candidates, each with a confidence. An edge is `pending` until the resolver has looked
 * at it; writing or removing a file marks pending exactly the edges whose answer may change, in
 * the same transaction, so a crash before resolution leaves work to resume, never a wrong answer.
 */
import type { ParsedRef, RefKind } from '../parse/types.js';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './db.js';

type Statement = BetterSqlite3.Statement<unknown[]>;

export type EdgeStatus = 'pending' | 'resolved' | 'ambiguous' | 'unresolved';
export type Confidence = 'exact' | 'import' | 'name';

/**
 * Kinds, statuses and confidences are stored as their index here (a byte, not a word, in every
 * row and index entry). Append only: the numbers are in every index on disk.
 */
const KINDS: readonly RefKind[] = ['call', 'import', 'type', 'inherit', 'namespace'];
const STATUSES: readonly EdgeStatus[] = ['pending', 'resolved', 'ambiguous', 'unresolved'];
const CONFIDENCES: readonly Confidence[] = ['exact', 'import', 'name'];

/** The stored number of a kind (-1, matching nothing, for a kind no parser writes). */
function kindCode(kind: string): number {
  return KINDS.indexOf(kind as RefKind);
}
const IMPORT = kindCode('import');
const INHERIT = kindCode('inherit');
const NAMESPACE = kindCode('namespace');
const PENDING = STATUSES.indexOf('pending');
const RESOLVED = STATUSES.indexOf('resolved');
const UNRESOLVED = STATUSES.indexOf('unresolved');

/** A reference as the parser extracted it; `from` indexes the file version's symbols (-1 at top level). */
export type EdgeRecord = ParsedRef;

export interface StoredEdge extends Omit<ParsedRef, 'kind' | 'from'> {
  id: number;
  fileId: number;
  /** Id of the enclosing definition; null at top level. */
  fromSymbol: number | null;
  kind: string;
  status: EdgeStatus;
  /** How many candidates the resolver found (more than it stores when ambiguous past the cap). */
  candidates: number;
}

export interface EdgeTarget {
  fileId: number;
  symbolId: number | null;
  confidence: Confidence;
}

export interface StoredTarget extends EdgeTarget {
  edgeId: number;
}

/** A definition as seen from an edge. */
export interface LinkedSymbol {
  id: number;
  name: string;
  qualified: string;
  kind: string;
  startLine: number;
  endLine: number;
  signature: string;
}

/** One reference with both of its ends: where it is written, and what it resolved to (if anything). */
export interface StoredLink {
  edgeId: number;
  kind: string;
  /** The name as written, and what preceded it. */
  name: string;
  qualifier: string | null;
  module: string | null;
  line: number;
  status: EdgeStatus;
  candidates: number;
  sourceFile: number;
  sourcePath: string;
  /** The enclosing definition of the reference; null at file level. */
  source: LinkedSymbol | null;
  /** Null when the reference did not resolve. */
  targetFile: number | null;
  targetPath: string | null;
  /** Null for a module-level target (an import of the module itself). */
  target: LinkedSymbol | null;
  confidence: Confidence | null;
}

/** A reference into a definition as `locate` lists it: where it is written, how it resolved, and the definition it is written in. */
export type ReferenceInto = Pick<StoredLink, 'kind' | 'line' | 'status' | 'candidates' | 'sourceFile' | 'sourcePath' | 'confidence'> & {
  /** The qualified name of the definition the reference is written in; null at file level. */
  sourceSymbol: string | null;
};

/** LinkedSymbol's fields and their symbols-table columns, read for both ends of a link under a prefix. */
const SYMBOL_COLUMNS: Record<keyof LinkedSymbol, string> = {
  id: 'id',
  name: 'name',
  qualified: 'qualified',
  kind: 'kind',
  startLine: 'start_line',
  endLine: 'end_line',
  signature: 'signature',
};

function symbolSelect(table: string, prefix: string): string {
  return Object.entries(SYMBOL_COLUMNS)
    .map(([field, column]) => `${table}.${column} AS ${prefix}_${field}`)
    .join(', ');
}

const LINK_SELECT = `SELECT e.id AS edgeId, e.kind, r.name, r.qualifier, r.module, e.line, e.status, e.candidates,
  e.file_id AS sourceFile, sf.path AS sourcePath, t.file_id AS targetFile, tf.path AS targetPath, t.confidence,
  ${symbolSelect('ss', 's')}, ${symbolSelect('ts', 't')}`;
const LINK_JOINS = `JOIN refs r ON r.id = e.ref_id JOIN files sf ON sf.id = e.file_id LEFT JOIN symbols ss ON ss.id = e.from_symbol
  LEFT JOIN files tf ON tf.id = t.file_id LEFT JOIN symbols ts ON ts.id = t.symbol_id`;

/** A LINK_SELECT row: the link's own fields (kind, status and confidence as stored numbers), and each end's symbol columns under `s_` / `t_`. */
type LinkRow = Omit<StoredLink, 'source' | 'target' | 'kind' | 'status' | 'confidence'> & {
  kind: number;
  status: number;
  confidence: number | null;
} & Record<string, unknown>;

/** The symbol at one end of a link row; null when that end is a file (or nothing). */
function symbolAt(row: LinkRow, prefix: 's' | 't'): LinkedSymbol | null {
  if (row[`${prefix}_id`] === null) return null;
  return Object.fromEntries(Object.keys(SYMBOL_COLUMNS).map((field) => [field, row[`${prefix}_${field}`]])) as unknown as LinkedSymbol;
}

function linkFromRow(row: LinkRow): StoredLink {
  const { edgeId, kind, name, qualifier, module, line, status, candidates, sourceFile, sourcePath, targetFile, targetPath, confidence } = row;
  return {
    edgeId,
    kind: KINDS[kind]!,
    name,
    qualifier,
    module,
    line,
    status: STATUSES[status]!,
    candidates,
    sourceFile,
    sourcePath,
    source: symbolAt(row, 's'),
    targetFile,
    targetPath,
    target: symbolAt(row, 't'),
    confidence: confidence === null ? null : CONFIDENCES[confidence]!,
  };
}

/** Columns read into a StoredEdge (through `edgeFromRaw`, in this order), from `edges e JOIN refs r`. */
const EDGE_COLUMNS = `e.id, e.file_id, e.from_symbol, e.kind, r.name, r.qualifier, r.module, r.alias, e.line, e.status, e.candidates`;
const EDGE_FROM = 'edges e JOIN refs r ON r.id = e.ref_id';

/**
 * An EDGE_COLUMNS row read raw (an array): resolution reads every edge of a tree, and an object
 * per row from SQLite, then another with the kind and status named, cost it twice the time.
 */
function edgeFromRaw(r: unknown[]): StoredEdge {
  return {
    id: r[0] as number,
    fileId: r[1] as number,
    fromSymbol: r[2] as number | null,
    kind: KINDS[r[3] as number]!,
    name: r[4] as string,
    qualifier: r[5] as string | null,
    module: r[6] as string | null,
    alias: r[7] as string | null,
    line: r[8] as number,
    status: STATUSES[r[9] as number]!,
    candidates: r[10] as number,
  };
}

/** A kinds filter bound as `@kinds`: the kinds' codes as JSON, or null for every kind. */
function kindParam(kinds?: string[]): { kinds: string | null } {
  return { kinds: kinds?.length ? JSON.stringify(kinds.map(kindCode)) : null };
}
const KIND_FILTER = 'AND (@kinds IS NULL OR e.kind IN (SELECT value FROM json_each(@kinds)))';

/** Names that make an unresolved import worth another look once `path` exists: its stem and its directory. */
export function importKeys(path: string): string[] {
  const parts = path.split('/');
  const base = parts.pop() ?? path;
  const stem = base.replace(/\.[^.]+$/, '');
  const keys = new Set([stem]);
  if (parts.length > 0) keys.add(parts[parts.length - 1]!);
  return [...keys].filter((k) => k.length > 0);
}

export class EdgeTable {
  private readonly insert;
  private readonly findRef;
  private readonly insertRef;
  private readonly ofFileKindStmt;
  private readonly pendingStmt;
  private readonly pendingCountStmt;
  private readonly anyTargetsStmt;
  private readonly answeredKindsStmt;
  private readonly targetsStmt;
  private readonly clearTargets;
  private readonly insertTarget;
  private readonly setStatus;
  private readonly markTargeting;
  private readonly markNamed;
  private readonly markImports;
  private readonly importsInto;
  private readonly dropUnused;
  /** Import edge id → the path its targets led to, for imports whose targets went with a replaced or removed file. */
  private readonly dropped = new Map<number, string>();
  /** A file's edges went (replaced or removed) since refs were last tidied, so some refs may be unused. */
  private refsMayBeUnused = false;
  /**
   * Whether resolution has settled any edge, as last known, and the `data_version` it was known
   * at (another connection's commit moves it). Until one is settled (a cold index before its
   * first resolution) every edge is pending already and there is nothing to invalidate.
   */
  private settled: { any: boolean; at: number } | null = null;
  private readonly anySettled;
  private readonly dataVersion;
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT INTO edges(file_id, from_symbol, kind, ref_id, line, status) VALUES (?, ?, ?, ?, ?, ?)');
    // `IS`, not `=`: a NULL qualifier, module or alias is a value here (an alias of '' is another).
    this.findRef = db
      .prepare('SELECT id FROM refs WHERE name = ? AND kind = ? AND qualifier IS ? AND module IS ? AND alias IS ?')
      .pluck();
    this.insertRef = db.prepare('INSERT INTO refs(name, kind, qualifier, module, alias) VALUES (?, ?, ?, ?, ?)');
    // Each edge's stored targets ride along (NULLs for none), in the resolver's order.
    this.ofFileKindStmt = db
      .prepare(
        `SELECT ${EDGE_COLUMNS}, t.file_id, t.symbol_id, t.confidence FROM ${EDGE_FROM} LEFT JOIN edge_targets t ON t.edge_id = e.id
           WHERE e.file_id = ? AND e.kind = ? ORDER BY e.line, e.id, t.seq`,
      )
      .raw();
    // By id from where the last page ended: a walk along the table that stops at the page's end, whatever was answered meanwhile.
    this.pendingStmt = db
      .prepare(`SELECT ${EDGE_COLUMNS} FROM ${EDGE_FROM} WHERE e.id > ? AND e.status = ${PENDING} AND e.kind = ? ORDER BY e.id LIMIT ?`)
      .raw();
    this.pendingCountStmt = db.prepare(`SELECT count(*) FROM edges WHERE status = ${PENDING}`).pluck();
    this.anyTargetsStmt = db.prepare('SELECT EXISTS (SELECT 1 FROM edge_targets)').pluck();
    this.answeredKindsStmt = db.prepare(`SELECT DISTINCT kind FROM edges WHERE file_id = ? AND status != ${PENDING}`).pluck();
    this.targetsStmt = db.prepare('SELECT edge_id AS edgeId, file_id AS fileId, symbol_id AS symbolId, confidence FROM edge_targets WHERE edge_id = ? ORDER BY seq');
    this.clearTargets = db.prepare('DELETE FROM edge_targets WHERE edge_id = ?');
    this.insertTarget = db.prepare('INSERT INTO edge_targets(edge_id, seq, file_id, symbol_id, confidence) VALUES (?, ?, ?, ?, ?)');
    this.setStatus = db.prepare('UPDATE edges SET status = ?, candidates = ? WHERE id = ?');
    this.markTargeting = db.prepare(
      `UPDATE edges SET status = ${PENDING} WHERE status != ${PENDING} AND id IN (SELECT edge_id FROM edge_targets WHERE file_id = ?)`,
    );
    this.importsInto = db
      .prepare(`SELECT DISTINCT t.edge_id FROM edge_targets t JOIN edges e ON e.id = t.edge_id WHERE t.file_id = ? AND e.kind = ${IMPORT}`)
      .pluck();
    this.markNamed = db.prepare(
      `UPDATE edges SET status = ${PENDING} WHERE ref_id IN (SELECT id FROM refs WHERE name = ?) AND status != ${PENDING}`,
    );
    // Driven by the few unresolved imports (a partial index), each module looked up by its ref: not a scan of every ref.
    this.markImports = db.prepare(
      `UPDATE edges SET status = ${PENDING} WHERE status = ${UNRESOLVED} AND kind = ${IMPORT}
         AND instr((SELECT module FROM refs WHERE refs.id = edges.ref_id), ?) > 0`,
    );
    this.dropUnused = db.prepare('DELETE FROM refs WHERE NOT EXISTS (SELECT 1 FROM edges e WHERE e.ref_id = refs.id)');
    this.anySettled = db.prepare(`SELECT EXISTS (SELECT 1 FROM edges WHERE status != ${PENDING})`).pluck();
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** True when some edge is not pending, so a write may have to mark edges pending again. */
  private mayInvalidate(): boolean {
    const at = this.dataVersion.get() as number;
    if (this.settled?.at !== at) this.settled = { any: this.anySettled.get() === 1, at };
    return this.settled.any;
  }

  /** The id of a reference's text, stored once however many edges write it. */
  private refId(e: EdgeRecord, kind: number): number {
    const found = this.findRef.get(e.name, kind, e.qualifier, e.module, e.alias) as number | undefined;
    return found ?? Number(this.insertRef.run(e.name, kind, e.qualifier, e.module, e.alias).lastInsertRowid);
  }

  /**
   * Inserts a file version's references, pending resolution (a namespace declaration has nothing
   * to resolve). `symbolIds[i]` is the id of the version's i-th symbol.
   */
  addAll(fileId: number, edges: EdgeRecord[], symbolIds: number[]): void {
    // A file names the same reference again and again (three edges a reference on the TypeScript SDK):
    // each is looked up once. Kept for this call only, inside the caller's transaction, so no id can go stale.
    const refs = new Map<string, number>();
    for (const e of edges) {
      const from = e.from >= 0 ? (symbolIds[e.from] ?? null) : null;
      const kind = kindCode(e.kind);
      const key = JSON.stringify([kind, e.name, e.qualifier, e.module, e.alias]);
      let ref = refs.get(key);
      if (ref === undefined) refs.set(key, (ref = this.refId(e, kind)));
      this.insert.run(fileId, from, kind, ref, e.line, kind === NAMESPACE ? RESOLVED : PENDING);
      if (kind === NAMESPACE && this.settled) this.settled.any = true;
    }
  }

  /** Drops the reference texts no edge writes any more (they only take space), if edges went since the last time. Call inside a transaction. */
  dropUnusedRefs(): void {
    if (!this.refsMayBeUnused) return;
    this.dropUnused.run();
    this.refsMayBeUnused = false;
  }

  /**
   * Before a file's version is replaced or removed: everything that resolved into it must be
   * looked at again (its symbols are about to get new ids or vanish).
   */
  invalidateTargetsIn(fileId: number, path: string): void {
    this.refsMayBeUnused = true;
    for (const id of this.importsInto.all(fileId) as number[]) this.dropped.set(id, path);
    this.markTargeting.run(fileId);
  }

  /**
   * The path an import's targets led to before they went with a replaced or removed file (kept
   * in memory until the next resolution takes them: after a crash that pass just looks wider).
   */
  takeDropped(): Map<number, string> {
    const out = new Map(this.dropped);
    this.dropped.clear();
    return out;
  }

  /** After a version is written: references elsewhere to the names it defines may now resolve differently. */
  invalidateNames(names: Iterable<string>): void {
    if (!this.mayInvalidate()) return;
    for (const n of new Set(names)) this.markNamed.run(n);
  }

  /** After a new path appears: unresolved imports that mention its stem or directory get another try. */
  invalidateImportsFor(path: string): void {
    if (!this.mayInvalidate()) return;
    for (const key of importKeys(path)) this.markImports.run(key);
  }

  /** A file's edges of one kind in line order, each with its stored targets (none while pending, unless it was answered before). */
  ofFileWithTargets(fileId: number, kind: RefKind): { edge: StoredEdge; targets: StoredTarget[] }[] {
    const out: { edge: StoredEdge; targets: StoredTarget[] }[] = [];
    for (const r of this.ofFileKindStmt.all(fileId, kindCode(kind)) as unknown[][]) {
      let last = out[out.length - 1];
      if (last?.edge.id !== r[0]) out.push((last = { edge: edgeFromRaw(r), targets: [] }));
      if (r[11] !== null) last.targets.push({ edgeId: last.edge.id, fileId: r[11] as number, symbolId: r[12] as number | null, confidence: CONFIDENCES[r[13] as number]! });
    }
    return out;
  }

  /** Every declared package / namespace, by file. */
  namespaces(): { fileId: number; name: string }[] {
    return this.db.prepare(`SELECT e.file_id AS fileId, r.name FROM ${EDGE_FROM} WHERE e.kind = ${NAMESPACE}`).all() as { fileId: number; name: string }[];
  }

  /** Up to `limit` pending edges of one kind with ids above `afterId`, in id order: the resolver reads them a page at a time. */
  pendingPage(kind: RefKind, afterId: number, limit: number): StoredEdge[] {
    return (this.pendingStmt.all(afterId, kindCode(kind), limit) as unknown[][]).map(edgeFromRaw);
  }

  /** The kinds of a file's answered (not pending) edges, read as numbers rather than as edges. */
  answeredKinds(fileId: number): Set<RefKind> {
    return new Set((this.answeredKindsStmt.all(fileId) as number[]).map((k) => KINDS[k]!));
  }

  /** References written but not resolved yet: a pass is between its writes and its resolution, or was stopped there. */
  pendingCount(): number {
    return this.pendingCountStmt.get() as number;
  }

  /** Whether any edge has stored targets: until one does (a first resolution), an edge answered has none to replace. */
  anyTargets(): boolean {
    return this.anyTargetsStmt.get() === 1;
  }


  /**
   * Records an edge's outcome and its targets, replacing those it had unless `fresh` says it had
   * none (a lookup per edge, a third of the write). Call inside a transaction.
   */
  resolve(edgeId: number, status: Exclude<EdgeStatus, 'pending'>, candidates: number, targets: EdgeTarget[], fresh = false): void {
    if (!fresh) this.clearTargets.run(edgeId);
    targets.forEach((t, seq) => this.insertTarget.run(edgeId, seq, t.fileId, t.symbolId, CONFIDENCES.indexOf(t.confidence)));
    this.setStatus.run(STATUSES.indexOf(status), candidates, edgeId);
    if (this.settled) this.settled.any = true;
  }

  targetsOf(edgeId: number): StoredTarget[] {
    return (this.targetsStmt.all(edgeId) as (Omit<StoredTarget, 'confidence'> & { confidence: number })[]).map((t) => ({
      ...t,
      confidence: CONFIDENCES[t.confidence]!,
    }));
  }

  /** References that resolved to any of these definitions. */
  linksIntoSymbols(symbolIds: number[], kinds?: string[]): StoredLink[] {
    return this.links('t.symbol_id', symbolIds, kinds);
  }

  /**
   * References that resolved to any of these definitions, as `locate` lists them (ReferenceInto),
   * without the columns of both symbols and the target that `links` reads for the graph's walks:
   * for a name used in hundreds of places those were most of the read (sphinx's `BuildEnvironment`,
   * 334 links: 0.7 ms against 3.6).
   */
  referencesInto(symbolIds: number[]): ReferenceInto[] {
    if (symbolIds.length === 0) return [];
    const rows = this.prepared(
      `SELECT e.kind, e.line, e.status, e.candidates, e.file_id, sf.path, t.confidence, ss.qualified
       FROM edge_targets t JOIN edges e ON e.id = t.edge_id JOIN files sf ON sf.id = e.file_id LEFT JOIN symbols ss ON ss.id = e.from_symbol
       WHERE t.symbol_id IN (SELECT value FROM json_each(?)) ORDER BY sf.path, e.line, e.id, t.seq`,
    )
      .raw()
      .all(JSON.stringify(symbolIds)) as [number, number, number, number, number, string, number, string | null][];
    return rows.map(([kind, line, status, candidates, sourceFile, sourcePath, confidence, sourceSymbol]) => ({
      kind: KINDS[kind]!,
      line,
      status: STATUSES[status]!,
      candidates,
      sourceFile,
      sourcePath,
      confidence: CONFIDENCES[confidence]!,
      sourceSymbol,
    }));
  }

  /** References that resolved into any of these files (to one of their definitions, or to the module). */
  linksIntoFiles(fileIds: number[], kinds?: string[]): StoredLink[] {
    return this.links('t.file_id', fileIds, kinds);
  }

  /** References written in a file (between two lines, inclusive), resolved or not. */
  linksFrom(fileId: number, startLine = 1, endLine = Number.MAX_SAFE_INTEGER, kinds?: string[]): StoredLink[] {
    const rows = this.prepared(
      `${LINK_SELECT} FROM edges e LEFT JOIN edge_targets t ON t.edge_id = e.id ${LINK_JOINS}
       WHERE e.file_id = ? AND e.line BETWEEN ? AND ? ${KIND_FILTER} ORDER BY e.line, e.id, t.seq`,
    ).all(fileId, startLine, endLine, kindParam(kinds)) as LinkRow[];
    return rows.map(linkFromRow);
  }

  /** Links whose target `column` is one of `ids`: one statement for any number of ids, as JSON. */
  private links(column: 't.symbol_id' | 't.file_id', ids: number[], kinds?: string[]): StoredLink[] {
    if (ids.length === 0) return [];
    const rows = this.prepared(
      `${LINK_SELECT} FROM edge_targets t JOIN edges e ON e.id = t.edge_id ${LINK_JOINS}
       WHERE ${column} IN (SELECT value FROM json_each(?)) ${KIND_FILTER} ORDER BY sf.path, e.line, e.id, t.seq`,
    ).all(JSON.stringify(ids), kindParam(kinds)) as LinkRow[];
    return rows.map(linkFromRow);
  }

  /**
   * A statement prepared on first use and kept: the graph's questions, which a verb that reads no
   * graph never asks, and whose lists of ids go in as JSON, so each one's text is fixed.
   */
  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /**
   * The methods these methods override: a method of a class's resolved base (extends,
   * implements, embeds, mixes in) with the same name. One level; call again to climb.
   */
  overridden(methodIds: number[]): { method: number; base: number; methodName: string; baseName: string; path: string; line: number }[] {
    if (methodIds.length === 0) return [];
    return this.prepared(
      `SELECT DISTINCT m.id AS method, bm.id AS base, m.qualified AS methodName, bm.qualified AS baseName, mf.path AS path, m.start_line AS line
       FROM symbols m JOIN files mf ON mf.id = m.file_id
       JOIN symbols c ON c.file_id = m.file_id AND c.qualified || '.' || m.name = m.qualified
       JOIN edges e ON e.from_symbol = c.id AND e.kind = ${INHERIT}
       JOIN edge_targets t ON t.edge_id = e.id
       JOIN symbols b ON b.id = t.symbol_id
       JOIN symbols bm ON bm.file_id = b.file_id AND bm.name = m.name AND bm.qualified = b.qualified || '.' || m.name
       WHERE m.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(methodIds)) as { method: number; base: number; methodName: string; baseName: string; path: string; line: number }[];
  }

  /** Resolved references between different files, counted per (source file, target file). */
  fileLinks(): { from: number; to: number; count: number }[] {
    return this.db
      .prepare(
        `SELECT e.file_id AS "from", t.file_id AS "to", count(DISTINCT e.id) AS count
         FROM edge_targets t JOIN edges e ON e.id = t.edge_id
         WHERE e.file_id != t.file_id AND e.status = ${RESOLVED} GROUP BY e.file_id, t.file_id`,
      )
      .all() as { from: number; to: number; count: number }[];
  }

  /** Definitions under a path prefix referenced from the most other files (resolved, non-import edges). */
  mostReferenced(limit: number, pathPrefix: string): (LinkedSymbol & { path: string; files: number })[] {
    return this.db
      .prepare(
        `SELECT ts.id, ts.name, ts.qualified, ts.kind, ts.start_line AS startLine, ts.end_line AS endLine, ts.signature, tf.path, r.files
         FROM (SELECT t.symbol_id AS symbol_id, count(DISTINCT e.file_id) AS files
               FROM edge_targets t JOIN edges e ON e.id = t.edge_id JOIN files tf ON tf.id = t.file_id
               WHERE t.symbol_id IS NOT NULL AND e.file_id != t.file_id AND e.status = ${RESOLVED} AND e.kind != ${IMPORT}
                 AND substr(tf.path, 1, length(?)) = ?
               GROUP BY t.symbol_id ORDER BY files DESC, t.symbol_id LIMIT ?) r
         JOIN symbols ts ON ts.id = r.symbol_id JOIN files tf ON tf.id = ts.file_id
         ORDER BY r.files DESC, tf.path, ts.start_line`,
      )
      .all(pathPrefix, pathPrefix, limit) as (LinkedSymbol & { path: string; files: number })[];
  }

  /** Edges per kind and targets per confidence, most first (for benchmarks). */
  breakdown(): { kinds: { kind: string; n: number }[]; confidences: { confidence: string; n: number }[] } {
    const kinds = this.db.prepare('SELECT kind, count(*) AS n FROM edges GROUP BY kind ORDER BY n DESC').all() as { kind: number; n: number }[];
    const confidences = this.db.prepare('SELECT confidence, count(*) AS n FROM edge_targets GROUP BY confidence ORDER BY n DESC').all() as { confidence: number; n: number }[];
    return {
      kinds: kinds.map((r) => ({ kind: KINDS[r.kind]!, n: r.n })),
      confidences: confidences.map((r) => ({ confidence: CONFIDENCES[r.confidence]!, n: r.n })),
    };
  }

  counts(): { edges: number; resolved: number; ambiguous: number; unresolved: number; pending: number; targets: number } {
    const rows = this.db.prepare('SELECT status, count(*) AS n FROM edges GROUP BY status').all() as { status: number; n: number }[];
    const by = Object.fromEntries(rows.map((r) => [STATUSES[r.status]!, r.n])) as Partial<Record<EdgeStatus, number>>;
    const targets = this.db.prepare('SELECT count(*) FROM edge_targets').pluck().get() as number;
    const edges = rows.reduce((s, r) => s + r.n, 0);
    return { edges, resolved: by.resolved ?? 0, ambiguous: by.ambiguous ?? 0, unresolved: by.unresolved ?? 0, pending: by.pending ?? 0, targets };
  }
}
