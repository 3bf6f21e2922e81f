/**
 * The workspace registry in one SQLite file under $SIGHTLINE_HOME, shared by
 * every `serve --workspace` and `sightline workspace` on this machine for the
 * same root (WAL, so a CLI edit and a running server do not block each other).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openSqlite, type Db } from '../store/sqlite.js';
import type { RegisteredRepo, WorkspaceRegistry } from './registry.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS workspace_repos (
  id TEXT PRIMARY KEY,
  entry TEXT NOT NULL
) STRICT;
`;

export class SqliteRegistry implements WorkspaceRegistry {
  private readonly db: Db;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = openSqlite(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  async list(): Promise<RegisteredRepo[]> {
    const rows = this.db.prepare('SELECT entry FROM workspace_repos ORDER BY id').all() as { entry: string }[];
    return rows.map((r) => JSON.parse(r.entry) as RegisteredRepo);
  }

  async get(id: string): Promise<RegisteredRepo | undefined> {
    const row = this.db.prepare('SELECT entry FROM workspace_repos WHERE id = ?').get(id) as { entry: string } | undefined;
    return row ? (JSON.parse(row.entry) as RegisteredRepo) : undefined;
  }

  async put(repo: RegisteredRepo): Promise<void> {
    this.db.prepare('INSERT INTO workspace_repos (id, entry) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET entry = excluded.entry').run(repo.id, JSON.stringify(repo));
  }

  async remove(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM workspace_repos WHERE id = ?').run(id).changes > 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
