/**
 * The workspace registry in the team database (`--store`), so every server
 * of a team serves the same registered repositories; each still indexes
 * them into its own local files. A workspace is named by its root's
 * absolute path, which the entries' paths are under: the servers of a team
 * mount the workspace at the same path.
 */
import { componentQuery, type SchemaComponent } from '../team/index.js';
import type { RegisteredRepo, WorkspaceRegistry } from './registry.js';

const REGISTRY_COMPONENT: SchemaComponent = {
  name: 'workspace_registry',
  migrations: [
    `CREATE TABLE workspace_repos (
      workspace TEXT NOT NULL,
      id        TEXT COLLATE "C" NOT NULL,
      entry     TEXT NOT NULL,
      PRIMARY KEY (workspace, id)
    );`,
  ],
};

export class PostgresRegistry implements WorkspaceRegistry {
  constructor(
    private readonly url: string,
    private readonly workspace: string,
  ) {}

  private query(sql: string, args: unknown[]): Promise<{ entry: string }[]> {
    return componentQuery<{ entry: string }>(this.url, REGISTRY_COMPONENT, sql, [this.workspace, ...args]);
  }

  async list(): Promise<RegisteredRepo[]> {
    const rows = await this.query('SELECT entry FROM workspace_repos WHERE workspace = $1 ORDER BY id', []);
    return rows.map((r) => JSON.parse(r.entry) as RegisteredRepo);
  }

  async get(id: string): Promise<RegisteredRepo | undefined> {
    const [row] = await this.query('SELECT entry FROM workspace_repos WHERE workspace = $1 AND id = $2', [id]);
    return row ? (JSON.parse(row.entry) as RegisteredRepo) : undefined;
  }

  async put(repo: RegisteredRepo): Promise<void> {
    await this.query('INSERT INTO workspace_repos(workspace, id, entry) VALUES ($1, $2, $3) ON CONFLICT (workspace, id) DO UPDATE SET entry = EXCLUDED.entry', [
      repo.id,
      JSON.stringify(repo),
    ]);
  }

  async remove(id: string): Promise<boolean> {
    return (await this.query('DELETE FROM workspace_repos WHERE workspace = $1 AND id = $2 RETURNING entry', [id])).length > 0;
  }

  /** The pool is the process's, shared with memory and sessions (closeTeamPools ends it). */
  async close(): Promise<void> {}
}
