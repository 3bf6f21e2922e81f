/**
 * Where a directory stands in git, read from the files git keeps, without
 * running git: every index pass asks, and two `git rev-parse` processes cost
 * about 30 ms, a third of a pass that finds nothing changed. It reads the
 * usual layouts (a branch, loose or packed; a detached HEAD; a linked
 * worktree's or submodule's `.git` file) as git does; anything else (reftable,
 * GIT_DIR and friends, a ref it cannot find or read, a work tree another user
 * owns, which git refuses) is asked of git itself. Not handled: a root that is
 * itself a bare repository or lies inside `.git`, and core.worktree settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findGitDir, GIT_ENV, readOrNull as read } from '../git-dir.js';

export interface GitHead {
  /** The directory's path below the work tree's top, with a trailing slash ('' at the top), as `git rev-parse --show-prefix` prints it. */
  prefix: string;
  head: string;
}

/** What the files say: a head, no work tree or no commit yet (null), or "ask git". */
export type HeadReading = GitHead | null | 'ask-git';

const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The commit a ref names, from its loose file or packed-refs; undefined when it is in neither; 'ask-git' for a loose file that holds no hash. */
function resolveRef(commonDir: string, gitDir: string, ref: string): string | undefined | 'ask-git' {
  for (const dir of [gitDir, commonDir]) {
    const loose = read(path.join(dir, ref))?.trim();
    if (loose !== undefined) return HASH.test(loose) ? loose : 'ask-git'; // a broken ref: git says what it means
  }
  for (const line of (read(path.join(commonDir, 'packed-refs')) ?? '').split('\n')) {
    const [hash, name] = line.split(' ');
    if (name?.trim() === ref && hash && HASH.test(hash)) return hash;
  }
  return undefined;
}

export function readGitHead(root: string, env: NodeJS.ProcessEnv = process.env): HeadReading {
  if (GIT_ENV.some((v) => env[v] !== undefined)) return 'ask-git';
  try {
    return readFiles(fs.realpathSync(root));
  } catch {
    return 'ask-git'; // unreadable files: git says what it can
  }
}

function readFiles(dir: string): HeadReading {
  const found = findGitDir(dir);
  if (found === null || found === 'ask-git') return found;
  const { top, gitDir } = found;
  // git refuses a work tree another user owns (safe.directory): then only git knows what it will say.
  if (process.getuid && fs.statSync(top).uid !== process.getuid()) return 'ask-git';
  const commonDir = path.resolve(gitDir, read(path.join(gitDir, 'commondir'))?.trim() ?? '.');
  if (fs.existsSync(path.join(commonDir, 'reftable'))) return 'ask-git';
  const headFile = read(path.join(gitDir, 'HEAD'))?.trim();
  if (!headFile) return 'ask-git';
  let head: string | undefined;
  if (HASH.test(headFile)) head = headFile;
  else {
    const ref = /^ref: (refs\/\S+)$/.exec(headFile)?.[1];
    if (!ref) return 'ask-git';
    const resolved = resolveRef(commonDir, gitDir, ref);
    if (resolved === 'ask-git') return resolved;
    head = resolved;
    // A branch with no commit yet has no ref anywhere: git says "no HEAD" too. Any other miss, git decides.
    if (head === undefined) return fs.existsSync(path.join(commonDir, 'objects')) && !hasAnyRef(commonDir) ? null : 'ask-git';
  }
  const below = path.relative(top, dir).split(path.sep).join('/');
  return { prefix: below ? `${below}/` : '', head };
}

/** Whether any branch or tag exists (a fresh `git init` has none). */
function hasAnyRef(commonDir: string): boolean {
  const packed = read(path.join(commonDir, 'packed-refs')) ?? '';
  if (/^[0-9a-f]{40}/m.test(packed)) return true;
  const walk = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : true));
  return fs.existsSync(path.join(commonDir, 'refs')) && walk(path.join(commonDir, 'refs'));
}
