/**
 * The command a client runs to start sightline. A client spawns it from its
 * own environment, where nothing guarantees `sightline` is on PATH (the
 * package is not published), so the bare name is written only when PATH's
 * `sightline` is this very CLI (a global install or `npm link` of this
 * checkout); otherwise this Node and this CLI by absolute path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const COMMAND = 'sightline';

/** This CLI's entry point, dist/src/cli/main.js, next to this module in the build. */
export const CLI_PATH = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

export interface Launch {
  command: string;
  /** Arguments before the verb (`serve`, `brief`). */
  args: string[];
  /** Why this form: said by init. */
  reason: string;
}

export interface LaunchInputs {
  /** The PATH to look `sightline` up on. */
  path: string | undefined;
  node: string;
  cli: string;
}

function realpath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/** The first executable `sightline` on `searchPath`, as a shell would find it. */
export function findOnPath(searchPath: string | undefined, name = COMMAND): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function resolveLaunch({ path: searchPath, node, cli }: LaunchInputs): Launch {
  const found = findOnPath(searchPath);
  const self = realpath(cli);
  if (found && self && realpath(found) === self) return { command: COMMAND, args: [], reason: `${found} is this sightline (a global install), so the bare name` };
  const why = found ? `${found} is another sightline` : 'sightline is not on PATH';
  return { command: node, args: [cli], reason: `${why}, so this Node and CLI by absolute path; \`npm link\` in the checkout makes it a command` };
}

const SHELL_SAFE = /^[A-Za-z0-9_./:=@%+-]+$/;

/** One word for a POSIX shell. */
export function shellWord(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Whether a client with `searchPath` could start `command`: an existing executable path, or a name found on PATH. */
export function startable(command: string, searchPath: string | undefined): boolean {
  if (command.includes('/') || command.includes(path.sep)) {
    try {
      fs.accessSync(command, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
  return findOnPath(searchPath, command) !== null;
}
