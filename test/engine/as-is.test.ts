/**
 * The engine's asIs view (the dashboard's): the same repository and job,
 * answering from the index as it is. After an edit on disk it discloses the
 * file stale, where the engine itself indexes it again and cites it verified.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineOver, type SearchAnswer } from '../../src/engine/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';
import { DASHBOARD_FILES } from '../dashboard/fixture.js';

const fixture = useIndexedRepo(DASHBOARD_FILES);

const first = (a: SearchAnswer) => {
  if (a.status !== 'ok') throw new Error(`expected results, got ${a.status}`);
  return a.results[0]!;
};

describe('Engine.asIs', () => {
  it('shares the job, and discloses a changed file stale instead of re-indexing it', async () => {
    const engine = engineOver(fixture.repo);
    const looking = engine.asIs();
    expect(looking.job).toBe(engine.job);
    expect(looking.asIs()).toBe(looking);
    expect(first(await looking.search({ query: 'hashToken' }))).toMatchObject({ path: 'src/util/crypto.ts', citation_status: 'verified' });
    fs.appendFileSync(path.join(fixture.root, 'src/util/crypto.ts'), '\nexport const SALT = "pepper";\n');
    expect(first(await looking.search({ query: 'hashToken' }))).toMatchObject({ path: 'src/util/crypto.ts', citation_status: 'stale' });
    expect(first(await engine.search({ query: 'hashToken' }))).toMatchObject({ path: 'src/util/crypto.ts', citation_status: 'verified' });
    await engine.job.stop();
  });
});
