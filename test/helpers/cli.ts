/** Runs the built CLI (dist/) as a child process, the way users and CI do. */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/cli/main.js');

/** The environment of a child whose opens of paths ending with `suffix` fail with EACCES (faults/unreadable.mjs). */
export function unreadableEnv(suffix: string): NodeJS.ProcessEnv {
  const preload = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'faults/unreadable.mjs')).href;
  return { NODE_OPTIONS: `--import=${preload}`, FAULT_UNREADABLE_SUFFIX: suffix };
}

/** The environment of a child that reports each module it loads on stderr (probes/loaded-modules.mjs; read it with `modulesLoaded`). */
export function loadedModulesEnv(): Record<string, string> {
  const probe = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'probes/loaded-modules.mjs')).href;
  return { NODE_OPTIONS: `--import=${probe}` };
}

/**
 * The modules a child run with `loadedModulesEnv` reported in `stderr`, its threads' included, as
 * paths relative to the checkout (node_modules/… for packages, node:… for Node's own). The CLI is
 * bundled (scripts/bundle.mjs): a bundled file counts as the sources it holds (src/….ts and
 * node_modules/…), so the list names modules, not chunks.
 */
export function modulesLoaded(stderr: string): string[] {
  const bundleDir = pathToFileURL(path.dirname(CLI)).href + '/';
  const bundled = JSON.parse(fs.readFileSync(path.join(path.dirname(CLI), 'bundle.json'), 'utf8')) as Record<string, string[]>;
  const root = pathToFileURL(path.resolve(path.dirname(CLI), '../../..')).href + '/';
  return [...stderr.matchAll(/^module-loaded ((?:file|node):\S+)$/gm)].flatMap(([, url]) => {
    const name = url!.startsWith(bundleDir) ? url!.slice(bundleDir.length) : null;
    if (name !== null && bundled[name]) return bundled[name];
    // A package from node_modules/ on, wherever node_modules lies (a linked one resolves outside the checkout).
    return [url!.includes('/node_modules/') ? url!.slice(url!.indexOf('/node_modules/') + 1) : url!.replace(root, '')];
  });
}

/**
 * What bundled file `entry` (dist/src/cli/…) loads before it runs: the sources of it and the
 * chunks it imports statically, and the packages and Node modules those import.
 */
export function bundledGraph(entry: string): { sources: string[]; imports: string[] } {
  const dir = path.dirname(CLI);
  const bundled = JSON.parse(fs.readFileSync(path.join(dir, 'bundle.json'), 'utf8')) as Record<string, string[]>;
  const files = new Set<string>();
  const imports = new Set<string>();
  for (const todo = [entry]; todo.length > 0; ) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    // esbuild writes one static import per line: `import … from "x";`, `export … from "x";` or `import "x";`.
    for (const [, from, bare] of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)";?$|^import\s*"([^"]+)";?$/gm)) {
      const spec = (from ?? bare)!;
      if (spec.startsWith('./')) todo.push(spec.slice(2));
      else imports.add(spec);
    }
  }
  return { sources: [...files].flatMap((f) => bundled[f] ?? []), imports: [...imports] };
}

/** A CLI run's result and the modules it loaded (`modulesLoaded`). */
export function loadedModules(args: string[], env: NodeJS.ProcessEnv = {}): CliResult & { modules: string[] } {
  const result = runCli(args, { ...env, ...loadedModulesEnv() });
  return { ...result, modules: modulesLoaded(result.stderr) };
}

/** The environment of a server child that offers a tool `test_slow` sleeping `ms` (faults/slow-tool.mjs). */
export function slowToolEnv(ms: number): Record<string, string> {
  const preload = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'faults/slow-tool.mjs')).href;
  return { NODE_OPTIONS: `--import=${preload}`, FAULT_SLOW_TOOL_MS: String(ms) };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: SpawnSyncOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 60_000,
    ...options,
  });
  return { code: r.status ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * Runs `body` with the spawn options of a user that file permissions bind:
 * this one when not root, else nobody — if nobody may run node here at all
 * (a hardened machine keeps /usr from other users). Null when no such user
 * exists: the caller then injects the fault instead.
 */
export function asUnprivileged<T>(body: (user: SpawnSyncOptions) => T): T | null {
  if (process.getuid?.() !== 0) return body({});
  const nobody = { uid: 65534, gid: 65534 };
  if (spawnSync(process.execPath, ['-e', ''], nobody).status !== 0) return null;
  return body(nobody);
}
