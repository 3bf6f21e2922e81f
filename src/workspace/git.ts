/**
 * Git-sourced repositories: a bare clone and one detached worktree per
 * repository under $SIGHTLINE_HOME, so the index is built from a commit, never
 * from someone's working tree. `materialise` clones on first use, fetches
 * after, resolves the ref and checks the commit out; the caller indexes it.
 * Git runs with a fixed argument list (no shell), `--` before every URL, and
 * only the transports a remote needs (no ext::, no file:// from the caller).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { credentialUrl, SightlineError, usageError } from '../errors/index.js';

const run = promisify(execFile);

/** Transports a caller may name; a local path is resolved by the workspace (inside its root). */
const REMOTE_URL = /^(https?|ssh|git):\/\/[^\s]+$|^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+$/;

export function isRemoteUrl(source: string): boolean {
  return REMOTE_URL.test(source);
}

/** Refuses URLs git must never be handed: other transports, credentials in the URL (an option-like source is refused before). */
export function checkGitUrl(url: string): void {
  if (!isRemoteUrl(url)) throw usageError(`git source ${JSON.stringify(url)} is neither a path inside the workspace nor an https, ssh or git URL`);
  if (credentialUrl(url)) throw usageError('the git URL carries a password; remove the user:password part and configure a git credential helper for this machine instead');
}

/** A ref as git accepts one, and nothing that reads as an option. */
export function checkRef(ref: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(ref) || ref.includes('..')) {
    throw usageError(`ref ${JSON.stringify(ref)} is not a branch, tag or commit name (letters, digits, ".", "_", "/", "-")`);
  }
  return ref;
}

/** `5m`, `30s`, `1h`, `1d` as milliseconds; at least one second. */
export function parseInterval(text: string): number {
  const m = /^(\d{1,6})(s|m|h|d)$/.exec(text.trim());
  if (!m || Number(m[1]) === 0) throw usageError(`refresh ${JSON.stringify(text)} is not an interval; write a number and a unit, e.g. 30s, 5m, 1h or 1d`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

const GIT_ENV = {
  GIT_TERMINAL_PROMPT: '0', // never wait on a password prompt
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * `local`: the source is a repository under the workspace root, which the
 * file transport may read; a URL gets only the transports git always allows
 * (https, ssh, git), so neither ext:: nor file:// is reachable through it.
 */
async function git(args: string[], options: { cwd?: string; local?: boolean } = {}): Promise<string> {
  const transports = options.local ? ['-c', 'protocol.file.allow=always'] : [];
  const env = { ...process.env, ...GIT_ENV, ...(options.local ? {} : { GIT_PROTOCOL_FROM_USER: '0' }) };
  try {
    const { stdout } = await run('git', [...transports, ...args], { cwd: options.cwd, env, maxBuffer: 16 * 1_048_576 });
    return stdout.trim();
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim().split('\n').pop() ?? '';
    throw new SightlineError('io', `git ${args[0] === '--git-dir' ? args[2] : args[0]} failed: ${stderr || (err as Error).message}`);
  }
}

/** Where one git-sourced repository lives: its bare clone and the worktree that is indexed. */
export interface GitPlace {
  bare: string;
  tree: string;
}

export function gitPlace(dir: string): GitPlace {
  return { bare: path.join(dir, 'repo.git'), tree: path.join(dir, 'tree') };
}

/**
 * Brings the worktree to the commit `ref` names at `url` now and returns that
 * commit. Idempotent: a second call with nothing new fetches and checks out
 * nothing.
 */
export async function materialise(place: GitPlace, url: string, ref: string): Promise<string> {
  const local = !isRemoteUrl(url);
  if (!fs.existsSync(path.join(place.bare, 'HEAD'))) {
    fs.rmSync(place.bare, { recursive: true, force: true }); // a clone cut short
    await git(['clone', '--bare', '--quiet', '--', url, place.bare], { local });
  } else {
    await git(['--git-dir', place.bare, 'fetch', '--quiet', '--prune', '--force', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { local });
  }
  let commit: string;
  try {
    commit = await git(['--git-dir', place.bare, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch {
    throw usageError(`ref ${ref} names no commit in ${url}`);
  }
  if (!fs.existsSync(path.join(place.tree, '.git'))) {
    fs.rmSync(place.tree, { recursive: true, force: true }); // a checkout cut short: the folder is ours
    fs.mkdirSync(place.tree, { recursive: true });
    await git(['--git-dir', place.bare, 'worktree', 'prune']);
    await git(['--git-dir', place.bare, 'worktree', 'add', '--detach', '--force', '--quiet', place.tree, commit]);
  } else if ((await git(['rev-parse', 'HEAD'], { cwd: place.tree })) !== commit) {
    await git(['checkout', '--detach', '--force', '--quiet', commit], { cwd: place.tree });
  }
  return commit;
}
