/**
 * Issue 21: one file under 1 MiB must not stall indexing. A single 1 MB token
 * (a FASTA sequence, a run of one letter) held a pass at "parsing 0/N" for
 * minutes; now the pass completes, and a file over its time budget is skipped
 * as too_slow while the pass goes on.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareFile } from '../../src/index/prepare.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { sequence } from './helpers.js';


const root = makeRepo({ 'data/genome.fa': sequence(1_000_000, 11), 'data/run.txt': 'a'.repeat(1_000_000), 'src/app.py': 'def greet_visitor():\n    return "hi"\n' });
const home = tempDir('sightline-home-');
afterAll(() => {
  removeDir(root);
  removeDir(home);
});

describe('a 1 MB single-token file', () => {
  it('is indexed and the pass completes', () => {
    const r = runCli(['index', '--repo', root, '--json'], { SIGHTLINE_HOME: home }, { timeout: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ scanned: 3, added: 3, skipped: {} });
    const found = JSON.parse(runCli(['search', 'greet visitor', '--repo', root, '--json'], { SIGHTLINE_HOME: home }).stdout);
    expect(found.results[0].path).toBe('src/app.py');
  }, 120_000);
});

describe('the per-file time budget', () => {
  it('skips a file past its budget as too_slow instead of holding the pass', async () => {
    // A budget already spent when counting starts: injects the slow file without waiting for one.
    const input = { path: 'data/run.txt', abs: path.join(root, 'data/run.txt'), mtimeMs: 0, maxFileBytes: 2_000_000 };
    const late = await prepareFile({ ...input, budgetMs: -1 });
    expect(late).toMatchObject({ kind: 'skip', reason: 'too_slow', detail: 'took over -1 ms to count' });
    expect((await prepareFile(input)).kind).toBe('version');
  });
});
