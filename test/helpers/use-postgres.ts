/** One real PostgreSQL server per test file (postgres.ts), started before its tests and removed after; the team pools closed first. */
import { afterAll, beforeAll } from 'vitest';
import { closeTeamPools } from '../../src/team/index.js';
import { startPostgres, type PostgresServer } from './postgres.js';

export function usePostgres(): { readonly url: string } {
  let server: PostgresServer | undefined;
  const handle = {
    get url(): string {
      if (!server) throw new Error('usePostgres: the server starts in beforeAll; read url inside a test or hook');
      return server.url;
    },
  };
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await closeTeamPools();
    server?.stop();
  });
  return handle;
}
