/** explore (every relation, auto, the gate, errors), related and changed, over a layered fixture. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Repo, type ExploreEnvelope, type ExploreOverviewEnvelope } from '../../src/engine/index.js';
import { changed } from '../../src/engine/changed.js';
import { explore } from '../../src/engine/explore.js';
import { related } from '../../src/engine/related.js';
import { SightlineError } from '../../src/errors/index.js';
import { age, makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { GRAPH_FILES } from './fixture.js';

let root: string;
let home: string;
let repo: Repo;

beforeAll(async () => {
  root = makeRepo(GRAPH_FILES);
  home = tempDir('sightline-home-');
  repo = Repo.open(root, { flags: { home }, env: {} });
  await repo.index();
});
afterAll(() => {
  repo.close();
  removeDir(root);
  removeDir(home);
});

const ok = (e: ReturnType<typeof explore>): ExploreEnvelope => {
  expect(e.status, JSON.stringify(e)).toBe('ok');
  expect((e as ExploreEnvelope).relation).not.toBe('overview');
  return e as ExploreEnvelope;
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof SightlineError) return err.code;
    throw err;
  }
  return 'none';
}

describe('explore', () => {
  it('callers: each calling definition, with the call line, confidence and a citation', () => {
    const e = ok(explore(repo, { relation: 'callers', anchor: 'hashToken' }));
    expect(e.anchor.matches).toEqual([expect.objectContaining({ symbol: 'hashToken', path: 'src/util/crypto.ts' })]);
    expect(e.results.map((r) => [r.path, r.symbol, r.start_line, r.confidence])).toEqual([['src/auth/session.ts', 'SessionManager.createSession', 6, 'import']]);
    expect(e.results[0]!.snippet).toContain('hashToken(user)');
    expect((e.results[0] as unknown as { citation_status: string }).citation_status).toBe('verified');
  });

  it('callers at depth 3 follow the chain and keep the path of edges back to the anchor', () => {
    const e = ok(explore(repo, { relation: 'callers', anchor: 'hashToken', depth: 3 }));
    const login = e.results.find((r) => r.symbol === 'login')!;
    expect(login.depth).toBe(2);
    expect(login.via.map((h) => `${h.from}->${h.to}`)).toEqual(['SessionManager.createSession->hashToken', 'login->SessionManager.createSession']);
    expect(e.results.find((r) => r.symbol === 'routes')?.depth).toBe(3);
  });

  it('callees: resolved definitions, and what resolves to nothing indexed', () => {
    const e = ok(explore(repo, { relation: 'callees', anchor: 'SessionManager.createSession' }));
    expect(e.results.map((r) => r.symbol)).toEqual(['hashToken']);
    expect(e.results[0]!.path).toBe('src/util/crypto.ts');
    expect(e.unresolved!.map((u) => u.name)).toContain('createHash');
  });

  it('dependencies and dependents of a file are files', () => {
    const deps = ok(explore(repo, { relation: 'dependencies', anchor: 'src/api/login.ts' }));
    expect(deps.results.map((r) => r.path)).toEqual(['src/auth/session.ts']);
    const dependents = ok(explore(repo, { relation: 'dependents', anchor: 'src/auth/session.ts' }));
    expect(dependents.results.map((r) => r.path).sort()).toEqual(['src/api/login.ts', 'test/session.test.ts']);
    expect(dependents.results[0]!.lines.length).toBeGreaterThan(1);
  });

  it('impact: everything that transitively depends on the anchor, grouped by file, each hit linked back to it', () => {
    const e = ok(explore(repo, { relation: 'impact', anchor: 'src/util/crypto.ts', depth: 3 }));
    const files = e.by_file.map((g) => g.path);
    expect(files).toEqual(expect.arrayContaining(['src/auth/session.ts', 'src/api/login.ts', 'src/api/routes.ts']));
    expect(files).not.toContain('src/util/crypto.ts');
    for (const hit of e.results) {
      expect(hit.via).toHaveLength(hit.depth);
      expect(hit.via[0]!.to === 'hashToken' || hit.via[0]!.to === 'src/util/crypto.ts').toBe(true);
      expect(hit.via.at(-1)!.path).toBe(hit.path);
    }
    const nearest = Object.fromEntries(e.by_file.map((g) => [g.path, g.nearest]));
    expect(nearest['src/auth/session.ts']).toBe(1);
    expect(nearest['src/api/routes.ts']).toBe(3);
  });

  it('overview: modules, entry points, most depended-on definitions, module dependencies', () => {
    const e = explore(repo, { relation: 'overview' }) as ExploreOverviewEnvelope;
    expect(e.relation).toBe('overview');
    expect(e.modules.map((m) => m.path)).toEqual(expect.arrayContaining(['src/util', 'src/api', 'src/auth']));
    expect(e.entry_points.map((p) => p.path)).toContain('src/main.ts');
    expect(e.most_depended_on[0]).toMatchObject({ symbol: 'log', path: 'src/util/log.ts', dependent_files: 30 });
    expect(e.module_dependencies).toContainEqual(expect.objectContaining({ from: 'src/auth', to: 'src/util' }));
    const sub = explore(repo, { relation: 'overview', scope: 'src/api' }) as ExploreOverviewEnvelope;
    expect(sub.scope).toBe('src/api');
    expect(sub.files).toBe(2);
  });

  it('auto reads the relation, and the anchor, from the question', () => {
    expect(ok(explore(repo, { question: 'what would break if I change hashToken' })).relation).toBe('impact');
    const callers = ok(explore(repo, { question: 'who calls SessionManager.createSession?' }));
    expect(callers).toMatchObject({ relation: 'callers', chosen_by: 'auto: "who calls"' });
    expect(callers.results.map((r) => [r.path, r.symbol])).toEqual([['src/api/login.ts', 'login'], ['test/session.test.ts', null]]);
    expect(ok(explore(repo, { question: 'what does login call' })).relation).toBe('callees');
    expect(explore(repo, { question: 'give me an overview of the architecture' })).toMatchObject({ status: 'ok', relation: 'overview' });
  });

  it('a huge blast radius is refused with where the hits are and narrower calls; force answers', () => {
    const e = explore(repo, { relation: 'callers', anchor: 'log' });
    expect(e.status).toBe('refine');
    if (e.status !== 'refine') return;
    expect(e.summary.total_found).toBe(30);
    expect(e.distribution[0]).toMatchObject({ dir: 'src/wide', hits: 30 });
    const forced = ok(explore(repo, { relation: 'callers', anchor: 'log', force: true, maxResults: 5 }));
    expect(forced.total).toBe(30);
    expect(forced.results).toHaveLength(5);
    const scoped = ok(explore(repo, { relation: 'callers', anchor: 'log', scope: 'src/wide/w0*' }));
    expect(scoped.total).toBe(10);
  });

  it('refuses bad arguments with a usage error, unknown anchors with not_found, and paths outside the repository', () => {
    expect(codeOf(() => explore(repo, { relation: 'callers', anchor: 'hashToken', depth: 4 }))).toBe('usage');
    expect(codeOf(() => explore(repo, { relation: 'callers' }))).toBe('usage');
    expect(codeOf(() => explore(repo, { relation: 'callers', anchor: 'noSuchThing' }))).toBe('not_found');
    expect(codeOf(() => explore(repo, { relation: 'dependents', anchor: '../outside/x.ts' }))).toBe('path_escape');
  });
});

describe('related', () => {
  it('what a file uses, what uses it, and the tests that cover it', () => {
    const e = related(repo, 'src/auth/session.ts');
    expect(e.imports.map((f) => f.path)).toEqual(['src/util/crypto.ts']);
    expect(e.imports[0]!.symbols).toEqual(['hashToken']);
    expect(e.external.map((x) => x.module)).toEqual(['node:crypto']);
    expect(e.dependents.map((f) => f.path).sort()).toEqual(['src/api/login.ts', 'test/session.test.ts']);
    expect(e.tests).toEqual([{ path: 'test/session.test.ts', reasons: ['imports-it', 'named-after-it'], citation_status: 'verified' }]);
  });

  it('finds tests by naming convention alone', () => {
    expect(related(repo, 'app/models.py').tests).toEqual([{ path: 'tests/test_models.py', reasons: ['named-after-it'], citation_status: 'verified' }]);
  });

  it('refuses a path outside the repository and a file that is not indexed', () => {
    expect(codeOf(() => related(repo, '../etc/passwd'))).toBe('path_escape');
    expect(codeOf(() => related(repo, 'src/nope.ts'))).toBe('not_found');
  });
});

describe('changed', () => {
  it('reports added, modified and removed files and the indexed files that depend on them, without git', async () => {
    for (const rel of Object.keys(GRAPH_FILES)) age(root, rel);
    const clean = await changed(repo);
    expect(clean).toMatchObject({ added: [], modified: [], removed: [], impact: [] });
    expect(clean.unchanged).toBe(Object.keys(GRAPH_FILES).length);

    fs.writeFileSync(path.join(root, 'src/util/crypto.ts'), 'export function hashToken(input: string): string {\n  return input;\n}\n');
    fs.writeFileSync(path.join(root, 'src/util/new.ts'), 'export const x = 1;\n');
    fs.rmSync(path.join(root, 'src/api/routes.ts'));
    const e = await changed(repo);
    expect(e.added).toEqual(['src/util/new.ts']);
    expect(e.modified).toEqual(['src/util/crypto.ts']);
    expect(e.removed).toEqual(['src/api/routes.ts']);
    expect(e.impact.map((i) => i.path).sort()).toEqual(['src/auth/session.ts', 'src/main.ts']);
    expect(e.impact.find((i) => i.path === 'src/main.ts')!.depends_on).toEqual(['src/api/routes.ts']);

    const scoped = await changed(repo, 'src/api');
    expect(scoped).toMatchObject({ scope: 'src/api', added: [], modified: [], removed: ['src/api/routes.ts'] });
  });

  it('a byte-identical rewrite is unchanged (digest, not mtime)', async () => {
    const file = path.join(root, 'src/util/log.ts');
    fs.writeFileSync(file, fs.readFileSync(file));
    const e = await changed(repo, 'src/util/log.ts');
    expect(e).toMatchObject({ modified: [], unchanged: 1 });
  });

  it('refuses a path outside the repository', async () => {
    await expect(changed(repo, '../')).rejects.toMatchObject({ code: 'path_escape' });
  });
});
