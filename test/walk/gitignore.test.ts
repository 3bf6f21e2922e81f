import { describe, expect, it } from 'vitest';
import { walk } from '../../src/walk/index.js';
import { parseGitignore } from '../../src/walk/gitignore.js';
import { makeTree, writeTree } from './helpers.js';

async function run(spec: Record<string, string>, extra: { gitignore?: boolean } = {}) {
  const root = makeTree(spec);
  const res = await walk({ root, ...extra });
  const files = res.files.map((f) => f.path);
  const skipped = new Map(res.skipped.map((s) => [s.path, s]));
  return { root, res, files, skipped };
}

describe('hierarchical .gitignore', () => {
  it('a nested negation overrides the parent rule only below its directory', async () => {
    const { files, skipped } = await run({
      '.gitignore': '*.log\n',
      'keep.log': 'x',
      'a.log': 'x',
      'main.ts': 'x',
      'sub/.gitignore': '!keep.log\n',
      'sub/keep.log': 'x',
      'sub/other.log': 'x',
      'sub/deeper/keep.log': 'x',
    });
    expect(files).toEqual(['.gitignore', 'main.ts', 'sub/.gitignore', 'sub/deeper/keep.log', 'sub/keep.log']);
    expect(skipped.get('keep.log')).toEqual({ path: 'keep.log', reason: 'gitignore', rule: '.gitignore: *.log' });
    expect(skipped.get('a.log')?.rule).toBe('.gitignore: *.log');
    expect(skipped.get('sub/other.log')).toEqual({ path: 'sub/other.log', reason: 'gitignore', rule: '.gitignore: *.log' });
  });

  it('attributes a rule to the .gitignore file it came from', async () => {
    const { files, skipped } = await run({
      'pkg/.gitignore': '*.gen.ts\n',
      'pkg/a.gen.ts': 'x',
      'pkg/a.ts': 'x',
      'other/b.gen.ts': 'x',
    });
    expect(skipped.get('pkg/a.gen.ts')).toEqual({ path: 'pkg/a.gen.ts', reason: 'gitignore', rule: 'pkg/.gitignore: *.gen.ts' });
    expect(files).toContain('other/b.gen.ts');
    expect(files).toContain('pkg/a.ts');
  });

  it('anchors patterns with a leading or middle slash to their .gitignore directory', async () => {
    const { files, skipped } = await run({
      '.gitignore': '/top.txt\ndocs/gen.md\n',
      'top.txt': 'x',
      'sub/top.txt': 'x',
      'docs/gen.md': 'x',
      'x/docs/gen.md': 'x',
      'sub/.gitignore': '/local.txt\nsrc/out.js\n',
      'sub/local.txt': 'x',
      'sub/inner/local.txt': 'x',
      'local.txt': 'x',
      'sub/src/out.js': 'x',
      'sub/inner/src/out.js': 'x',
    });
    expect(skipped.get('top.txt')?.rule).toBe('.gitignore: /top.txt');
    expect(skipped.get('docs/gen.md')?.rule).toBe('.gitignore: docs/gen.md');
    expect(skipped.get('sub/local.txt')?.rule).toBe('sub/.gitignore: /local.txt');
    expect(skipped.get('sub/src/out.js')?.rule).toBe('sub/.gitignore: src/out.js');
    expect(files).toEqual(
      expect.arrayContaining(['sub/top.txt', 'x/docs/gen.md', 'sub/inner/local.txt', 'local.txt', 'sub/inner/src/out.js']),
    );
    expect(files).not.toContain('top.txt');
    expect(files).not.toContain('sub/local.txt');
  });

  it('supports ** in leading, middle and trailing positions', async () => {
    const { files, skipped } = await run({
      '.gitignore': '**/tmp\nlogs/**/*.txt\na/**/b\n',
      'tmp/x.ts': 'x',
      'src/deep/tmp/y.ts': 'x',
      'logs/one.txt': 'x',
      'logs/x/y/two.txt': 'x',
      'logs/keep.md': 'x',
      'other/logs/three.txt': 'x',
      'a/b': 'x',
      'a/x/y/b': 'x',
      'c/a/b': 'x',
      'src/ok.ts': 'x',
    });
    expect(skipped.get('tmp/')).toEqual({ path: 'tmp/', reason: 'gitignore', rule: '.gitignore: **/tmp' });
    expect(skipped.get('src/deep/tmp/')?.reason).toBe('gitignore');
    expect(skipped.get('logs/one.txt')?.rule).toBe('.gitignore: logs/**/*.txt');
    expect(skipped.get('logs/x/y/two.txt')?.rule).toBe('.gitignore: logs/**/*.txt');
    expect(skipped.get('a/b')?.rule).toBe('.gitignore: a/**/b');
    expect(skipped.get('a/x/y/b')?.rule).toBe('.gitignore: a/**/b');
    expect(files.filter((f) => f !== '.gitignore')).toEqual(['c/a/b', 'logs/keep.md', 'other/logs/three.txt', 'src/ok.ts']);
  });

  it('applies directory-only rules to directories (recorded once) but not to files of that name', async () => {
    const { res, files, skipped } = await run({
      '.gitignore': 'out/\n',
      'out/a.js': 'x',
      'out/deep/b.js': 'x',
      'src/out/c.js': 'x',
      'lib/out': 'a file named out',
    });
    expect(skipped.get('out/')).toEqual({ path: 'out/', reason: 'gitignore', rule: '.gitignore: out/' });
    expect(skipped.get('src/out/')?.rule).toBe('.gitignore: out/');
    // The directory is recorded once; its contents are neither listed nor visited.
    expect(res.skipped.filter((s) => s.path.startsWith('out/'))).toHaveLength(1);
    expect(files).toEqual(['.gitignore', 'lib/out']);
  });

  it('cannot re-include a file whose parent directory is excluded', async () => {
    const { files, skipped } = await run({
      '.gitignore': 'gen/\n!gen/keep.ts\n',
      'gen/keep.ts': 'x',
      'gen/drop.ts': 'x',
    });
    expect(files).toEqual(['.gitignore']);
    expect(skipped.get('gen/')?.rule).toBe('.gitignore: gen/');
  });

  it('lets a deeper .gitignore re-include a directory excluded by a shallower one (git semantics)', async () => {
    const { files, skipped } = await run({
      '.gitignore': 'b/\n',
      'b/y.js': 'x',
      'a/.gitignore': '!b/\n',
      'a/b/x.js': 'x',
      'a/b/c/z.js': 'x',
    });
    expect(files).toEqual(['.gitignore', 'a/.gitignore', 'a/b/c/z.js', 'a/b/x.js']);
    expect(skipped.get('b/')?.rule).toBe('.gitignore: b/');
  });

  it('re-includes with a negated pattern inside the same file', async () => {
    const { files, skipped } = await run({
      '.gitignore': '*.json\n!package.json\n',
      'package.json': '{}',
      'data.json': '{}',
      'sub/package.json': '{}',
    });
    expect(files).toEqual(['.gitignore', 'package.json', 'sub/package.json']);
    expect(skipped.get('data.json')?.rule).toBe('.gitignore: *.json');
  });

  it('honours .git/info/exclude with lower precedence than .gitignore', async () => {
    const { files, skipped } = await run({
      '.git/info/exclude': '# comment\nsecret.txt\n*.tmp\n',
      '.gitignore': '!keep.tmp\n',
      'secret.txt': 'x',
      'a.tmp': 'x',
      'keep.tmp': 'x',
      'sub/secret.txt': 'x',
    });
    expect(skipped.get('secret.txt')).toEqual({ path: 'secret.txt', reason: 'gitignore', rule: '.git/info/exclude: secret.txt' });
    expect(skipped.get('sub/secret.txt')?.rule).toBe('.git/info/exclude: secret.txt');
    expect(skipped.get('a.tmp')?.rule).toBe('.git/info/exclude: *.tmp');
    expect(files).toEqual(['.gitignore', 'keep.tmp']);
    expect(skipped.get('.git/')?.reason).toBe('default_exclude');
  });

  it('gitignore:false ignores .gitignore and info/exclude but keeps default excludes', async () => {
    const { files, skipped } = await run(
      {
        '.git/info/exclude': 'secret.txt\n',
        '.gitignore': '*.log\nout/\n',
        'secret.txt': 'x',
        'a.log': 'x',
        'out/o.js': 'x',
        'node_modules/m/index.js': 'x',
      },
      { gitignore: false },
    );
    expect(files).toEqual(['.gitignore', 'a.log', 'out/o.js', 'secret.txt']);
    expect(skipped.get('node_modules/')).toEqual({ path: 'node_modules/', reason: 'default_exclude', rule: 'node_modules' });
    expect([...skipped.values()].some((s) => s.reason === 'gitignore')).toBe(false);
  });

  it('handles comments, blank lines, CRLF, trailing spaces and escapes', async () => {
    const { files, skipped } = await run({
      '.gitignore': '# *.ts\r\n\r\n*.log   \r\n\\#hash.txt\r\n\\!bang.txt\r\n',
      'a.ts': 'x',
      'b.log': 'x',
      '#hash.txt': 'x',
      '!bang.txt': 'x',
    });
    expect(files).toEqual(['.gitignore', 'a.ts']);
    expect(skipped.get('b.log')?.rule).toBe('.gitignore: *.log');
    expect(skipped.get('#hash.txt')?.reason).toBe('gitignore');
    expect(skipped.get('!bang.txt')?.reason).toBe('gitignore');
  });

  it('escapes glob characters in the directory of a nested .gitignore', async () => {
    const { files, skipped } = await run({
      'a*/.gitignore': 'x.txt\n',
      'a*/x.txt': 'x',
      'ab/x.txt': 'x',
      'b[1]/.gitignore': 'y.txt\n',
      'b[1]/y.txt': 'x',
      'b1/y.txt': 'x',
    });
    expect(skipped.get('a*/x.txt')?.rule).toBe('a*/.gitignore: x.txt');
    expect(skipped.get('b[1]/y.txt')?.rule).toBe('b[1]/.gitignore: y.txt');
    expect(files).toEqual(['a*/.gitignore', 'ab/x.txt', 'b1/y.txt', 'b[1]/.gitignore']);
  });

  it('is case-sensitive like git on Linux', async () => {
    const { files } = await run({ '.gitignore': '*.LOG\n', 'a.log': 'x', 'b.LOG': 'x' });
    expect(files).toEqual(['.gitignore', 'a.log']);
  });
});

