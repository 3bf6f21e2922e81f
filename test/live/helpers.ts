/** Generated repositories and small waiting helpers for the live-index tests. */
import fs from 'node:fs';
import path from 'node:path';
import { Repo } from '../../src/engine/index.js';
import { removeDir, tempDir } from '../helpers/fixture.js';

/**
 * Source for file `i` at `version`: a few functions whose names carry both, so
 * a search can tell which version of which file the index holds. Python and
 * TypeScript alternate, so both chunkers run.
 */
export function generatedFile(i: number, version: number): { path: string; content: string } {
  const dir = `pkg${i % 20}/mod${Math.floor(i / 20) % 10}`;
  if (i % 2 === 0) {
    const body = [0, 1, 2].map((k) => `def fn_${i}_${k}_v${version}(x):\n    """Step ${k} of file ${i}."""\n    return x * ${k + version}\n`).join('\n\n');
    return { path: `${dir}/file${i}.py`, content: `# file ${i} version ${version}\n\n${body}` };
  }
  const body = [0, 1, 2].map((k) => `export function fn_${i}_${k}_v${version}(x: number): number {\n  // step ${k} of file ${i}\n  return x * ${k + version};\n}\n`).join('\n');
  return { path: `${dir}/file${i}.ts`, content: `// file ${i} version ${version}\n\n${body}` };
}

/** Writes files 0..n-1 at `version(i)` under root. */
export function writeGenerated(root: string, n: number, version: (i: number) => number = () => 1): void {
  for (let i = 0; i < n; i++) {
    const f = generatedFile(i, version(i));
    const abs = path.join(root, f.path);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, f.content);
  }
}

/** Temp directories that the test's afterEach removes. */
export function scratch() {
  const dirs: string[] = [];
  return {
    dir(prefix = 'sightline-live-') {
      const d = tempDir(prefix);
      dirs.push(d);
      return d;
    },
    cleanup() {
      dirs.splice(0).forEach(removeDir);
    },
  };
}

export function openRepo(root: string, home: string, flags = {}): Repo {
  return Repo.open(root, { flags: { home, embedder: 'none', ...flags }, env: {} });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `test` until it returns a truthy value, or fails after `timeoutMs` with `what`: a hang guard, long enough for a loaded CI machine. */
export async function until<T>(what: string, test: () => T | Promise<T>, timeoutMs = 60_000, everyMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await test();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
