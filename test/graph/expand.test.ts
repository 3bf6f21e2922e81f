/** Expansions (engine/expansions.ts over graph/nearby.ts, search's `expand`) and locate's references from the graph. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContextEnvelope, type GatedSearchEnvelope, type Repo } from '../../src/engine/index.js';
import { packContext } from '../../src/engine/context.js';
import { expand } from '../../src/engine/expansions.js';
import { LineReader } from '../../src/engine/indexed-lines.js';
import { locate } from '../../src/engine/locate.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { indexFixture, openRepo, type OpenedRepo } from './helpers.js';

/** A method long enough to be chunked on its own (in two chunks); a call comes first, in the chunk that holds the definition, which a search for its name ranks first. */
const method = (name: string, call = '') =>
  [`  ${name}(): number {`, call ? `    ${call}` : '', ...Array.from({ length: 70 }, (_, i) => `    const v${i} = ${i} * 2 + this.base();`), '    return 0;', '  }'].join('\n');

const FILES: Record<string, string> = {
  'src/util.ts': 'export function helper(): number {\n  return 1;\n}\n',
  'src/big.ts': [
    "import { helper } from './util.js';",
    '',
    'export class Big {',
    '  base(): number {',
    '    return 1;',
    '  }',
    method('first'),
    method('second', 'helper();'),
    method('third'),
    '}',
    '',
  ].join('\n'),
};

let fx: OpenedRepo;
let repo: Repo;
beforeAll(async () => {
  fx = await openRepo(FILES);
  repo = fx.repo;
});
afterAll(() => fx.close());

describe('expand', () => {
  const secondLine = () => FILES['src/big.ts']!.split('\n').findIndex((l) => l.includes('second(): number')) + 1;
  const chunkAt = (line: number) => repo.store.chunks.ofFileId(repo.store.files.get('src/big.ts')!.id).find((c) => c.startLine <= line && line <= c.endLine)!;

  it('adds the neighbouring chunks and the other members of the class, each naming the chunk it was added for', () => {
    const seed = chunkAt(secondLine());
    const added = expand(repo, [seed.id, seed.id]);
    expect(added.length).toBeGreaterThan(1);
    expect(added.every((a) => a.path === 'src/big.ts')).toBe(true);
    expect(added.some((a) => a.reasons.includes(`neighbor-of:src/big.ts:${seed.startLine}`))).toBe(true);
    const siblings = added.filter((a) => a.reasons.includes(`sibling-of:src/big.ts:${seed.startLine}`)).map((a) => a.symbol);
    expect(siblings.length).toBeGreaterThan(0);
    expect(siblings.every((s) => s?.startsWith('Big.') && s !== 'Big.second')).toBe(true);
    expect(added.some((a) => a.chunk_id === seed.id)).toBe(false);
  });

  it('adds definitions from other files only when asked', () => {
    const hit = [chunkAt(secondLine()).id];
    expect(expand(repo, hit).some((a) => a.path === 'src/util.ts')).toBe(false);
    const withImports = expand(repo, hit, { imports: 2, neighbors: 0, siblings: 0 });
    expect(withImports.map((a) => [a.path, a.symbol])).toEqual([['src/util.ts', 'helper']]);
    expect(withImports[0]!.reasons[0]).toMatch(/^imported-by:src\/big\.ts:\d+$/);
  });
});

describe('search with expand', () => {
  const searchSecond = (r: Repo, extra: { maxTokens?: number; expand?: boolean } = {}) =>
    gatedSearch(r, { query: 'second', k: 1, expand: true, ...extra }) as GatedSearchEnvelope;

  it('adds labelled expansions after the results, cited, and counts them in tokens', () => {
    const e = searchSecond(repo);
    const hit = e.results[0]!;
    const at = `${hit.path}:${hit.start_line}`;
    expect(hit.symbol).toBe('Big.second');
    const reasons = e.expansions!.flatMap((x) => x.reasons);
    for (const kind of ['neighbor-of', 'sibling-of', 'imported-by']) expect(reasons).toContain(`${kind}:${at}`);
    expect(e.expansions!.find((x) => x.reasons.includes(`imported-by:${at}`))).toMatchObject({ path: 'src/util.ts', symbol: 'helper', kind: 'expansion' });
    expect(e.expansions!.every((x) => x.citation_status === 'verified' && x.tokens > 0 && x.snippet)).toBe(true);
    expect(e.tokens).toBe([...e.results, ...e.expansions!].reduce((s, x) => s + x.tokens, 0));
    expect(searchSecond(repo, { expand: false }).expansions).toBeUndefined();
  });

  it('fits expansions into what the results left of max_tokens, and counts those left out', () => {
    const full = searchSecond(repo);
    const resultTokens = full.results[0]!.tokens;
    const tight = searchSecond(repo, { maxTokens: resultTokens + full.expansions![0]!.tokens });
    expect(tight.results).toHaveLength(1);
    expect(tight.expansions).toHaveLength(1);
    expect(tight.expansions_omitted).toBe(full.expansions!.length - 1);
    expect(tight.tokens).toBeLessThanOrEqual(resultTokens + full.expansions![0]!.tokens);
  });

  it('expandImports: 0 leaves out the definitions from other files', async () => {
    const off = await openRepo(FILES, { expandImports: 0 });
    try {
      const e = searchSecond(off.repo);
      expect(e.expansions!.length).toBeGreaterThan(0);
      expect(e.expansions!.some((x) => x.reasons.some((r) => r.startsWith('imported-by:')))).toBe(false);
    } finally {
      off.close();
    }
  });
});

