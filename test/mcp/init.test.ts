/**
 * `sightline init`: writes the three client configs and the AGENTS.md
 * section, merges with what is there without clobbering it, prints the Codex
 * snippet, and with --dry-run shows everything while writing nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const BEGIN = '<!-- sightline:begin -->';
const END = '<!-- sightline:end -->';

let root: string;
let home: string;
beforeEach(() => {
  root = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  home = tempDir('sightline-home-');
});
afterEach(() => {
  removeDir(root);
  removeDir(home);
});

const init = (...args: string[]) => runCli(['init', '--repo', root, ...args], { SIGHTLINE_HOME: home });
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
const snapshot = () =>
  Object.fromEntries(
    ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', 'AGENTS.md'].map((f) => [f, fs.existsSync(path.join(root, f)) ? fs.readFileSync(path.join(root, f), 'utf8') : null]),
  );

describe('sightline init', () => {
  it('creates the client configs and AGENTS.md, says what it wrote, and prints the Codex snippet', () => {
    const r = init();
    expect(r.code, r.stderr).toBe(0);
    expect(readJson('.mcp.json')).toEqual({ mcpServers: { sightline: { type: 'stdio', command: 'sightline', args: ['serve', '--repo', '.'] } } });
    expect(readJson('.cursor/mcp.json').mcpServers.sightline.args).toEqual(['serve', '--repo', '${workspaceFolder}']);
    expect(readJson('.vscode/mcp.json').servers.sightline).toEqual({ type: 'stdio', command: 'sightline', args: ['serve', '--repo', '${workspaceFolder}'] });
    for (const f of ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', 'AGENTS.md']) expect(r.stdout).toMatch(new RegExp(`create\\s+${f.replace('.', '\\.')}`));
    expect(r.stdout).toContain('[mcp_servers.sightline]');
    expect(r.stdout).toContain(`args = ["serve", "--repo", ${JSON.stringify(root)}]`);
    expect(fs.existsSync(path.join(root, '.codex'))).toBe(false);
    const agents = fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith(BEGIN)).toBe(true);
    expect(agents.trimEnd().endsWith(END)).toBe(true);
    for (const word of ['locate', 'search', 'read', 'outline', 'list_files', 'refine', 'suggestions', 'force', 'citation_status', 'verified', 'stale', 'unverifiable']) {
      expect(agents).toContain(word);
    }
    expect(fs.readdirSync(home)).toEqual([]); // init needs no index
  });

  it('merges: other servers and keys survive, an existing sightline entry is kept', () => {
    writeFiles(root, {
      '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, extra: true }),
      '.cursor/mcp.json': JSON.stringify({ mcpServers: { sightline: { command: 'my-sightline', args: ['serve', '--enable-writes'] } } }),
    });
    const r = init();
    expect(r.code).toBe(0);
    expect(readJson('.mcp.json')).toEqual({ mcpServers: { other: { command: 'other-server' }, sightline: expect.objectContaining({ command: 'sightline' }) }, extra: true });
    expect(readJson('.cursor/mcp.json').mcpServers.sightline).toEqual({ command: 'my-sightline', args: ['serve', '--enable-writes'] });
    expect(r.stdout).toMatch(/update\s+\.mcp\.json.*keeps 1 other/);
    expect(r.stdout).toMatch(/keep\s+\.cursor\/mcp\.json/);
  });

  it('leaves a config that is not plain JSON untouched and says what to add by hand', () => {
    const jsonc = '// my servers\n{ "servers": {} }\n';
    writeFiles(root, { '.vscode/mcp.json': jsonc });
    const r = init();
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(root, '.vscode/mcp.json'), 'utf8')).toBe(jsonc);
    expect(r.stdout).toMatch(/skip\s+\.vscode\/mcp\.json.*not plain JSON.*by hand/);
  });

  it("updates AGENTS.md only between the markers, never the user's text", () => {
    const before = '# Our agents\n\nAlways run the tests.\n';
    const after = '\n## Release\n\nTag from main.\n';
    writeFiles(root, { 'AGENTS.md': `${before}\n${BEGIN}\nan old section\n${END}\n${after}` });
    expect(init().code).toBe(0);
    const text = fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    expect(text.startsWith(`${before}\n${BEGIN}\n## `)).toBe(true);
    expect(text.endsWith(`${END}\n${after}`)).toBe(true);
    expect(text).not.toContain('an old section');
    expect(text.split(BEGIN)).toHaveLength(2);
  });

  it('appends the section to an AGENTS.md without markers, and a second run changes nothing', () => {
    writeFiles(root, { 'AGENTS.md': '# Notes\nKeep it short.' });
    expect(init().code).toBe(0);
    const first = snapshot();
    expect(first['AGENTS.md']!.startsWith('# Notes\nKeep it short.\n\n' + BEGIN)).toBe(true);
    const again = init();
    expect(snapshot()).toEqual(first);
    expect(again.stdout).not.toMatch(/^\s+(create|update)\s/m);
  });

  it('refuses to guess when only one marker is there', () => {
    const broken = `# Notes\n${BEGIN}\nhalf a section\n`;
    writeFiles(root, { 'AGENTS.md': broken });
    const r = init();
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe(broken);
    expect(r.stdout).toMatch(/skip\s+AGENTS\.md.*one sightline marker/);
  });

  it('--dry-run shows every change and writes nothing', () => {
    writeFiles(root, { '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'x' } } }) });
    const before = snapshot();
    const r = init('--dry-run');
    expect(r.code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(r.stdout).toContain('dry run, nothing written');
    expect(r.stdout).toMatch(/would update\s+\.mcp\.json/);
    expect(r.stdout).toMatch(/would create\s+AGENTS\.md/);
    expect(r.stdout).toContain('--- .vscode/mcp.json (would create) ---');
    expect(r.stdout).toContain(BEGIN);
    expect(r.stdout).toContain('"other"');
  });
});
