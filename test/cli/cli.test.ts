import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { asUnprivileged, runCli, unreadableEnv } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir, useRepo } from '../helpers/fixture.js';

const sample = useRepo();
const env = () => ({ SIGHTLINE_HOME: sample.home });

describe('sightline CLI', () => {
  it('search --json indexes on first use and prints exactly one JSON object', () => {
    const r = runCli(['search', 'get user name', '--repo', sample.root, '-k', '50', '--json'], env());
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout); // throws if there is anything else on stdout
    expect(out.status).toBe('ok');
    expect(out.mode).toBe('hybrid');
    expect(out.results[0]).toEqual(
      expect.objectContaining({ path: 'src/auth/session.ts', start_line: expect.any(Number), end_line: expect.any(Number), kind: 'code', score: expect.any(Number), reasons: expect.any(Array) }),
    );
    expect(out.results[0]).toHaveProperty('symbol');
    expect(out.results.every((x: { path: string }) => !x.path.includes('\\') && !path.isAbsolute(x.path))).toBe(true);
    // no progress bar when stderr is not a terminal
    expect(r.stderr).not.toContain('█');
  });

  it('says why it indexes first: no index yet, or one whose pass never finished (an upgrade resets that)', () => {
    const root = makeRepo({ 'a.py': 'def hello():\n    return 1\n' });
    const home = tempDir('sightline-home-');
    try {
      const first = runCli(['search', 'hello', '--repo', root, '--json'], { SIGHTLINE_HOME: home });
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('sightline: no index yet; indexing first');
      const again = runCli(['search', 'hello', '--repo', root, '--json'], { SIGHTLINE_HOME: home });
      expect(again.stderr).not.toContain('indexing first');
      // What a migration that resets the index (or a pass stopped early) leaves: the file, no finished pass.
      const [dbPath] = fs.readdirSync(home, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('index.db'));
      const db = new Database(path.join(home, dbPath!));
      db.prepare("DELETE FROM meta WHERE key = 'last_indexed_at'").run();
      db.close();
      const resumed = runCli(['search', 'hello', '--repo', root, '--json'], { SIGHTLINE_HOME: home });
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toContain('sightline: the index is not complete (upgraded to a new version, or its pass was stopped); indexing first');
      expect(JSON.parse(resumed.stdout).results[0].path).toBe('a.py');
    } finally {
      removeDir(root);
      removeDir(home);
    }
  });

  it('accepts --force and --files', () => {
    const r = runCli(['search', 'session', '--repo', sample.root, '--files', '--force', '--json'], env());
    expect(r.code).toBe(0);
    const paths = JSON.parse(r.stdout).results.map((x: { path: string }) => x.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('search --mode picks the retrieval, and --embedder none makes it keyword-only', () => {
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const r = runCli(['search', 'get user name', '--repo', sample.root, '--mode', mode, '--json'], env());
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout), mode).toMatchObject({ status: 'ok', mode, retrieval_phase: 'serving' });
    }
    const none = runCli(['search', 'get user name', '--repo', sample.root, '--embedder', 'none', '--json'], env());
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'ok', mode: 'keyword', retrieval_phase: 'keyword_only' });
    expect(runCli(['search', 'x', '--repo', sample.root, '--mode', 'vector'], env()).code).toBe(2);
    for (const verb of ['serve', 'watch', 'status', 'index']) expect(runCli([verb, '--help']).stdout, verb).toContain('--embedder <name>');
  });

  it('every verb answers --json', () => {
    for (const args of [
      ['index'],
      ['locate', 'hashToken'],
      ['outline', 'src/auth/session.ts'],
      ['read', 'src/util/crypto.ts:3'],
      ['list-files'],
      ['stats'],
      ['index', '--dry-run'],
    ]) {
      const r = runCli([...args, '--repo', sample.root, '--json'], env());
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).status).toBe('ok');
    }
  });

  it('prints human text without --json', () => {
    const r = runCli(['locate', 'hashToken', '--repo', sample.root], env());
    expect(r.stdout).toMatch(/^definition\s+src\/util\/crypto\.ts:3/m);
    const o = runCli(['outline', 'src/server/http_server.py', '--repo', sample.root], env());
    expect(o.stdout).toContain('class HTTPServer  4-13');
  });

  it('dry-run reports languages, directories and ignore rules without writing an index', () => {
    const fresh = makeRepo({ ...SAMPLE_FILES, '.gitignore': '*.log\n', 'debug.log': 'noise\n', 'node_modules/x/index.js': '1' });
    const freshHome = tempDir('sightline-home-');
    try {
      const r = runCli(['index', fresh, '--dry-run', '--json'], { SIGHTLINE_HOME: freshHome });
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.files).toBe(Object.keys(SAMPLE_FILES).length + 1);
      expect(report.languages.typescript).toBe(3);
      expect(report.ignored_by_rule.map((g: { rule: string }) => g.rule).join(' ')).toContain('*.log');
      expect(fs.readdirSync(freshHome)).toEqual([]);
    } finally {
      removeDir(fresh);
      removeDir(freshHome);
    }
  });

  it('exits 2 with one line for a missing path or a file given as the repository', () => {
    const missing = runCli(['search', 'x', '--repo', path.join(sample.root, 'nope')], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('does not exist');
    const file = runCli(['index', path.join(sample.root, 'README.md')], env());
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a directory');
  });

  it('exits 2 on an empty or punctuation-only query, with a JSON error under --json', () => {
    const r = runCli(['search', '???', '--repo', sample.root, '--json'], env());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'error', error: expect.stringContaining('no searchable words') });
  });

  it('exits 3 on a corrupt index and names the fix, which works', () => {
    const corruptHome = tempDir('sightline-home-');
    try {
      expect(runCli(['index', sample.root], { SIGHTLINE_HOME: corruptHome }).code).toBe(0);
      const [dir] = fs.readdirSync(corruptHome);
      for (const f of fs.readdirSync(path.join(corruptHome, dir!))) fs.rmSync(path.join(corruptHome, dir!, f));
      fs.writeFileSync(path.join(corruptHome, dir!, 'index.db'), Buffer.alloc(4096, 0x41));
      const r = runCli(['search', 'session', '--repo', sample.root], { SIGHTLINE_HOME: corruptHome });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('sightline index --force');
      expect(runCli(['index', sample.root, '--force'], { SIGHTLINE_HOME: corruptHome }).code).toBe(0);
      expect(runCli(['search', 'session', '--repo', sample.root], { SIGHTLINE_HOME: corruptHome }).code).toBe(0);
    } finally {
      removeDir(corruptHome);
    }
  });

  it('--help shows examples', () => {
    for (const verb of ['search', 'index', 'locate', 'read']) {
      const r = runCli([verb, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain('$ sightline ' + verb);
    }
  });

  it('an unreadable file is skipped and counted while the rest is indexed', () => {
    const repoDir = makeRepo({ 'open.ts': 'export const visible = 1;\n', 'secret.ts': 'export const hidden = 1;\n' });
    const h = tempDir('sightline-home-');
    try {
      fs.chmodSync(path.join(repoDir, 'secret.ts'), 0o000);
      const r = asUnprivileged((user) => {
        for (const d of [repoDir, h]) fs.chmodSync(d, 0o777);
        return runCli(['index', repoDir, '--json'], { SIGHTLINE_HOME: h }, user);
      }) ?? runCli(['index', repoDir, '--json'], { SIGHTLINE_HOME: h, ...unreadableEnv('/secret.ts') });
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout);
      expect(s.added).toBe(1);
      expect(s.skipped.unreadable).toBe(1);
    } finally {
      removeDir(repoDir);
      removeDir(h);
    }
  });
});
