/** Runs the built CLI (dist/) as a child process, the way users and CI do. */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/cli/main.js');

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
