/**
 * SIGHTLINE_REPO names the repository for clients that cannot pass --repo:
 * --repo wins over it, and it wins over the current directory, for the CLI
 * verbs and for `serve`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, useRepo } from '../helpers/fixture.js';
import { call, connectStdio } from '../mcp/harness.js';

const sample = useRepo();

describe('SIGHTLINE_REPO', () => {
  it('a CLI verb opens it when --repo is not given, and --repo beats it', () => {
    const other = makeRepo({ 'lib/x.py': 'def x():\n    return 1\n' });
    try {
      const env = { SIGHTLINE_HOME: sample.home, SIGHTLINE_REPO: sample.root, SIGHTLINE_EMBEDDER: 'none' };
      const repoOf = (args: string[], cwd: string, extra = {}) => {
        const r = runCli(['stats', '--json', ...args], { ...env, ...extra }, { cwd });
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout).repo;
      };
      expect(repoOf([], other)).toBe(sample.root);
      expect(repoOf(['--repo', other], sample.root)).toBe(other);
      expect(repoOf([], other, { SIGHTLINE_REPO: '' })).toBe(other); // blank: the current directory
      expect(runCli(['search', '--help']).stdout).toContain('env: SIGHTLINE_REPO');
    } finally {
      removeDir(other);
    }
  });

  it('serve over stdio serves it without --repo', async () => {
    const conn = await connectStdio([], { SIGHTLINE_HOME: sample.home, SIGHTLINE_REPO: sample.root, SIGHTLINE_EMBEDDER: 'none' });
    try {
      const h = await call(conn.client, 'health');
      expect(h.repo).toBe(sample.root);
      expect(path.isAbsolute(h.repo)).toBe(true);
    } finally {
      await conn.close();
    }
  });
});
