/** `related` and `changed` cite every location they return: verified, stale or unverifiable, with a note unless verified. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Repo } from '../../src/engine/index.js';
import { changed } from '../../src/engine/changed.js';
import { related } from '../../src/engine/related.js';
import { renderRelated } from '../../src/cli/render-graph.js';
import { openRepo, type OpenedRepo } from './helpers.js';

const FILES: Record<string, string> = {
  'src/app.ts': "import { kept } from './kept.js';\nimport { edited } from './edited.js';\nimport { gone } from './gone.js';\n\nexport function app(): number {\n  return kept() + edited() + gone();\n}\n",
  'src/kept.ts': 'export function kept(): number {\n  return 1;\n}\n',
  'src/edited.ts': 'export function edited(): number {\n  return 2;\n}\n',
  'src/gone.ts': 'export function gone(): number {\n  return 3;\n}\n',
  'src/main.ts': "import { app } from './app.js';\n\napp();\n",
  'test/app.test.ts': "import { app } from '../src/app.js';\n\napp();\n",
};

let fx: OpenedRepo;
let root: string;
let repo: Repo;
beforeAll(async () => {
  fx = await openRepo(FILES);
  ({ root, repo } = fx);
});
afterAll(() => fx.close());

const statusOf = (list: { path: string; citation_status: string }[]) => Object.fromEntries(list.map((f) => [f.path, f.citation_status]));

describe('citations on related', () => {
  it('every listed file and the file itself are verified while nothing changed', () => {
    const e = related(repo, 'src/app.ts');
    expect(e.citation_status).toBe('verified');
    expect(e.citation_note).toBeUndefined();
    expect(statusOf(e.imports)).toEqual({ 'src/kept.ts': 'verified', 'src/edited.ts': 'verified', 'src/gone.ts': 'verified' });
    expect(statusOf(e.dependents)).toEqual({ 'src/main.ts': 'verified', 'test/app.test.ts': 'verified' });
    expect(statusOf(e.tests)).toEqual({ 'test/app.test.ts': 'verified' });
  });

  it('an edited file is stale and a deleted one unverifiable, each with a note; the rest stay verified', () => {
    fs.writeFileSync(path.join(root, 'src/edited.ts'), 'export function edited(): number {\n  return 20 + 2;\n}\n');
    fs.rmSync(path.join(root, 'src/gone.ts'));
    const e = related(repo, 'src/app.ts');
    const byPath = new Map(e.imports.map((f) => [f.path, f]));
    expect(byPath.get('src/kept.ts')).toMatchObject({ citation_status: 'verified' });
    expect(byPath.get('src/kept.ts')!.citation_note).toBeUndefined();
    expect(byPath.get('src/edited.ts')).toMatchObject({ citation_status: 'stale', citation_note: expect.stringMatching(/^content_changed:/) });
    expect(byPath.get('src/gone.ts')).toMatchObject({ citation_status: 'unverifiable', citation_note: expect.stringMatching(/^missing:/) });
    expect(e.citation_status).toBe('verified');
    expect(renderRelated(e)).toMatch(/src\/edited\.ts .*\[stale\]/);
  });

  it('the file itself is cited too: its own edit makes the envelope stale', () => {
    fs.appendFileSync(path.join(root, 'src/app.ts'), '// edited\n');
    expect(related(repo, 'src/app.ts')).toMatchObject({ citation_status: 'stale', citation_note: expect.stringMatching(/^content_changed:/) });
  });
});

describe('citations on changed', () => {
  it('each impacted file carries its citation', async () => {
    const e = await changed(repo);
    expect(e.modified).toEqual(['src/app.ts', 'src/edited.ts']);
    expect(e.impact.map((i) => [i.path, i.citation_status])).toEqual([
      ['src/main.ts', 'verified'],
      ['test/app.test.ts', 'verified'],
    ]);
  });
});
