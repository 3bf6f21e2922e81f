/**
 * Every benchmark script of package.json answers `--help` with how to run it (the doc comment
 * that opens it, bench/util.ts) and exits 0, running nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** `npm run <name>` → the file it runs, for each benchmark, corpus and ranker script. */
const benches = Object.entries(scripts).flatMap(([name, command]) => {
  const file = /^node (\S+\.m?js)$/.exec(command)?.[1];
  return /^(bench|corpus|ranker):/.test(name) && file ? [[name, file] as const] : [];
});

describe('benchmark scripts', () => {
  it('are found in package.json', () => {
    expect(benches.map(([name]) => name)).toEqual(expect.arrayContaining(['bench:index', 'bench:quality', 'bench:peer', 'bench:start', 'corpus:mine', 'ranker:train']));
  });

  const help = (file: string, flag: string) => spawnSync(process.execPath, [file, flag], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

  it.each(benches)('%s --help says how to run it and exits 0', (name, file) => {
    const r = help(file, '--help');
    expect(r.status, `${name}: ${r.stderr.slice(-300)}`).toBe(0);
    expect(r.stdout).not.toMatch(/no usage found/);
    // Its opening line names the command, where the script's comment does.
    const opening = fs.readFileSync(path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')), 'utf8');
    if (/^\/\*\*\s*\n\s*\* npm run /.test(opening) || file.endsWith('.mjs')) expect(r.stdout).toContain(`npm run ${name}`);
    else expect(r.stdout.trim().split('\n').length).toBeGreaterThan(1);
  });

  it('-h is --help', () => {
    const [, file] = benches.find(([name]) => name === 'bench:index')!;
    expect(help(file, '-h').stdout).toBe(help(file, '--help').stdout);
  });
});
