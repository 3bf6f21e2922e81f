/**
 * What goes over the wire stays within max_tokens: every budgeted tool, through the real server
 * and the SDK client, on a repository big enough that each answer must be cut. The count is the
 * project's countTokens over the one text the server sends.
 *
 * Two allowances, both fixed:
 * - listing tools (related, outline, list_files, changed) fit the whole answer and report it in
 *   response_tokens; the server then adds retrieval_phase, PHASE_FIELD tokens at most.
 * - ranked tools (search, locate, read, explore) fit their results (explore: with by_file and
 *   unresolved) to max_tokens and report those in tokens; the envelope around them (status,
 *   query or anchor, mode, totals, gate fields, retrieval_phase) is ENVELOPE tokens at most here
 *   (30-90 measured; a forced read's gate_note sentence is the largest part).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/budget/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { call, callRaw, connectStdio, waitForIndex, type Connected } from '../mcp/harness.js';
import { KEYWORD_ONLY } from './helpers.js';

const PHASE_FIELD = countTokens(',"retrieval_phase":"keyword_only"');
const ENVELOPE = 100;
const USERS = 80;

/** One core module of many functions, used by USERS modules and their tests. */
function bigRepo(): Record<string, string> {
  const files: Record<string, string> = {};
  const fns = Array.from({ length: 120 }, (_, i) => `export function coreStep${i}(value: number): number {\n  return value + ${i};\n}\n`);
  files['src/core.ts'] = fns.join('\n');
  for (let i = 0; i < USERS; i++) {
    const uses = [i % 120, (i * 7) % 120, (i * 13) % 120];
    files[`src/users/user${i}.ts`] =
      `import { ${[...new Set(uses)].map((u) => `coreStep${u}`).join(', ')} } from '../core';\n\n` +
      `export function runUser${i}(n: number): number {\n  return ${[...new Set(uses)].map((u) => `coreStep${u}(n)`).join(' + ')};\n}\n`;
    files[`test/user${i}.test.ts`] = `import { runUser${i} } from '../src/users/user${i}';\n\nexport const checks${i} = runUser${i}(1);\n`;
  }
  files['src/core.test.ts'] = `import { coreStep1 } from './core';\n\nexport const check = coreStep1(2);\n`;
  return files;
}

let root: string;
let home: string;
let conn: Connected;

beforeAll(async () => {
  root = makeRepo(bigRepo());
  home = tempDir('sightline-home-');
  conn = await connectStdio(['--repo', root], { SIGHTLINE_HOME: home, ...KEYWORD_ONLY });
  await callRaw(conn.client, 'list_files').catch(() => undefined); // the first read starts the index
  await waitForIndex(conn.client, 50_000);
});
afterAll(async () => {
  await conn?.close();
  removeDir(root);
  removeDir(home);
});

async function sent(tool: string, args: Record<string, unknown>): Promise<{ answer: Record<string, any>; tokens: number }> {
  const { text } = await callRaw(conn.client, tool, args);
  return { answer: JSON.parse(text), tokens: countTokens(text) };
}

describe('listing tools: the whole answer fits max_tokens', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['related', { path: 'src/core.ts', max_tokens: 800 }, 'dependents'],
    ['outline', { path: 'src/core.ts', max_tokens: 600 }, 'symbols'],
    ['list_files', { max_tokens: 400 }, 'files'],
  ];
  it.each(cases)('%s', async (tool, args, list) => {
    const { answer, tokens } = await sent(tool, args);
    expect(answer.status).toBe('ok');
    expect(tokens).toBeLessThanOrEqual((args.max_tokens as number) + PHASE_FIELD);
    // response_tokens is what was sent but the server's retrieval_phase
    expect(tokens - answer.response_tokens).toBeGreaterThanOrEqual(0);
    expect(tokens - answer.response_tokens).toBeLessThanOrEqual(PHASE_FIELD);
    expect(answer.omitted[list]).toBeGreaterThan(0); // the budget did cut: the test measures a trimmed answer
    expect(answer[list].length).toBeGreaterThan(0);
    expect(answer.more).toEqual(expect.any(String));
  });

  it('changed, with more edits than fit', async () => {
    for (let i = 0; i < USERS; i++) fs.appendFileSync(path.join(root, `src/users/user${i}.ts`), `// edited ${i}\n`);
    fs.appendFileSync(path.join(root, 'src/core.ts'), '// edited\n');
    const { answer, tokens } = await sent('changed', { max_tokens: 300 });
    expect(tokens).toBeLessThanOrEqual(300 + PHASE_FIELD);
    expect(answer.modified.length + (answer.omitted.modified ?? 0)).toBe(USERS + 1);
    expect(answer.omitted.modified).toBeGreaterThan(0);
    expect(answer.more).toMatch(/max_tokens.*or pass a path/);
    // The tests after this one measure budgets on the graph, not freshness. The server's watcher
    // indexes these edits, and a graph answer waits for that pass only so long: wait it out here, so
    // a pass slowed by a loaded machine cannot leave the next test a half-resolved graph.
    await sent('related', { path: 'src/core.ts' });
    await waitForIndex(conn.client, 50_000);
  });

  it('without max_tokens the default budget holds, and a larger one gives more', async () => {
    const small = await sent('related', { path: 'src/core.ts', max_tokens: 800 });
    const large = await sent('related', { path: 'src/core.ts', max_tokens: 3000 });
    expect(large.answer.dependents.length).toBeGreaterThan(small.answer.dependents.length);
    expect(large.tokens).toBeLessThanOrEqual(3000 + PHASE_FIELD);
  });
});

describe('ranked tools: results fit max_tokens, the envelope around them is small', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['search', { query: 'coreStep value', force: true, k: 100, max_tokens: 500 }],
    ['locate', { query: 'coreStep1', force: true, max_tokens: 300 }],
    ['read', { target: 'src/core.ts', force: true, max_tokens: 400 }],
    ['explore', { relation: 'impact', anchor: 'src/core.ts', depth: 2, force: true, max_tokens: 800 }],
  ];
  it.each(cases)('%s', async (tool, args) => {
    const max = args.max_tokens as number;
    const { answer, tokens } = await sent(tool, args);
    expect(answer.status).toBe('ok');
    expect(answer.tokens).toBeLessThanOrEqual(max);
    expect(tokens).toBeLessThanOrEqual(max + ENVELOPE);
    expect(Boolean(answer.omitted) || Boolean(answer.truncated)).toBe(true); // cut to fit
  });

  it('explore counts by_file: a blast radius of many files stays in budget, and says what it left out', async () => {
    const { answer, tokens } = await sent('explore', { relation: 'impact', anchor: 'src/core.ts', depth: 2, force: true, max_tokens: 600 });
    expect(tokens).toBeLessThanOrEqual(600 + ENVELOPE);
    expect(answer.by_file_omitted).toBeGreaterThan(0);
    expect(answer.by_file.length + answer.by_file_omitted).toBe(answer.files);
    const full = await call(conn.client, 'explore', { relation: 'impact', anchor: 'src/core.ts', depth: 2, force: true, max_tokens: 24_000 });
    expect(full.by_file_omitted).toBeUndefined();
  });
});
