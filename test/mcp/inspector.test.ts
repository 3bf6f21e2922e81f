/**
 * The MCP Inspector's CLI (a dev dependency, run from node_modules, never
 * fetched) against the stdio server: tools/list and a tools/call.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { useRepo } from '../helpers/fixture.js';

const INSPECTOR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

const sample = useRepo();

function inspect(...args: string[]) {
  // The first call waits for the first index as long as a loaded machine may need (the default is 5 s).
  const env = ['-e', `SIGHTLINE_HOME=${sample.home}`, '-e', 'SIGHTLINE_FIRST_INDEX_WAIT_MS=60000'];
  const r = spawnSync(process.execPath, [INSPECTOR, '--cli', ...env, process.execPath, CLI, 'serve', '--repo', sample.root, ...args], {
    encoding: 'utf8',
    // No registry, no proxy: anything it tried to fetch would fail.
    env: { PATH: process.env.PATH, HOME: sample.home, npm_config_offline: 'true' },
    timeout: 90_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('MCP Inspector CLI', () => {
  it('tools/list shows every read-only tool', () => {
    const { tools } = inspect('--method', 'tools/list');
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(['changed', 'claim_status', 'context', 'explore', 'health', 'index_status', 'list_files', 'list_topics', 'locate', 'neighbors', 'outline', 'read', 'recall', 'related', 'scan', 'search', 'stats']);
  });

  it('tools/call runs a tool and gets the answer once, as JSON text', () => {
    const r = inspect('--method', 'tools/call', '--tool-name', 'read', '--tool-arg', 'target=src/util/crypto.ts');
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toBeUndefined();
    expect(r.content).toHaveLength(1);
    const answer = JSON.parse(r.content[0].text);
    // The first call waits for the first index to become searchable, so it is served, not guessed at.
    expect(answer).toEqual(expect.objectContaining({ status: 'ok', path: 'src/util/crypto.ts', retrieval_phase: 'serving' }));
    expect(answer.content).toContain('export function hashToken');
  });

  it('tools/call with a path outside the repository gets isError', () => {
    const r = inspect('--method', 'tools/call', '--tool-name', 'read', '--tool-arg', 'target=../../etc/passwd');
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/outside the repository/);
  });
});
