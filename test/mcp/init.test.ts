/**
 * `sightline init`: writes the three client configs and the agent guide
 * (CLAUDE.md, AGENTS.md), merges with what is there without clobbering it
 * (JSON with comments included), and writes a server command that starts from
 * a client's own environment: the test spawns exactly what was written. With
 * --codex it merges Codex's config.toml, with --hooks a Claude Code
 * SessionStart hook whose command is run as written.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';
import { call, waitForIndex } from './harness.js';

const BEGIN = '<!-- sightline:begin -->';
const END = '<!-- sightline:end -->';
/** A client's PATH with no sightline on it. */
const BARE_PATH = '/usr/bin:/bin';

let root: string;
let home: string;
let codexHome: string;
beforeEach(() => {
  root = makeRepo({ 'src/a.ts': 'export function alphaBeta() {\n  return 1;\n}\n', 'src/b.ts': 'import { alphaBeta } from "./a";\nexport const b = alphaBeta();\n' });
  home = tempDir('sightline-home-');
  codexHome = tempDir('sightline-codex-');
});
afterEach(() => {
  for (const dir of [root, home, codexHome]) removeDir(dir);
});

const baseEnv = () => ({ SIGHTLINE_HOME: home, CODEX_HOME: codexHome, PATH: BARE_PATH });
const init = (args: string[] = [], env: NodeJS.ProcessEnv = {}) => runCli(['init', '--repo', root, ...args], { ...baseEnv(), ...env });
const read = (rel: string) => fs.readFileSync(path.resolve(root, rel), 'utf8');
const readJson = (rel: string) => JSON.parse(read(rel));
const GUIDES = ['CLAUDE.md', 'AGENTS.md'];
const snapshot = () =>
  Object.fromEntries(
    ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', ...GUIDES, '.claude/settings.json'].map((f) => [f, fs.existsSync(path.join(root, f)) ? read(f) : null]),
  );

/** Starts the server exactly as a client would from `entry`, in `cwd`, with only `env`. */
async function connectAs(entry: { command: string; args: string[] }, env: Record<string, string>, cwd: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env, cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr!.on('data', (d) => (err += d));
  const client = new Client({ name: 'init-test', version: '1.0.0' });
  await client.connect(transport).catch((e) => {
    throw new Error(`${entry.command} ${entry.args.join(' ')} did not start: ${e}\n${err}`);
  });
  return { client, stderr: () => err };
}

/** A bin folder as a global install leaves it: `sightline` links to this CLI, `node` next to it. */
function globalBin(): string {
  const bin = tempDir('sightline-bin-');
  fs.chmodSync(CLI, 0o755); // npm marks a package's bin executable on install
  fs.symlinkSync(CLI, path.join(bin, 'sightline'));
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}

