/** Issue 21 through the real CLI: the same named refusals as over MCP, exit 2, one line on stderr. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, SAMPLE_FILES, tempDir } from '../helpers/fixture.js';

let root: string;
let home: string;
const cli = (...args: string[]) => runCli([...args, '--repo', root], { SIGHTLINE_HOME: home });

beforeAll(() => {
  root = makeRepo(SAMPLE_FILES);
  home = tempDir('sightline-home-');
  expect(cli('index').code).toBe(0);
});
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

describe('the CLI refuses hostile input by name', () => {
  it.each([
    // The CLI drops empty items of a comma list itself; an over-long one is refused.
    [['search', 'session', '--exclude', 'x'.repeat(2_000)], /^sightline: exclude\[0\] is 2000 characters/],
    [['search', 'session', '--scope', 'x'.repeat(70_000)], /^sightline: scope is 70000 characters/],
    [['search', '(\\w+)\\1', '--regex'], /backreference/],
    [['search', 'hash', '--session', 'no spaces allowed'], /^sightline: session must be 1 to 128/],
    [['outline', `src/\u001b[2J${'y'.repeat(500)}.ts`], /^[^\u001b]*y{100,}… \(\d+ characters\)/],
  ])('%j', (args, message) => {
    const r = cli(...(args as string[]));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toMatch(message as RegExp);
    expect(r.stderr).not.toMatch(/\u001b/);
  });

  it('answers a catastrophic regular expression', () => {
    const r = cli('search', '(\\w+\\s?)*$', '--regex', '--force', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('ok');
  });
});