describe('context with expansion', () => {
  const bundle = (extra: { budgetTokens?: number; expand?: boolean } = {}) =>
    packContext(repo, { task: 'second', terms: ['second'], detail: 'slices', top: 3, budgetTokens: 8_000, ...extra }) as ContextEnvelope;
  const reasonsOf = (e: ContextEnvelope) => e.entries.flatMap((x) => (x.units ?? []).flatMap((u) => u.reasons ?? []));

  it('spends what the slices leave on labelled expansions: siblings in the file, imported definitions as their own entry', () => {
    const plain = bundle({ expand: false });
    expect(reasonsOf(plain)).toEqual([]);
    const e = bundle();
    expect(e.response_tokens).toBeLessThanOrEqual(8_000);
    const big = e.entries.find((x) => x.path === 'src/big.ts')!;
    // Every unit the ranking asked for is still there, first.
    expect(big.units!.filter((u) => !u.reasons).map((u) => u.receipt)).toEqual(plain.entries[0]!.units!.map((u) => u.receipt));
    expect(reasonsOf(e).some((r) => /^sibling-of:src\/big\.ts:\d+$/.test(r))).toBe(true);
    const util = e.entries.find((x) => x.path === 'src/util.ts')!;
    expect(util.reasons).toEqual([expect.stringMatching(/^imported-by:src\/big\.ts:\d+$/)]);
    expect(util).toMatchObject({ citation_status: 'verified', units: [{ symbol: 'helper' }] });
    expect(e.omitted).toBe(0);
  });

  it('never displaces the slices, and stays within every budget', () => {
    const primary = (e: ContextEnvelope) => e.entries.map((x) => [x.path, (x.units ?? []).filter((u) => !u.reasons).map((u) => u.receipt)]);
    for (const budgetTokens of [1_000, 1_300, 1_600, 2_000, 3_000]) {
      const plain = bundle({ budgetTokens, expand: false });
      const e = bundle({ budgetTokens });
      expect(e.response_tokens, `budget ${budgetTokens}`).toBeLessThanOrEqual(budgetTokens);
      expect(primary(e).filter(([path]) => plain.entries.some((x) => x.path === path)), `budget ${budgetTokens}`).toEqual(primary(plain));
    }
  });
});

describe('locate --kind reference', () => {
  it('lists the graph’s resolved references first, then text matches the graph did not cover', () => {
    const e = locate(repo, { query: 'helper', kind: 'reference' });
    expect(e.results[0]).toMatchObject({ path: 'src/big.ts', kind: 'reference' });
    expect(e.results[0]!.reasons).toEqual(expect.arrayContaining(['graph:import', 'confidence:exact']));
    const call = e.results.find((r) => r.reasons.includes('graph:call'))!;
    expect(call).toMatchObject({ symbol: 'Big.second', reasons: expect.arrayContaining(['confidence:import']) });
    const lines = e.results.map((r) => `${r.path}:${r.start_line}`);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('says how each reference resolved: a name defined twice is ambiguous, scored lower, and still lists where it is written', async () => {
    const two = await openRepo({ 'a.py': 'def run():\n    return 1\n', 'b.py': 'def run():\n    return 2\n', 'c.py': 'def main():\n    return run()\n' });
    try {
      const ref = locate(two.repo, { query: 'run', kind: 'reference' }).results.find((r) => r.path === 'c.py')!;
      expect(ref).toMatchObject({ start_line: 2, symbol: 'main', kind: 'reference', score: 0.56, snippet: '2: return run()' });
      expect(ref.reasons).toEqual(['graph:call', 'confidence:name', 'ambiguous:2', 'file-kind:code']);
    } finally {
      two.close();
    }
  });

  it('shows each reference with its line as indexed, read from the one chunk that holds it', () => {
    const call = locate(repo, { query: 'helper', kind: 'reference' }).results.find((r) => r.reasons.includes('graph:call'))!;
    expect(call.snippet).toBe(`${call.start_line}: helper();`);
    const file = repo.store.files.get('src/big.ts')!;
    const source = FILES['src/big.ts']!.split('\n');
    const chunks = repo.store.chunks.ofFileId(file.id);
    const held = chunks.flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i));
    expect(chunks.length).toBeGreaterThan(3); // each method in two chunks: most lines lie past a file's first chunk
    const lines = new LineReader(repo.store);
    for (const n of held) expect(lines.line(file.id, n), `line ${n}`).toBe(source[n - 1]);
    expect(lines.line(file.id, source.length + 5)).toBeNull();
  });

  it('reads each line from the index as it is now, though the reader was made before a pass moved the lines', async () => {
    const source = (header: string) => [header, ...Array.from({ length: 40 }, (_, i) => `export function f${i}(): number {\n  return ${i};\n}`)].join('\n') + '\n';
    const fx = await indexFixture({ 'src/many.ts': source('// one') });
    try {
      const fileId = () => fx.store.files.get('src/many.ts')!.id;
      const held = () => fx.store.chunks.ofFileId(fileId()).flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i));
      const lines = new LineReader(fx.store);
      const before = source('// one').split('\n');
      for (const n of held()) expect(lines.line(fileId(), n), `line ${n} before`).toBe(before[n - 1]);
      const moved = source('// one\n// two\n// three\n// four');
      fs.writeFileSync(path.join(fx.root, 'src/many.ts'), moved);
      await fx.reindex();
      expect(fx.store.chunks.ofFileId(fileId()).length).toBeGreaterThan(1);
      const after = moved.split('\n');
      for (const n of held()) expect(lines.line(fileId(), n), `line ${n} after`).toBe(after[n - 1]);
    } finally {
      fx.close();
    }
  });
});
