/**
 * Issue 21: a repository removed from a workspace must not keep a read-only
 * connection open in each read-pool worker until the server stops. A real
 * `serve --workspace` over HTTP with two workers and a real SDK client; the
 * server's open descriptors (/proc) say which index files it still holds.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, connectNetwork, startNetworkServer, stop, type Connected, type NetworkServer } from '../mcp/harness.js';
import { until } from '../workspace/helpers.js';
import { openIndexFiles } from './helpers.js';

describe.runIf(process.platform === 'linux')('the read pool in a workspace', () => {
  let root: string;
  let home: string;
  let server: NetworkServer;
  let conn: Connected;

  beforeAll(async () => {
    root = makeRepo({
      'api/src/orders.ts': 'export function placeOrder(id: string) { return `order ${id}`; }\n',
      'web/src/invoice.ts': 'export function renderInvoice(total: number) { return `invoice ${total}`; }\n',
    });
    home = tempDir('sightline-home-');
    server = await startNetworkServer('http', ['--workspace', root, '--enable-writes', '--no-watch'], { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none', SIGHTLINE_READ_WORKERS: '2' });
    conn = await connectNetwork(server);
  });

  afterAll(async () => {
    await conn?.close();
    if (server) await stop(server);
    for (const dir of [root, home]) removeDir(dir);
  });

  /** The index files the server holds open, by the folder each lives in, with how many connections. */
  const held = () => {
    const byDir = new Map<string, number>();
    for (const target of openIndexFiles(server.proc.pid!, home)) byDir.set(path.dirname(target), (byDir.get(path.dirname(target)) ?? 0) + 1);
    return byDir;
  };

  /** Adds a repository, waits for its first pass, and has both workers answer for it; returns its index folder. */
  const served = async (repo: string, symbol: string): Promise<string> => {
    const before = new Set(held().keys());
    await call(conn.client, 'add_repo', { path: repo });
    await until(async () => ((await call(conn.client, 'index_status', { repo })).job.status === 'completed' ? true : undefined), `${repo} indexed`);
    // Concurrent reads land on both workers, each opening its own connection.
    const found = await Promise.all(Array.from({ length: 6 }, () => call(conn.client, 'locate', { repo, query: symbol })));
    expect(JSON.stringify(found[0])).toContain(symbol);
    const dir = [...held().keys()].find((d) => !before.has(d));
    expect(dir, `an index folder for ${repo}`).toBeDefined();
    return dir!;
  };

  it('closes every worker’s connection to a removed repository’s index, and keeps the others', async () => {
    const api = await served('api', 'placeOrder');
    const web = await served('web', 'renderInvoice');
    expect(held().get(api)).toBeGreaterThanOrEqual(2); // the writer and at least one worker
    const webBefore = held().get(web)!;
    expect(webBefore).toBeGreaterThanOrEqual(2);

    expect(await call(conn.client, 'remove_repo', { repo: 'api' })).toMatchObject({ removed: true });
    // The workers close theirs on a message of their own: poll until they did (before the fix, never).
    await until(async () => (held().has(api) ? undefined : true), 'no connection to the removed index');
    expect(held().get(web)).toBe(webBefore);
    expect(JSON.stringify(await call(conn.client, 'locate', { repo: 'web', query: 'renderInvoice' }))).toContain('renderInvoice');

    // Added again, it is served afresh: its configuration is sent to the workers again and they answer for it.
    await served('api', 'placeOrder');
  }, 120_000);
});
