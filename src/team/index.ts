/**
 * The team backend: state several `serve` processes share through one
 * PostgreSQL database (memory and claims), so a team runs N servers behind
 * any HTTP load balancer. Code indexes stay local SQLite files per server.
 * See docs/team.md.
 */
import type { MemoryStore } from '../memory/index.js';
import { PostgresMemoryStore } from './memory.js';

/** Memory for repository `repo` (its name in the team database) in the database at `url`. */
export function teamMemoryStore(url: string, repo: string): MemoryStore {
  return new PostgresMemoryStore(url, repo);
}

export { checkDatabaseUrl, closeTeamPools, redactUrl } from './pool.js';
export { migrateOnce, LOCK_CLASS, type SchemaComponent } from './migrate.js';
export { MEMORY_COMPONENT } from './memory-schema.js';
