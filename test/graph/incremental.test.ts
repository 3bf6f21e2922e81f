/**
 * Editing one file re-extracts its edges and re-resolves only what pointed at the definitions it
 * holds or held: edges elsewhere are left alone, and answers follow renames, new files and
 * deletions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { age } from '../helpers/fixture.js';
import { edge, indexFixture, type Indexed } from './helpers.js';

const FILES: Record<string, string> = {
  'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\nexport function beta(): number {\n  return 2;\n}\n',
  'src/b.ts': "import { alpha } from './a.js';\nexport function useAlpha(): number {\n  return alpha();\n}\n",
  'src/c.ts': "import { beta } from './a.js';\nexport function useBeta(): number {\n  return beta();\n}\n",
  'src/d.ts': 'export function delta(): number {\n  return 4;\n}\n',
  'src/e.ts': "import { delta } from './d.js';\nexport function useDelta(): number {\n  return delta();\n}\n",
  'src/f.ts': "import { gamma } from './g.js';\nexport function useGamma(): number {\n  return gamma();\n}\n",
};

let fx: Indexed;
const write = (rel: string, text: string) => fs.writeFileSync(path.join(fx.root, rel), text);

beforeAll(async () => {
  fx = await indexFixture(FILES);
  for (const rel of Object.keys(FILES)) age(fx.root, rel);
});
afterAll(() => fx.close());

describe('incremental re-resolution', () => {
  it('starts from a fully resolved graph', () => {
    expect(edge(fx.store, 'src/b.ts', 'call', 'alpha').targets).toEqual(['src/a.ts:alpha/import']);
    expect(edge(fx.store, 'src/e.ts', 'call', 'delta').targets).toEqual(['src/d.ts:delta/import']);
    expect(edge(fx.store, 'src/f.ts', 'call', 'gamma').status).toBe('unresolved');
    expect(fx.store.edges.counts().pending).toBe(0);
  });

  it('re-resolves only the edges into the edited file', async () => {
    write('src/a.ts', 'export function alpha2(): number {\n  return 1;\n}\nexport function beta(): number {\n  return 22;\n}\n');
    const eBefore = edge(fx.store, 'src/e.ts', 'call', 'delta');
    const summary = await fx.reindex();
    expect(summary.updated).toBe(1);
    // b's import and call of alpha, c's import and call of beta: nothing in d, e or f.
    expect(summary.graph).toMatchObject({ pending: 4, answered: 4 });
    expect(edge(fx.store, 'src/b.ts', 'call', 'alpha').status).toBe('unresolved');
    expect(edge(fx.store, 'src/c.ts', 'call', 'beta').targets).toEqual(['src/a.ts:beta/import']);
    expect(edge(fx.store, 'src/e.ts', 'call', 'delta')).toEqual(eBefore);
  });

  it('a new file resolves the imports that were waiting for it, and the calls through them', async () => {
    write('src/g.ts', 'export function gamma(): number {\n  return 3;\n}\n');
    const summary = await fx.reindex();
    expect(summary.added).toBe(1);
    expect(edge(fx.store, 'src/f.ts', 'import', 'gamma').targets).toEqual(['src/g.ts:gamma/exact']);
    expect(edge(fx.store, 'src/f.ts', 'call', 'gamma').targets).toEqual(['src/g.ts:gamma/import']);
    expect(summary.graph!.answered).toBeLessThanOrEqual(2);
  });

  it('a definition moving between files is followed', async () => {
    age(fx.root, 'src/a.ts');
    age(fx.root, 'src/g.ts');
    write('src/b.ts', "import { alpha2 } from './a.js';\nexport function useAlpha(): number {\n  return alpha2();\n}\n");
    await fx.reindex();
    expect(edge(fx.store, 'src/b.ts', 'call', 'alpha2').targets).toEqual(['src/a.ts:alpha2/import']);
  });

  it('deleting a file leaves the edges into it unresolved', async () => {
    fs.rmSync(path.join(fx.root, 'src/a.ts'));
    const summary = await fx.reindex();
    expect(summary.removed).toBe(1);
    expect(edge(fx.store, 'src/c.ts', 'call', 'beta').status).toBe('unresolved');
    expect(edge(fx.store, 'src/c.ts', 'import', 'beta').status).toBe('unresolved');
    expect(edge(fx.store, 'src/b.ts', 'call', 'alpha2').status).toBe('unresolved');
    expect(edge(fx.store, 'src/e.ts', 'call', 'delta').targets).toEqual(['src/d.ts:delta/import']);
    expect(fx.store.edges.counts().pending).toBe(0);
  });
});

describe('rewriting an imported file in place', () => {
  it("answers again what pointed into it, not the importers' other edges: their imports still lead there", async () => {
    const both = await indexFixture({
      'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n',
      'src/d.ts': 'export function delta(): number {\n  return 4;\n}\n',
      'src/h.ts': "import { alpha } from './a.js';\nimport { delta } from './d.js';\nexport function sum(): number {\n  return alpha() + delta();\n}\n",
    });
    try {
      for (const rel of ['src/a.ts', 'src/d.ts', 'src/h.ts']) age(both.root, rel);
      const deltaBefore = edge(both.store, 'src/h.ts', 'call', 'delta');
      fs.writeFileSync(path.join(both.root, 'src/a.ts'), 'export function alpha(): number {\n  return 11;\n}\n');
      const summary = await both.reindex();
      // h's import and call of alpha; its import and call of delta keep their answers.
      expect(summary.graph).toMatchObject({ pending: 2, answered: 2 });
      expect(edge(both.store, 'src/h.ts', 'call', 'alpha').targets).toEqual(['src/a.ts:alpha/import']);
      expect(edge(both.store, 'src/h.ts', 'call', 'delta')).toEqual(deltaBefore);
    } finally {
      both.close();
    }
  });
});

describe('answering again an edge that holds targets', () => {
  // A first resolution writes targets without replacing any (there are none yet); every later one must replace them.
  it('replaces them: a new definition of a called name joins the old ones, each once', async () => {
    const named = await indexFixture({
      'a.py': 'def run():\n    return 1\n',
      'b.py': 'def run():\n    return 2\n',
      'c.py': 'def main():\n    return run()\n',
    });
    try {
      expect(edge(named.store, 'c.py', 'call', 'run').targets).toEqual(['a.py:run/name', 'b.py:run/name']);
      fs.writeFileSync(path.join(named.root, 'd.py'), 'def run():\n    return 3\n');
      const summary = await named.reindex();
      expect(summary.graph).toMatchObject({ pending: 1, answered: 1 });
      expect(edge(named.store, 'c.py', 'call', 'run')).toMatchObject({ status: 'ambiguous', targets: ['a.py:run/name', 'b.py:run/name', 'd.py:run/name'] });
    } finally {
      named.close();
    }
  });
});
