/** `sightline workspace list|add|remove|reset`: the workspace tools from a shell, on the registry a server reads. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { exists } from './helpers.js';

describe('sightline workspace', () => {
  it('adds in the foreground, lists, resets keeping the row, removes keeping the files; --json everywhere', () => {
    const root = makeRepo({ 'svc/main.py': 'def handle_request():\n    return 200\n' });
    const home = tempDir('sightline-home-');
    const env = { SIGHTLINE_HOME: home, SIGHTLINE_EMBEDDER: 'none', SIGHTLINE_WORKSPACE: root };
    const json = (args: string[]) => {
      const r = runCli([...args, '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    try {
      const added = json(['workspace', 'add', 'svc']);
      expect(added).toMatchObject({ status: 'ok', repo: 'svc', created: true, source: 'path' });
      expect(added.job).toMatchObject({ status: 'completed' });
      expect(json(['workspace', 'list']).repos).toEqual([expect.objectContaining({ id: 'svc', file_count: 1, indexed_root: `${root}/svc` })]);
      const text = runCli(['workspace', 'list'], env);
      expect(text.stdout).toMatch(/^id\s+source\s+files/);

      const escape = runCli(['workspace', 'add', '../', '--json'], env);
      expect(escape.code).toBe(2);
      expect(JSON.parse(escape.stdout).error).toMatch(/outside the workspace/);

      expect(json(['workspace', 'reset', 'svc'])).toMatchObject({ existed: true, memory_preserved: true });
      expect(json(['workspace', 'list']).repos[0]).toMatchObject({ id: 'svc', indexed_root: null, file_count: null });
      expect(json(['workspace', 'add', 'svc'])).toMatchObject({ created: false });
      expect(json(['workspace', 'list']).repos[0]).toMatchObject({ file_count: 1 });

      expect(json(['workspace', 'remove', 'svc'])).toMatchObject({ removed: true });
      expect(json(['workspace', 'list']).count).toBe(0);
      expect(exists(root, 'svc', 'main.py')).toBe(true);

      const help = runCli(['workspace', 'add', '--help'], env);
      expect(help.stdout).toMatch(/Examples:[\s\S]*sightline workspace add --git/);
    } finally {
      removeDir(root);
      removeDir(home);
    }
  }, 120_000);
});