describe('sightline init: the server command', () => {
  it('writes an absolute command when sightline is not on PATH, and that exact command serves from a bare client environment', async () => {
    const r = init();
    expect(r.code, r.stderr).toBe(0);
    const entry = readJson('.mcp.json').mcpServers.sightline;
    expect(entry).toEqual({ type: 'stdio', command: process.execPath, args: [CLI, 'serve', '--repo', '.'] });
    expect(r.stdout).toContain('sightline is not on PATH');

    const { client, stderr } = await connectAs(entry, { ...baseEnv(), SIGHTLINE_EMBEDDER: 'none' }, root);
    try {
      const offered = (await client.listTools()).tools.map((t) => t.name);
      expect(offered).toContain('search');
      // The guide names every tool this server offers.
      for (const guide of GUIDES) {
        const section = read(guide);
        for (const name of offered) expect(section, `${guide} lacks ${name}`).toMatch(new RegExp(`^\\| .* \\| \`${name}\` `, 'm'));
      }
      await call(client, 'search', { query: 'alphaBeta' }); // the first call starts the index
      await waitForIndex(client);
      const found = await call(client, 'search', { query: 'alphaBeta' });
      expect(found.status, stderr()).toBe('ok');
      expect(found.results.map((x: { path: string }) => x.path)).toContain('src/a.ts');
    } finally {
      await client.close();
    }
  });

  it('writes the bare name when PATH’s sightline is this CLI (a global install), and it starts', async () => {
    const bin = globalBin();
    try {
      const clientPath = `${bin}:${BARE_PATH}`;
      expect(init([], { PATH: clientPath }).code).toBe(0);
      const entry = readJson('.cursor/mcp.json').mcpServers.sightline;
      expect(entry).toEqual({ command: 'sightline', args: ['serve', '--repo', '${workspaceFolder}'] });
      const claude = readJson('.mcp.json').mcpServers.sightline;
      expect(claude).toEqual({ type: 'stdio', command: 'sightline', args: ['serve', '--repo', '.'] });
      const { client } = await connectAs(claude, { ...baseEnv(), PATH: clientPath, SIGHTLINE_EMBEDDER: 'none' }, root);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('locate');
      } finally {
        await client.close();
      }
    } finally {
      removeDir(bin);
    }
  });

  it('does not trust a sightline on PATH that is some other program', () => {
    const bin = tempDir('sightline-bin-');
    try {
      fs.writeFileSync(path.join(bin, 'sightline'), '#!/bin/sh\necho impostor\n', { mode: 0o755 });
      const r = init([], { PATH: `${bin}:${BARE_PATH}` });
      expect(r.code).toBe(0);
      expect(readJson('.mcp.json').mcpServers.sightline.command).toBe(process.execPath);
      expect(r.stdout).toContain('is another sightline');
    } finally {
      removeDir(bin);
    }
  });
});

