/**
 * The team backend: state several `serve` processes share through one
 * PostgreSQL database (memory and claims, budget sessions, usage, the
 * workspace registry, callers and grants), so a team runs N servers behind
 * any HTTP load balancer. Code indexes stay local SQLite files per server.
 * See docs/team.md.
 */
import type { BudgetSessions, UsageLedger } from '../budget/index.js';
import type { MemoryStore } from '../memory/index.js';
import { PostgresMemoryStore } from './memory.js';
import { PostgresSessions } from './sessions.js';
import { PostgresUsage } from './usage.js';

/** Memory for repository `repo` (its name in the team database) in the database at `url`. */
export function teamMemoryStore(url: string, repo: string): MemoryStore {
  return new PostgresMemoryStore(url, repo);
}

/** Budget sessions of repository `repo` in the database at `url`. */
export function teamSessions(url: string, repo: string): BudgetSessions {
  return new PostgresSessions(url, repo);
}

/** Usage summed over every server on the database at `url`. */
export function teamUsage(url: string): UsageLedger {
  return new PostgresUsage(url);
}

export { forgetTeamRepo } from './forget.js';
export { checkDatabaseUrl, closeTeamPools, redactUrl } from './pool.js';
export { componentQuery, migrateOnce, LOCK_CLASS, type SchemaComponent } from './migrate.js';
export { MEMORY_COMPONENT } from './memory-schema.js';
export { grantAccess, listCallers, revokeAccess, type Access, type TeamCaller } from './callers.js';
