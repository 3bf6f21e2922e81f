/**
 * Issue 21, one skip ledger: the pass, `stats`, `doctor` and the dry run
 * reported skips three ways that disagreed (the pass said too_large and
 * not_regular, stats only binary and unreadable, doctor "every file could be
 * read" after a file name that is not UTF-8 was skipped). Now each counts the
 * same reasons with the same counts, from walk/skips.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doctor, dryRun, Repo } from '../../src/engine/index.js';
import { stats } from '../../src/engine/stats.js';
import { describeSkips, SKIP_REASONS } from '../../src/walk/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

const root = makeRepo({
  '.gitignore': 'out.log\n',
  'out.log': 'ignored\n',
  'src/app.py': 'def kept():\n    pass\n',
  'data/blob.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]),
  'data/huge.txt': 'x'.repeat(3000),
  'node_modules/dep/index.js': 'module.exports = 1;\n',
});
fs.symlinkSync('src', path.join(root, 'src-alias'));
execFileSync('mkfifo', [path.join(root, 'pipe')]);
// A file name that is not valid UTF-8: Node reads it back with U+FFFD, which names no file.
fs.writeFileSync(Buffer.concat([Buffer.from(root + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.py')]), 'x = 1\n');
const home = tempDir('sightline-home-');
const repo = Repo.open(root, { flags: { home, maxFileBytes: 2000 }, env: {} });
afterAll(() => {
  repo.close();
  removeDir(root);
  removeDir(home);
});

const expected = { binary: 1, default_exclude: 1, gitignore: 1, not_regular: 1, symlink_dir: 1, too_large: 1, unreadable: 1 };

describe('the skip ledger', () => {
  it('names every reason it counts', () => {
    for (const reason of Object.keys(expected)) expect(SKIP_REASONS).toHaveProperty(reason);
  });

  it('is the same in the dry run, the pass, stats and doctor', async () => {
    const planned = await dryRun(repo);
    expect(planned.skipped).toEqual(expected);
    const first = await repo.index();
    expect(first.skipped).toEqual(expected);
    expect(stats(repo).skipped).toEqual(expected);
    const check = doctor(repo).checks.find((c) => c.name === 'skipped files');
    expect(check).toEqual({ name: 'skipped files', ok: true, detail: `${describeSkips(expected)}; the 1 unreadable are retried every pass` });
    expect(check?.detail).toMatch(/^7 left out: /);
  });

  it('stays the same on a pass that changes nothing, and forgets what is gone', async () => {
    const again = await repo.index();
    expect(again.skipped).toEqual(expected);
    expect(stats(repo).skipped).toEqual(expected);
    fs.rmSync(path.join(root, 'data/huge.txt'));
    fs.rmSync(path.join(root, 'src-alias'));
    const { too_large: _large, symlink_dir: _link, ...rest } = expected;
    expect((await repo.index()).skipped).toEqual(rest);
    expect(stats(repo).skipped).toEqual(rest);
    expect((await dryRun(repo)).skipped).toEqual(rest);
  });
});