describe('sightline init: files', () => {
  it('creates the client configs and both guides, says what it wrote, and prints the Codex snippet', () => {
    const r = init();
    expect(r.code, r.stderr).toBe(0);
    expect(readJson('.cursor/mcp.json').mcpServers.sightline.args).toEqual([CLI, 'serve', '--repo', '${workspaceFolder}']);
    expect(readJson('.vscode/mcp.json').servers.sightline).toEqual({ type: 'stdio', command: process.execPath, args: [CLI, 'serve', '--repo', '${workspaceFolder}'] });
    for (const f of ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', ...GUIDES]) expect(r.stdout).toMatch(new RegExp(`create\\s+${f.replace('.', '\\.')}`));
    expect(r.stdout).toContain('[mcp_servers.sightline]');
    expect(r.stdout).toContain(`"--repo", ${JSON.stringify(root)}`);
    expect(fs.readdirSync(codexHome)).toEqual([]); // without --codex, Codex's config is left alone
    for (const guide of GUIDES) {
      const text = read(guide);
      expect(text.startsWith(BEGIN)).toBe(true);
      expect(text.trimEnd().endsWith(END)).toBe(true);
      for (const word of ['context', 'explore', 'related', 'changed', 'refine', 'suggestions', 'force', 'citation_status', 'stale', 'unverifiable', '--enable-writes']) expect(text).toContain(word);
      expect(text).not.toContain('test_slow');
    }
    expect(fs.existsSync(path.join(root, '.claude'))).toBe(false); // hooks only on request
    expect(fs.readdirSync(home)).toEqual([]); // init needs no index
  });

  it('merges: other servers and keys survive, an existing sightline entry that starts is kept', () => {
    const mine = { command: process.execPath, args: [CLI, 'serve', '--enable-writes'] };
    writeFiles(root, {
      '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, extra: true }),
      '.cursor/mcp.json': JSON.stringify({ mcpServers: { sightline: mine } }),
    });
    const r = init();
    expect(r.code).toBe(0);
    expect(readJson('.mcp.json')).toEqual({ mcpServers: { other: { command: 'other-server' }, sightline: expect.objectContaining({ command: process.execPath }) }, extra: true });
    expect(readJson('.cursor/mcp.json').mcpServers.sightline).toEqual(mine);
    expect(r.stdout).toMatch(/update\s+\.mcp\.json.*keeps 1 other/);
    expect(r.stdout).toMatch(/keep\s+\.cursor\/mcp\.json/);
  });

  it('replaces a sightline entry whose command cannot start (an earlier bare name not on PATH, a path that is gone)', () => {
    writeFiles(root, {
      '.mcp.json': JSON.stringify({ mcpServers: { sightline: { type: 'stdio', command: 'sightline', args: ['serve', '--repo', '.'] } } }),
      '.cursor/mcp.json': JSON.stringify({ mcpServers: { sightline: { command: '/nowhere/bin/node', args: ['serve'] } } }),
    });
    const r = init();
    expect(r.code, r.stderr).toBe(0);
    expect(readJson('.mcp.json').mcpServers.sightline).toMatchObject({ command: process.execPath, args: [CLI, 'serve', '--repo', '.'] });
    expect(readJson('.cursor/mcp.json').mcpServers.sightline.command).toBe(process.execPath);
    expect(r.stdout).toMatch(/update\s+\.mcp\.json.*replaces the "sightline" server, whose command "sightline" cannot be started/);
    expect(r.stdout).toMatch(/update\s+\.cursor\/mcp\.json.*"\/nowhere\/bin\/node" cannot be started/);
  });

  it('edits a config with comments in place, keeping the comments and the other servers', () => {
    const jsonc = '// my servers\n{\n    "servers": {\n        /* the linter */ "lint": { "command": "lint-mcp" },\n    },\n}\n';
    writeFiles(root, { '.vscode/mcp.json': jsonc });
    const r = init();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/update\s+\.vscode\/mcp\.json/);
    const text = read('.vscode/mcp.json');
    expect(text).toContain('// my servers');
    expect(text).toContain('/* the linter */ "lint": { "command": "lint-mcp" }');
    expect(text).toContain('\n        "sightline": {\n            "type": "stdio",'); // the file's own four-space indent
    expect(parseJsonc(text).servers).toEqual({ lint: { command: 'lint-mcp' }, sightline: { type: 'stdio', command: process.execPath, args: [CLI, 'serve', '--repo', '${workspaceFolder}'] } });
  });

  it('leaves a config that is not JSON, or not an object, untouched and says what to add by hand', () => {
    const broken = '{ "servers": { "a": 1 ';
    writeFiles(root, { '.vscode/mcp.json': broken, '.cursor/mcp.json': '[1, 2]\n' });
    const r = init();
    expect(r.code).toBe(0);
    expect(read('.vscode/mcp.json')).toBe(broken);
    expect(read('.cursor/mcp.json')).toBe('[1, 2]\n');
    expect(r.stdout).toMatch(/skip\s+\.vscode\/mcp\.json.*not valid JSON.*line 1.*by hand/);
    expect(r.stdout).toMatch(/skip\s+\.cursor\/mcp\.json.*not an object.*by hand/);
  });

  it("updates each guide only between the markers, never the user's text", () => {
    const before = '# Our agents\n\nAlways run the tests.\n';
    const after = '\n## Release\n\nTag from main.\n';
    writeFiles(root, { 'AGENTS.md': `${before}\n${BEGIN}\nan old section\n${END}\n${after}`, 'CLAUDE.md': '# Claude\nUse pnpm.\n' });
    expect(init().code).toBe(0);
    const text = read('AGENTS.md');
    expect(text.startsWith(`${before}\n${BEGIN}\n## `)).toBe(true);
    expect(text.endsWith(`${END}\n${after}`)).toBe(true);
    expect(text).not.toContain('an old section');
    expect(text.split(BEGIN)).toHaveLength(2);
    expect(read('CLAUDE.md').startsWith(`# Claude\nUse pnpm.\n\n${BEGIN}\n`)).toBe(true);
  });

  it('appends the section to a guide without markers, and a second run changes nothing', () => {
    writeFiles(root, { 'AGENTS.md': '# Notes\nKeep it short.' });
    expect(init(['--hooks']).code).toBe(0);
    const first = snapshot();
    expect(first['AGENTS.md']!.startsWith('# Notes\nKeep it short.\n\n' + BEGIN)).toBe(true);
    const again = init(['--hooks']);
    expect(snapshot()).toEqual(first);
    expect(again.stdout).not.toMatch(/^\s+(create|update)\s/m);
  });

  it('refuses to guess when only one marker is there, or a marker twice', () => {
    const half = `# Notes\n${BEGIN}\nhalf a section\n`;
    const twice = `${BEGIN}\na\n${END}\n${BEGIN}\nb\n${END}\n`;
    writeFiles(root, { 'AGENTS.md': half, 'CLAUDE.md': twice });
    const r = init();
    expect(read('AGENTS.md')).toBe(half);
    expect(read('CLAUDE.md')).toBe(twice);
    expect(r.stdout).toMatch(/skip\s+AGENTS\.md.*one sightline marker/);
    expect(r.stdout).toMatch(/skip\s+CLAUDE\.md.*twice/);
  });

  it('--dry-run shows every change and writes nothing', () => {
    writeFiles(root, { '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'x' } } }) });
    const before = snapshot();
    const r = init(['--dry-run', '--codex', '--hooks']);
    expect(r.code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(fs.readdirSync(codexHome)).toEqual([]);
    expect(r.stdout).toContain('dry run, nothing written');
    expect(r.stdout).toMatch(/would update\s+\.mcp\.json/);
    expect(r.stdout).toMatch(/would create\s+CLAUDE\.md/);
    expect(r.stdout).toContain('--- .vscode/mcp.json (would create) ---');
    expect(r.stdout).toContain(`--- ${path.join(codexHome, 'config.toml')} (would create) ---`);
    expect(r.stdout).toContain(BEGIN);
    expect(r.stdout).toContain('"other"');
  });
});

describe('sightline init --codex', () => {
  const config = () => path.join(codexHome, 'config.toml');

  it("appends the table to the user's config.toml, keeping comments and formatting, with the absolute repository", () => {
    const mine = '# my codex settings\nmodel = "o3"   # keep this comment\n\n[mcp_servers.other]\ncommand = "other"\n';
    fs.writeFileSync(config(), mine);
    const r = init(['--codex']);
    expect(r.code, r.stderr).toBe(0);
    const text = fs.readFileSync(config(), 'utf8');
    expect(text.startsWith(mine)).toBe(true);
    const parsed = parseToml(text) as any;
    expect(parsed.model).toBe('o3');
    expect(parsed.mcp_servers.other).toEqual({ command: 'other' });
    expect(parsed.mcp_servers.sightline).toEqual({ command: process.execPath, args: [CLI, 'serve', '--repo', root] });
    expect(r.stdout).toMatch(/update\s+.*config\.toml\s+\(Codex\)/);
    expect(r.stdout).not.toContain('run init --codex');
    // Again: kept, byte for byte.
    const again = init(['--codex']);
    expect(fs.readFileSync(config(), 'utf8')).toBe(text);
    expect(again.stdout).toMatch(new RegExp(`keep\\s+.*config\\.toml.*for ${root.replace(/[/.]/g, '\\$&')}`));
  });

  it('keeps an existing sightline table, and creates the file under $HOME/.codex when CODEX_HOME is unset', () => {
    const mine = '[mcp_servers.sightline]\ncommand = "mine"\n';
    fs.writeFileSync(config(), mine);
    expect(init(['--codex']).code).toBe(0);
    expect(fs.readFileSync(config(), 'utf8')).toBe(mine);

    const userHome = tempDir('sightline-user-');
    try {
      expect(init(['--codex'], { CODEX_HOME: '', HOME: userHome }).code).toBe(0);
      expect((parseToml(fs.readFileSync(path.join(userHome, '.codex', 'config.toml'), 'utf8')) as any).mcp_servers.sightline.args).toContain(root);
    } finally {
      removeDir(userHome);
    }
  });

  it('refuses to touch invalid TOML, or a file the table cannot be appended to, and says so', () => {
    const invalid = 'model = "o3\n';
    fs.writeFileSync(config(), invalid);
    const r = init(['--codex']);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(config(), 'utf8')).toBe(invalid);
    expect(r.stdout).toMatch(/skip\s+.*config\.toml.*not valid TOML at line 1.*left untouched/);

    const inline = 'mcp_servers = { other = { command = "x" } }\n';
    fs.writeFileSync(config(), inline);
    const clash = init(['--codex']);
    expect(fs.readFileSync(config(), 'utf8')).toBe(inline);
    expect(clash.stdout).toMatch(/skip\s+.*config\.toml.*would not give valid TOML.*\[mcp_servers\.sightline\]/s);
  });
});

describe('sightline init --json', () => {
  it('prints one object: the launch, every file and the Codex part', () => {
    const r = init(['--json', '--codex']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 'ok', root, dry_run: false, launch: { command: process.execPath, args: [CLI] }, codex: { file: path.join(codexHome, 'config.toml'), merged: true } });
    expect(out.files.map((f: { file: string }) => f.file)).toEqual(['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', 'CLAUDE.md', 'AGENTS.md', path.join(codexHome, 'config.toml')]);
    expect(out.files.every((f: { action: string; written: boolean; content?: string }) => f.action === 'create' && f.written && f.content === undefined)).toBe(true);
    const dry = JSON.parse(init(['--json', '--dry-run']).stdout);
    expect(dry.files.every((f: { written: boolean }) => !f.written)).toBe(true);
    expect(dry.codex.snippet).toContain('[mcp_servers.sightline]');
  });

  it('reports an error as a JSON object with the usage exit code', () => {
    const r = runCli(['init', '--repo', path.join(root, 'nope'), '--json'], baseEnv());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'error', error: expect.stringContaining('does not exist') });
  });
});

