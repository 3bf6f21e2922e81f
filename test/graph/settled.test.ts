/**
 * Graph answers and references a pass has written but not resolved yet: an answer waits for
 * this process's pass to resolve them, and one that still finds them pending says how many
 * rather than passing a half-resolved graph off as complete.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderRelated } from '../../src/cli/render-graph.js';
import { engineOver, type Engine, type ExploreEnvelope } from '../../src/engine/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';
import { GRAPH_FILES } from './fixture.js';

const fixture = useIndexedRepo(GRAPH_FILES);
let engine: Engine;
beforeAll(() => {
  engine = engineOver(fixture.repo);
});

/** The state a pass leaves between writing its files and resolving their references (or after a stop there); status 0 is pending. */
const unresolveAll = () => fixture.repo.store.db.prepare('UPDATE edges SET status = 0').run().changes;
const dependentsOf = async (path: string) => (await engine.related(path)).dependents.map((f) => f.path).sort();
const callers = async () => (await engine.explore({ relation: 'callers', anchor: 'hashToken' })) as ExploreEnvelope;

describe('graph answers while references are pending', () => {
  it('a settled graph answers in full and says nothing of pending references', async () => {
    expect(await dependentsOf('src/auth/session.ts')).toEqual(['src/api/login.ts', 'test/session.test.ts']);
    expect((await engine.related('src/auth/session.ts')).graph_pending).toBeUndefined();
    expect((await callers()).graph_pending).toBeUndefined();
  });

  it('with no pass to wait for, related and explore say how many references are pending', async () => {
    const pending = unresolveAll();
    expect(pending).toBeGreaterThan(0);
    const answer = await engine.related('src/auth/session.ts');
    expect(answer.graph_pending).toBe(pending);
    expect(renderRelated(answer)).toContain(`${pending} references not resolved yet`);
    expect((await callers()).graph_pending).toBe(pending);
  });

  it('with a pass running, they wait for it to resolve them and answer the whole graph', async () => {
    unresolveAll();
    const pass = engine.job.start();
    const [dependents, explored] = await Promise.all([dependentsOf('src/auth/session.ts'), callers()]);
    expect(dependents).toEqual(['src/api/login.ts', 'test/session.test.ts']);
    expect(explored.graph_pending).toBeUndefined();
    expect(explored.results.map((r) => r.path)).toContain('src/auth/session.ts');
    await pass;
  });
});
