/**
 * Callers and their grants in the team database, for `serve --store`
 * without `--tokens`: `team_callers` holds each caller's name and the
 * SHA-256 of its bearer token (never the token), `team_grants` its `read`
 * or `write` grant per repository id or `*`. Edited by `sightline team`;
 * every server re-reads them on a short interval (mcp/grants.ts).
 */
import { SightlineError } from '../errors/index.js';
import { componentQuery, migrateOnce, type SchemaComponent } from './migrate.js';
import { inTransaction } from './pool.js';

export type Access = 'read' | 'write';

export const CALLERS_COMPONENT: SchemaComponent = {
  name: 'callers',
  migrations: [
    `CREATE TABLE team_callers (
      name         TEXT PRIMARY KEY,
      token_sha256 TEXT NOT NULL UNIQUE,
      created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE team_grants (
      caller TEXT NOT NULL REFERENCES team_callers(name) ON DELETE CASCADE,
      repo   TEXT NOT NULL,
      access TEXT NOT NULL CHECK (access IN ('read', 'write')),
      PRIMARY KEY (caller, repo)
    );`,
  ],
};

export interface TeamCaller {
  name: string;
  /** SHA-256 (hex) of the caller's bearer token. */
  tokenSha256: string;
  grants: Record<string, Access>;
}

/**
 * Grants `access` on `repo` to `caller`, creating the caller with the token
 * whose SHA-256 is `newTokenSha256` when it is new; an existing caller keeps
 * its token. `created` says which happened.
 */
export async function grantAccess(url: string, caller: string, repo: string, access: Access, newTokenSha256: string): Promise<{ created: boolean }> {
  await migrateOnce(url, CALLERS_COMPONENT);
  return inTransaction(url, async (c) => {
    const made = await c.query('INSERT INTO team_callers(name, token_sha256) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING name', [caller, newTokenSha256]);
    await c.query('INSERT INTO team_grants(caller, repo, access) VALUES ($1, $2, $3) ON CONFLICT (caller, repo) DO UPDATE SET access = EXCLUDED.access', [caller, repo, access]);
    return { created: made.rowCount === 1 };
  });
}

/**
 * Takes back `caller`'s grant on `repo`, or with no repo the caller itself
 * (its token stops working). A caller left with no grant holds no token
 * that works either. Refuses a caller the database does not know.
 */
export async function revokeAccess(url: string, caller: string, repo: string | undefined): Promise<{ revoked: number; caller_removed: boolean }> {
  await migrateOnce(url, CALLERS_COMPONENT);
  return inTransaction(url, async (c) => {
    const known = await c.query('SELECT 1 FROM team_callers WHERE name = $1 FOR UPDATE', [caller]);
    if (known.rowCount === 0) throw new SightlineError('not_found', `the team database knows no caller ${caller}; \`sightline team list\` names them`);
    const grants = await c.query(repo === undefined ? 'DELETE FROM team_grants WHERE caller = $1' : 'DELETE FROM team_grants WHERE caller = $1 AND repo = $2', repo === undefined ? [caller] : [caller, repo]);
    const left = await c.query('SELECT 1 FROM team_grants WHERE caller = $1 LIMIT 1', [caller]);
    const removed = left.rowCount === 0;
    if (removed) await c.query('DELETE FROM team_callers WHERE name = $1', [caller]);
    return { revoked: grants.rowCount ?? 0, caller_removed: removed };
  });
}

/** Every caller with its grants, by name; callers without a grant are left out (their token opens nothing). */
export async function listCallers(url: string): Promise<TeamCaller[]> {
  const rows = await componentQuery<{ name: string; token_sha256: string; repo: string; access: Access }>(
    url,
    CALLERS_COMPONENT,
    'SELECT c.name, c.token_sha256, g.repo, g.access FROM team_callers c JOIN team_grants g ON g.caller = c.name ORDER BY c.name, g.repo',
    [],
  );
  const byName = new Map<string, TeamCaller>();
  for (const r of rows) {
    let caller = byName.get(r.name);
    if (!caller) byName.set(r.name, (caller = { name: r.name, tokenSha256: r.token_sha256, grants: {} }));
    caller.grants[r.repo] = r.access;
  }
  return [...byName.values()];
}
