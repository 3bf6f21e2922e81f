/**
 * Issue 21: a stdio frame over 10 MB made the server exit 0 without a word.
 * Now it is answered with a JSON-RPC error naming the limit, logged on
 * stderr, and the server answers the next call.
 */
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../helpers/fixture.js';
import { call, useServedRepo } from '../mcp/harness.js';

const served = useServedRepo(SAMPLE_FILES);

describe('an oversized stdio frame', () => {
  it('is refused with a JSON-RPC error, logged, and the server stays up', async () => {
    const huge = 'x'.repeat(11 * 1024 * 1024);
    await expect(served.conn.client.callTool({ name: 'search', arguments: { query: huge } })).rejects.toThrow(/over the 10485760-byte limit of one stdio message: send smaller arguments/);
    expect(served.conn.stderr()).toMatch(/refused a message of \d+ bytes is over the 10485760-byte limit.*\(request id \d+\); the server goes on/);
    expect((await call(served.conn.client, 'search', { query: 'hash token', force: true })).status).toBe('ok');
    // A second one too: a refusal leaves nothing behind.
    await expect(served.conn.client.callTool({ name: 'search', arguments: { query: huge } })).rejects.toThrow(/byte limit/);
    expect((await call(served.conn.client, 'health')).status).toBe('ok');
  });
});
