// Cross-check the walker's .gitignore handling against git itself:
// `git ls-files --others --exclude-standard` lists exactly the untracked files
// that are not ignored, which is what walk() must return for a fresh repo.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { walk } from '../../src/walk/index.js';
import { makeTree } from './helpers.js';

const spec: Record<string, string> = {
  '.git-info-exclude': '',
  '.gitignore': ['*.log', '!important.log', '/root-only.txt', 'build-*/', 'docs/**/draft*', '**/cache', 'b/', '*.o', '# comment', ''].join('\n'),
  'important.log': 'x',
  'debug.log': 'x',
  'root-only.txt': 'x',
  'sub/root-only.txt': 'x',
  'build-x/a.js': 'x',
  'src/build-y/b.js': 'x',
  'src/build-z': 'file, not dir',
  'docs/draft1.md': 'x',
  'docs/a/b/draft2.md': 'x',
  'docs/final.md': 'x',
  'deep/er/cache/c.bin': 'x',
  'b/y.js': 'x',
  'a/.gitignore': '!b/\n*.txt\n!keep.txt\n/anchored.md\nx/y.md\n',
  'a/b/x.js': 'x',
  'a/b/c/z.js': 'x',
  'a/note.txt': 'x',
  'a/keep.txt': 'x',
  'a/deep/keep.txt': 'x',
  'a/deep/other.txt': 'x',
  'a/anchored.md': 'x',
  'a/deep/anchored.md': 'x',
  'a/x/y.md': 'x',
  'a/q/x/y.md': 'x',
  'a/obj.o': 'x',
  'c/.gitignore': '*\n!*/\n!*.ts\n',
  'c/one.ts': 'x',
  'c/one.js': 'x',
  'c/d/two.ts': 'x',
  'c/d/two.md': 'x',
  'e/.gitignore': 'sub/\n',
  'e/sub/f.ts': 'x',
  'e/other/sub/g.ts': 'x',
  'e/subfile': 'x',
  'f/.gitignore': '!*.log\n',
  'f/keep.log': 'x',
  'f/g/also.log': 'x',
  'weird name [1]/.gitignore': 'hidden*\n',
  'weird name [1]/hidden.ts': 'x',
  'weird name [1]/shown.ts': 'x',
  'weird name 1/hidden.ts': 'x',
  'spaces/.gitignore': 'trailing.txt   \n',
  'spaces/trailing.txt': 'x',
};

describe('parity with git', () => {
  it('returns exactly the files git considers untracked and not ignored', async () => {
    const root = makeTree(spec);
    execFileSync('git', ['init', '-q', root], { stdio: 'ignore' });
    execFileSync('git', ['-C', root, 'config', 'core.excludesFile', '/dev/null']);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${root}/.git/info/exclude`, '.git-info-exclude\n*.secret\n');
    writeFileSync(`${root}/top.secret`, 'x');
    const out = execFileSync('git', ['-C', root, 'ls-files', '-z', '--others', '--exclude-standard'], { encoding: 'utf8' });
    const gitFiles = out.split('\0').filter(Boolean).sort();
    const res = await walk({ root });
    const ours = res.files.map((f) => f.path);
    expect(ours).toEqual(gitFiles);
    // Sanity: the fixture really exercises ignoring (the comparison would be vacuous otherwise).
    expect(res.skipped.filter((s) => s.reason === 'gitignore').length).toBeGreaterThan(10);
  });
});
