/**
 * One reusable checkout per repository whose history ends at a record's base
 * commit (shared/bench/README.md): objects come from the fetched mirror through
 * git alternates, and moving to the next record moves the branch and checks it
 * out, so only the files that differ change on disk and the index updates
 * incrementally. Without history the git directory lives outside the tree, so
 * the tree is an ordinary directory with no .git.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The mirror `fetch` left for owner/name (`<mirrors>/<owner>+<name>/repo`), matched case-insensitively. */
export function findMirror(mirrors: string, repo: string): string {
  const want = repo.replace('/', '+').toLowerCase();
  const entry = fs.existsSync(mirrors) ? fs.readdirSync(mirrors).find((d) => d.toLowerCase() === want) : undefined;
  const dir = entry && path.join(mirrors, entry, 'repo');
  if (!dir || !fs.existsSync(dir)) throw new Error(`no mirror for ${repo} under ${mirrors}: fetch github:${repo} first`);
  return path.resolve(dir);
}

export class Checkout {
  readonly root: string;
  private readonly gitDir: string;

  constructor(
    private readonly mirror: string,
    workDir: string,
    repo: string,
    withHistory: boolean,
  ) {
    const key = repo.replace('/', '+').toLowerCase();
    this.root = path.join(workDir, 'trees', withHistory ? key : `${key}-nogit`);
    this.gitDir = withHistory ? path.join(this.root, '.git') : path.join(workDir, 'gitdirs', `${key}-nogit`);
    if (!fs.existsSync(path.join(this.gitDir, 'HEAD'))) this.init(withHistory);
  }

  private init(withHistory: boolean): void {
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.rmSync(this.gitDir, { recursive: true, force: true });
    fs.mkdirSync(this.root, { recursive: true });
    if (withHistory) git(['init', '-q', this.root]);
    else {
      git(['init', '-q', `--separate-git-dir=${this.gitDir}`, this.root]);
      fs.rmSync(path.join(this.root, '.git')); // the pointer file: the tree must not look like a git work tree
    }
    fs.writeFileSync(path.join(this.gitDir, 'objects', 'info', 'alternates'), path.join(this.mirror, 'objects') + '\n');
  }

  /**
   * Moves the branch to `commit` and makes the tree match it exactly, but for
   * files whose content the mirror lacks: a fetched snapshot leaves out files
   * of 4 MiB and more (data, archives, images), so those are left out of the
   * tree through sparse checkout rather than failing the record.
   */
  moveTo(commit: string): void {
    const g = ['--git-dir', this.gitDir, '--work-tree', this.root];
    git([...g, 'update-ref', 'refs/heads/main', commit]);
    git([...g, 'symbolic-ref', 'HEAD', 'refs/heads/main']);
    for (let tries = 0; ; tries++) {
      try {
        git([...g, 'checkout', '-q', '-f', 'main']);
        break;
      } catch (err) {
        const stderr = String((err as { stderr?: string }).stderr ?? '');
        const missing = (/unable to read sha1 file of (.+) \([0-9a-f]+\)/.exec(stderr) ?? /invalid object [0-9a-f]+ [0-9a-f]+ for '(.+)'/.exec(stderr))?.[1];
        if (!missing || tries >= 20) throw err;
        this.leaveOut(missing);
      }
    }
    git([...g, 'clean', '-q', '-f', '-d', '-x']);
  }

  private leaveOut(file: string): void {
    const patterns = path.join(this.gitDir, 'info', 'sparse-checkout');
    fs.mkdirSync(path.dirname(patterns), { recursive: true });
    if (!fs.existsSync(patterns)) fs.writeFileSync(patterns, '/*\n');
    fs.appendFileSync(patterns, `!/${file}\n`);
    git(['--git-dir', this.gitDir, 'config', 'core.sparseCheckout', 'true']);
  }
}

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
}
