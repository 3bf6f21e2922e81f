/**
 * Issue 21: `read` must not be raced out of the repository. A child process
 * swaps a file between a regular file and a symlink to a secret outside the
 * root (each swap an atomic rename), while `read` is called over the real MCP
 * server; what a read returns is whatever it opened, so the secret must never
 * appear, however the swaps and the reads interleave.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';
import { call, useServedRepo } from '../mcp/harness.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT';
const CALLS = 2_000;
const DEADLINE_MS = 20_000;

/** Flips `target` forever: a symlink to `secret`, then a regular file, each renamed into place. */
const FLIPPER = `
const fs = require('node:fs');
const [target, secret] = process.argv.slice(1);
const link = target + '.link', file = target + '.file';
for (;;) {
  try { fs.unlinkSync(link); } catch {}
  fs.symlinkSync(secret, link);
  fs.renameSync(link, target);
  fs.writeFileSync(file, 'export const inside = 1;\\n');
  fs.renameSync(file, target);
}`;

const outside = tempDir('sightline-outside-');
fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
afterAll(() => removeDir(outside));
const served = useServedRepo(
  { ...SAMPLE_FILES, 'src/flip.ts': 'export const inside = 1;\n' },
  { setup: (root) => fs.symlinkSync('auth/session.ts', path.join(root, 'src/alias.ts')) }, // inside, to inside: still readable
);

describe('read opens first, then verifies what it opened', () => {
  it('follows a symlink that stays inside the repository', async () => {
    const answer = await call(served.conn.client, 'read', { target: 'src/alias.ts' });
    expect(answer.content).toContain('export class SessionManager');
  });

  it('never returns the outside file while it is swapped in and out', async () => {
    const flipper: ChildProcess = spawn(process.execPath, ['-e', FLIPPER, path.join(served.root, 'src/flip.ts'), path.join(outside, 'secret.txt')], { stdio: 'ignore' });
    const seen = { ok: 0, refused: 0, other: [] as string[] };
    try {
      const start = Date.now();
      for (let i = 0; i < CALLS && Date.now() - start < DEADLINE_MS; i++) {
        const r = (await served.conn.client.callTool({ name: 'read', arguments: { target: 'src/flip.ts', force: true } })) as CallToolResult;
        const text = (r.content[0] as { text: string }).text;
        expect(text).not.toContain(SECRET);
        if (!r.isError) seen.ok++;
        else if (/outside the repository/.test(text)) seen.refused++;
        else seen.other.push(text);
      }
    } finally {
      flipper.kill('SIGKILL');
    }
    // Both sides of the race were hit: reads of the inside file, and refusals of the swapped-in link.
    expect(seen.ok, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.refused, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.other, 'every failure is a named refusal').toEqual([]);
  });
});