describe('sightline init --hooks', () => {
  const hookOf = () => readJson('.claude/settings.json').hooks.SessionStart.at(-1).hooks[0];
  const runHook = (command: string) =>
    spawnSync('/bin/sh', ['-c', command], { cwd: path.join(root, 'src'), env: { ...baseEnv(), CLAUDE_PROJECT_DIR: root, SIGHTLINE_EMBEDDER: 'none' }, encoding: 'utf8', timeout: 30_000 });

  it('installs a SessionStart hook whose command briefs the agent, with or without an index, and exits 0', () => {
    expect(init(['--hooks']).code).toBe(0);
    const hook = hookOf();
    expect(hook).toMatchObject({ type: 'command', timeout: expect.any(Number) });
    expect(readJson('.claude/settings.json').hooks.SessionStart[0].matcher).toContain('startup');

    const cold = runHook(hook.command);
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stdout).toContain(`sightline index for ${root}: missing`);
    expect(cold.stdout).toContain('sightline index');
    expect(fs.readdirSync(home)).toEqual([]); // it never builds the index itself

    expect(runCli(['index', root, '--embedder', 'none'], baseEnv()).code).toBe(0);
    const warm = runHook(hook.command);
    expect(warm.status).toBe(0);
    expect(warm.stdout).toMatch(/: ready \(\d+ files, indexed /);
    expect(warm.stdout).toMatch(/2 files \(code 2\); code in typescript 2/);
    expect(warm.stdout).toContain('alphaBeta (src/a.ts:1');
    expect(warm.stdout.split('\n').length).toBeLessThan(25);
  });

  it('merges into settings with comments and other hooks, and refuses settings that are not an object', () => {
    const mine = '{\n  // team settings\n  "model": "opus",\n  "hooks": {\n    "SessionStart": [{ "hooks": [{ "type": "command", "command": "echo hi" }] }],\n    "PreToolUse": []\n  }\n}\n';
    writeFiles(root, { '.claude/settings.json': mine });
    expect(init(['--hooks']).code).toBe(0);
    const text = read('.claude/settings.json');
    expect(text).toContain('// team settings');
    const parsed = parseJsonc(text);
    expect(parsed.model).toBe('opus');
    expect(parsed.hooks.PreToolUse).toEqual([]);
    expect(parsed.hooks.SessionStart).toHaveLength(2);
    expect(parsed.hooks.SessionStart[0].hooks[0].command).toBe('echo hi');
    expect(parsed.hooks.SessionStart[1].hooks[0].command).toMatch(/ brief --repo /);

    writeFiles(root, { '.claude/settings.json': '["not", "settings"]\n' });
    const r = init(['--hooks']);
    expect(read('.claude/settings.json')).toBe('["not", "settings"]\n');
    expect(r.stdout).toMatch(/skip\s+\.claude\/settings\.json.*not an object/);
  });
});