describe('matchers kept between walks', () => {
  const paths = async (root: string) => (await walk({ root })).files.map((f) => f.path);

  it('answer for the rules a walk finds now: an edited .gitignore counts at once, and an edit undone too', async () => {
    const root = makeTree({ '.gitignore': '*.log\n', 'a.log': 'x', 'src/b.ts': 'x', 'src/.gitignore': 'gen/\n', 'src/gen/c.ts': 'x' });
    expect(await paths(root)).toEqual(['.gitignore', 'src/.gitignore', 'src/b.ts']);
    writeTree(root, { '.gitignore': '*.ts\n' }); // the same walker, other rules
    expect(await paths(root)).toEqual(['.gitignore', 'a.log', 'src/.gitignore']);
    writeTree(root, { 'src/.gitignore': '!b.ts\n' }); // a deeper file re-includes; gen/ is no longer ignored there
    expect(await paths(root)).toEqual(['.gitignore', 'a.log', 'src/.gitignore', 'src/b.ts']);
    writeTree(root, { '.gitignore': '*.log\n', 'src/.gitignore': 'gen/\n' }); // back to the first rules: the kept matchers answer as before
    expect(await paths(root)).toEqual(['.gitignore', 'src/.gitignore', 'src/b.ts']);
  });

  it('are shared by trees with the same rules, whose answers depend on the path alone', async () => {
    const one = makeTree({ '.gitignore': 'out/\n', 'out/x.ts': 'x', 'y.ts': 'x' });
    const two = makeTree({ '.gitignore': 'out/\n', 'out/': '', 'y.ts': 'x', 'z/out/w.ts': 'x' });
    expect(await paths(one)).toEqual(['.gitignore', 'y.ts']);
    expect(await paths(two)).toEqual(['.gitignore', 'y.ts']);
  });
});

describe('parseGitignore', () => {
  it('rebases nested rules onto the repository root', () => {
    const rules = parseGitignore('foo\n/bar\nbaz/\n!qux\na/b\n', 'pkg', 'pkg/.gitignore').map((r) => r.pattern);
    expect(rules).toEqual(['pkg/**/foo', 'pkg/bar', 'pkg/**/baz/', '!pkg/**/qux', 'pkg/a/b']);
  });

  it('keeps root rules verbatim and labels them with their source', () => {
    const rules = parseGitignore('*.log\n', '', '.gitignore');
    expect(rules).toEqual([{ pattern: '*.log', mark: '.gitignore: *.log' }]);
  });
});
