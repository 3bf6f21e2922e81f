/** Workspace fixtures: a root with repositories in it, git repositories made with the real git, and polling. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeFiles } from '../helpers/fixture.js';

/** Runs git in `cwd` with a fixed identity; returns its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A git repository of `files` at `dir` with one commit on main; returns the commit. */
export function gitRepo(dir: string, files: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  return commit(dir, files, 'first');
}

/** Writes `files` and commits them; returns the new commit. */
export function commit(dir: string, files: Record<string, string>, message: string): string {
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** Polls `probe` until it returns something other than undefined, or fails with the last thing it saw. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function exists(...parts: string[]): boolean {
  return fs.existsSync(path.join(...parts));
}
