/** What remove_repo deletes from the team database: the repository's memory, claims and budget sessions. */
import { MEMORY_COMPONENT } from './memory-schema.js';
import { migrateOnce } from './migrate.js';
import { inTransaction } from './pool.js';
import { SESSIONS_COMPONENT } from './sessions-schema.js';

const TABLES = ['memory_records', 'memory_claims', 'memory_waiters', 'memory_ticks', 'budget_sessions'] as const;

/** Deletes every row of repository `repo` (its name in the team database) in one transaction; receipts go with their sessions. */
export async function forgetTeamRepo(url: string, repo: string): Promise<void> {
  await Promise.all([migrateOnce(url, MEMORY_COMPONENT), migrateOnce(url, SESSIONS_COMPONENT)]);
  await inTransaction(url, async (c) => {
    for (const table of TABLES) await c.query(`DELETE FROM ${table} WHERE repo = $1`, [repo]);
  });
}
