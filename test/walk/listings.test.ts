/**
 * Directory listings kept between walks of one tree (walk/listings.ts): a directory whose stat has
 * not moved is not read again, and every way its entries' fate can change is still seen. The
 * clock runs a minute ahead in most of these, so that the fixture's fresh directories count as
 * settled; one test keeps the real clock to show that fresh ones are read every time.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Listings, walk, type WalkOptions, type WalkResult } from '../../src/walk/index.js';
import { makeTree } from './helpers.js';

const ahead = () => Date.now() + 60_000;
const paths = (r: WalkResult) => r.files.map((f) => f.path);
/** Listings past their first walk (which keeps nothing), as a process's second walk of `root` leaves them. */
async function walkedTwice(root: string, maxFiles = 1_000, now = ahead): Promise<Listings> {
  const listings = new Listings(maxFiles, now);
  await walk({ root, listings });
  await walk({ root, listings });
  return listings;
}
/** A git work tree of `files`, git tracking `tracked` (force-added, ignored or not). */
function gitTree(files: Record<string, string>, tracked: string[]): string {
  const top = makeTree(files);
  const git = (...args: string[]) => execFileSync('git', ['-C', top, ...args], { encoding: 'utf8' });
  git('init', '-q');
  git('config', 'core.excludesFile', '/dev/null');
  git('add', '-f', ...tracked);
  return top;
}

/** A walk with `listings`, and with none: the two must agree. */
async function both(opts: WalkOptions, listings: Listings): Promise<WalkResult> {
  const kept = await walk({ ...opts, listings });
  expect(kept).toEqual(await walk(opts));
  return kept;
}

const SPEC = {
  '.gitignore': '*.log\n',
  'a.ts': 'a',
  'src/b.ts': 'b',
  'src/deep/c.ts': 'c',
  'src/deep/debug.log': 'log',
  'lib/d.ts': 'd',
  'node_modules/x/i.js': 'x',
};
const DIRS = ['', 'src', 'src/deep', 'lib']; // node_modules is excluded by name, never read

