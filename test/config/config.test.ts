import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, defaultConfig, envName, loadConfig, type ConfigKey } from '../../src/config/index.js';
import { SightlineError } from '../../src/errors/index.js';
import { makeRepo, removeDir } from '../helpers/fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function repoWithConfig(config: unknown): string {
  const root = makeRepo({ 'sightline.config.json': typeof config === 'string' ? config : JSON.stringify(config) });
  dirs.push(root);
  return root;
}

describe('config precedence', () => {
  it('defaults when nothing is set', () => {
    const c = loadConfig({ env: {} });
    expect(c.maxFileBytes).toBe(1_048_576);
    expect(c.gitignore).toBe(true);
    expect(c.excludeDirs).toContain('node_modules');
  });

  it('flag > env > file > default', () => {
    const root = repoWithConfig({ maxFileBytes: 2048, toolConcurrency: 3 });
    expect(loadConfig({ repoRoot: root, env: {} }).maxFileBytes).toBe(2048);
    const env = { SIGHTLINE_MAX_FILE_BYTES: '4096' };
    expect(loadConfig({ repoRoot: root, env }).maxFileBytes).toBe(4096);
    expect(loadConfig({ repoRoot: root, env, flags: { maxFileBytes: 8192 } }).maxFileBytes).toBe(8192);
    // a key set only in the file survives the other layers
    expect(loadConfig({ repoRoot: root, env, flags: { maxFileBytes: 8192 } }).toolConcurrency).toBe(3);
  });

  it('names environment variables after the field', () => {
    expect(envName('maxFileBytes')).toBe('SIGHTLINE_MAX_FILE_BYTES');
  });

  it('reads booleans and lists from the environment; blank counts as unset', () => {
    const c = loadConfig({ env: { SIGHTLINE_GITIGNORE: 'false', SIGHTLINE_EXCLUDE: '**/*.min.js, gen/**', SIGHTLINE_HOME: '  ' } });
    expect(c.gitignore).toBe(false);
    expect(c.exclude).toEqual(['**/*.min.js', 'gen/**']);
    expect(c.home).toMatch(/sightline$/);
  });

  it('ignores a malformed environment value with a warning', () => {
    const warnings: string[] = [];
    const c = loadConfig({ env: { SIGHTLINE_MAX_FILE_BYTES: 'lots' }, warn: (m) => warnings.push(m) });
    expect(c.maxFileBytes).toBe(1_048_576);
    expect(warnings[0]).toContain('SIGHTLINE_MAX_FILE_BYTES');
  });

  it('ignores, with a warning each, environment values the field refuses: a fraction for a count, an unknown choice, a word for a boolean', () => {
    const warnings: string[] = [];
    const env = { SIGHTLINE_TOOL_CONCURRENCY: '2.5', SIGHTLINE_EMBEDDER: 'gpt', SIGHTLINE_GITIGNORE: 'maybe', SIGHTLINE_MAX_FILES: '7' };
    const c = loadConfig({ env, warn: (m) => warnings.push(m) });
    expect(c).toMatchObject({ toolConcurrency: 2, embedder: 'builtin', gitignore: true, maxFiles: 7 });
    expect(warnings.map((w) => w.split('=')[0])).toEqual(['SIGHTLINE_GITIGNORE', 'SIGHTLINE_TOOL_CONCURRENCY', 'SIGHTLINE_EMBEDDER']);
  });

  it('clamps out-of-range numbers with a warning', () => {
    const warnings: string[] = [];
    const c = loadConfig({ env: {}, flags: { maxFileBytes: 10 }, warn: (m) => warnings.push(m) });
    expect(c.maxFileBytes).toBe(1024);
    expect(warnings.join()).toContain('maxFileBytes');
  });

  it('names the field of an invalid config file', () => {
    const root = repoWithConfig({ maxFileBytes: 'big' });
    expect(() => loadConfig({ repoRoot: root, env: {} })).toThrow(/maxFileBytes/);
    const unknown = repoWithConfig({ maxFileByte: 5 });
    expect(() => loadConfig({ repoRoot: unknown, env: {} })).toThrow(/unknown field "maxFileByte"/);
    const broken = repoWithConfig('{ not json');
    expect(() => loadConfig({ repoRoot: broken, env: {} })).toThrow(SightlineError);
  });

  it('refuses a config file value of the wrong kind for every kind of field, saying what it must be', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ home: '' }, /"home" must not be empty/],
      [{ embedUrl: 5 }, /"embedUrl" must be a string, not 5/],
      [{ gitignore: 'yes' }, /"gitignore" must be true or false/],
      [{ exclude: ['a', 3] }, /"exclude" must be a list of strings/],
      [{ include: 'src/**' }, /"include" must be a list of strings/],
      [{ maxFiles: 2.5 }, /"maxFiles" must be a whole number, not 2.5/],
      [{ minRelevance: null }, /"minRelevance" must be a number, not null/],
      [{ embedder: 'gpt' }, /"embedder" must be one of builtin, onnx, http, none, not "gpt"/],
    ];
    for (const [fields, message] of cases) expect(() => loadConfig({ repoRoot: repoWithConfig(fields), env: {} })).toThrow(message);
    expect(loadConfig({ repoRoot: repoWithConfig({ minRelevance: 0.5, contextDetail: 'paths', exclude: ['gen/**'] }), env: {} })).toMatchObject({
      minRelevance: 0.5,
      contextDetail: 'paths',
      exclude: ['gen/**'],
    });
  });

  it('an explicit --config must exist', () => {
    const root = repoWithConfig({});
    expect(() => loadConfig({ configPath: path.join(root, 'nope.json'), env: {} })).toThrow(/cannot read config file/);
    fs.writeFileSync(path.join(root, 'other.json'), JSON.stringify({ gitignore: false }));
    expect(loadConfig({ configPath: path.join(root, 'other.json'), env: {} }).gitignore).toBe(false);
  });
});

describe('docs/config.md', () => {
  it('lists every field with its environment variable, its default and its description', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/config.md'), 'utf8');
    const rows = new Map(
      doc.split('\n').flatMap((line) => {
        const m = /^\| `(\w+)` \| `(\w+)` \| (.+?) \| (.+) \|$/.exec(line);
        return m ? [[m[1]!, { env: m[2]!, value: m[3]!, what: m[4]! }]] : [];
      }),
    );
    const defaults = defaultConfig();
    for (const [key, field] of Object.entries(CONFIG_FIELDS) as [ConfigKey, (typeof CONFIG_FIELDS)[ConfigKey]][]) {
      const row = rows.get(key);
      expect(row, `docs/config.md has no row for ${key}`).toBeDefined();
      expect(row!.env).toBe(envName(key));
      expect(row!.what).toBe(field.description);
      const value = defaults[key];
      if (typeof value === 'number' || typeof value === 'boolean') expect(row!.value, key).toBe(`\`${value}\``);
    }
    expect([...rows.keys()].filter((k) => !(k in CONFIG_FIELDS))).toEqual([]);
  });
});