describe('directory listings kept between walks', () => {
  it('keeps nothing from a first walk, reads each directory on the second, then only stats: what a walk without them finds', async () => {
    const root = makeTree(SPEC);
    const listings = new Listings(1_000, ahead);
    await both({ root }, listings);
    expect(listings.lastWalk).toEqual({ reused: 0, read: 0 });
    const first = await both({ root }, listings);
    expect(listings.lastWalk).toEqual({ reused: 0, read: DIRS.length });
    expect(paths(first)).toEqual(['.gitignore', 'a.ts', 'lib/d.ts', 'src/b.ts', 'src/deep/c.ts']);

    fs.writeFileSync(path.join(root, 'src/b.ts'), 'b, edited to a new size');
    const second = await both({ root }, listings);
    expect(listings.lastWalk).toEqual({ reused: DIRS.length, read: 0 });
    expect(second.files.find((f) => f.path === 'src/b.ts')?.size).toBe('b, edited to a new size'.length);
    expect(second.skipped).toEqual(first.skipped);
  });

  it('reads again a directory an entry was added to or removed from, and forgets one removed', async () => {
    const root = makeTree(SPEC);
    const listings = await walkedTwice(root);

    fs.writeFileSync(path.join(root, 'src/deep/new.ts'), 'new');
    fs.rmSync(path.join(root, 'lib'), { recursive: true });
    const r = await both({ root }, listings);
    expect(paths(r)).toEqual(['.gitignore', 'a.ts', 'src/b.ts', 'src/deep/c.ts', 'src/deep/new.ts']);
    expect(listings.lastWalk).toEqual({ reused: 1, read: 2 }); // src kept; the root (lib gone) and src/deep read

    fs.mkdirSync(path.join(root, 'lib'));
    fs.writeFileSync(path.join(root, 'lib/e.ts'), 'e');
    expect(paths(await both({ root }, listings))).toContain('lib/e.ts');
  });

  it("judges again what a .gitignore edited in place covers, its directory's stat unmoved", async () => {
    const root = makeTree(SPEC);
    const listings = await walkedTwice(root);
    const dirStat = fs.statSync(path.join(root, 'src'));

    fs.writeFileSync(path.join(root, '.gitignore'), '*.log\nsrc/deep/\n');
    expect(fs.statSync(path.join(root, 'src')).mtimeMs).toBe(dirStat.mtimeMs);
    const r = await both({ root }, listings);
    expect(paths(r)).toEqual(['.gitignore', 'a.ts', 'lib/d.ts', 'src/b.ts']);
    expect(r.skipped).toContainEqual({ path: 'src/deep/', reason: 'gitignore', rule: '.gitignore: src/deep/' });
    // The root (its .gitignore moved) and the directories judged under its rules are read again.
    expect(listings.lastWalk).toEqual({ reused: 0, read: 3 });
  });

  it('two walks at once each keep what they visited: the next walk reads nothing', async () => {
    // More directories than a turn reads (walk/turns.ts), so the two walks take turns.
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`d${i}/f.ts`, 'x']));
    const root = makeTree(many);
    const listings = await walkedTwice(root);
    const [a, b] = await Promise.all([walk({ root, listings }), walk({ root, listings })]);
    expect(paths(a)).toEqual(paths(b));
    await both({ root }, listings);
    expect(listings.lastWalk).toEqual({ reused: 151, read: 0 });
  });

  it('a walk under other options kept alongside one in progress is not found by it, nor it by the next', async () => {
    const root = makeTree({ ...SPEC, ...Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`lib/d${i}/f.ts`, 'x'])) });
    const listings = await walkedTwice(root);
    const other = { root, exclude: ['lib/**'] };
    const [plain, excluding] = await Promise.all([walk({ root, listings }), walk({ ...other, listings })]);
    expect(paths(plain)).toContain('lib/d.ts');
    expect(paths(excluding)).not.toContain('lib/d.ts');
    await both({ root }, listings); // the same answer as a walk without listings, whichever walk finished last
    await both(other, listings);
  });

  it('walks afresh under other globs or excluded names', async () => {
    const root = makeTree(SPEC);
    const listings = await walkedTwice(root);
    expect(paths(await both({ root, exclude: ['lib/**'] }, listings))).not.toContain('lib/d.ts');
    expect(listings.lastWalk.reused).toBe(0);
    expect(paths(await both({ root, exclude: ['lib/**'], excludeDirs: [] }, listings))).toContain('node_modules/x/i.js');
    expect(listings.lastWalk.reused).toBe(0);
  });

  it('reads again, each walk, a directory changed within the last moments, and one holding a symlink', async () => {
    const root = makeTree(SPEC);
    fs.symlinkSync('b.ts', path.join(root, 'src/link.ts'));
    const now = await walkedTwice(root, 1_000, Date.now); // the real clock: every directory was just made
    await both({ root }, now);
    expect(now.lastWalk).toEqual({ reused: 0, read: DIRS.length });

    const ahead_ = await walkedTwice(root);
    const r = await both({ root }, ahead_);
    expect(ahead_.lastWalk).toEqual({ reused: DIRS.length - 1, read: 1 }); // src, for its link
    expect(paths(r)).toContain('src/link.ts');
  });

  it('keeps no more listings than its share of files allows', async () => {
    const root = makeTree(SPEC);
    const listings = await walkedTwice(root, 2); // the root's two files fill it
    await both({ root }, listings);
    expect(listings.lastWalk).toEqual({ reused: 1, read: DIRS.length - 1 });
  });

  it('judges again a directory an ignore rule matched once git tracks other files', async () => {
    const root = gitTree({ '.gitignore': 'gen\n', 'gen/kept.ts': 'k', 'gen/other.ts': 'o', 'main.ts': 'm' }, ['.gitignore', 'main.ts', 'gen/kept.ts']);
    const listings = await walkedTwice(root);
    expect(paths(await both({ root }, listings))).toEqual(['.gitignore', 'gen/kept.ts', 'main.ts']);

    execFileSync('git', ['-C', root, 'add', '-f', 'gen/other.ts']);
    expect(paths(await both({ root }, listings))).toEqual(['.gitignore', 'gen/kept.ts', 'gen/other.ts', 'main.ts']);
  });

  it("reuses what asked git's index from a root below the work tree's top, while the index is unchanged", async () => {
    const top = gitTree({ 'sub/.gitignore': 'gen\n', 'sub/gen/kept.ts': 'k', 'sub/gen/other.ts': 'o', 'sub/main.ts': 'm' }, ['sub/.gitignore', 'sub/main.ts', 'sub/gen/kept.ts']);
    const root = path.join(top, 'sub');
    const listings = await walkedTwice(root);
    expect(paths(await both({ root }, listings))).toEqual(['.gitignore', 'gen/kept.ts', 'main.ts']);
    expect(listings.lastWalk).toEqual({ reused: 2, read: 0 });
  });
});
