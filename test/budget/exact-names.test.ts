/**
 * Exact names behind the gate: an identifier written as code is judged by the
 * hits holding it, a local definition answers like a symbol-table one, and
 * locate of a name used hundreds of times answers its definitions first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefineEnvelope } from '../../src/budget/index.js';
import type { GatedSearchEnvelope } from '../../src/engine/index.js';
import { declares, exactName } from '../../src/engine/exact-name.js';
import { gatedLocate } from '../../src/engine/locate.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { indexed, type Indexed } from './helpers.js';

function ok<T extends { status: string }>(e: T | RefineEnvelope): T {
  if (e.status === 'refine') throw new Error(`expected ok, got refine: ${JSON.stringify(e)}`);
  return e as T;
}

/** `n` files under `dir`, each with a function whose body is `body(i)`. */
function files(dir: string, n: number, body: (i: number) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`${dir}/f${i}.ts`] = `export function step${i}(input: number): number {\n${body(i)}\n  return input;\n}\n`;
  return out;
}

describe('an exact identifier behind the search gate', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({
      // The words of the names, all over: "in flight request" in 40 files.
      ...files('words', 40, (i) => `  // the in flight request ${i} waits for its reply`),
      // Declared only inside a function body (the symbol table holds top-level definitions), in one file.
      'server/stream.ts': 'export class Stream {\n  replay(id: string): boolean {\n    const hasInFlightRequest = this.open.includes(id);\n    return hasInFlightRequest;\n  }\n}\n',
      // Declared locally in one file and used in 30 more.
      'net/fail.ts': 'export function fail(): void {\n  const networkFault = new Error("down");\n  report(networkFault);\n}\n',
      ...files('uses', 30, (i) => `  report(networkFault, ${i});`),
      // Used in 30 files and declared nowhere in the tree (it comes from a dependency).
      ...files('ext', 30, (i) => `  externalHelperFn(${i});`),
    });
  });
  afterAll(() => fx.cleanup());

  it('is judged by the hits that hold the name, not those holding only its words', () => {
    const e = ok(gatedSearch(fx.repo, { query: 'hasInFlightRequest', mode: 'keyword' }));
    expect(e.total).toBe(1);
    expect(e.results[0]!.path).toBe('server/stream.ts');
    // The words alone are as broad as they are.
    expect(gatedSearch(fx.repo, { query: 'in flight request', mode: 'keyword' }).status).toBe('refine');
  });

  it('is answered when a hit declares it, however widely it is used, in every mode', () => {
    for (const mode of ['keyword', 'hybrid'] as const) {
      const e = ok(gatedSearch(fx.repo, { query: 'networkFault', mode })) as GatedSearchEnvelope;
      expect(e.gate_note).toMatch(/\(breadth: 31 hits in 31 files\).*"networkFault" names a definition \(declared in net\/fail\.ts\)$/);
      expect(e.total).toBe(31);
    }
  });

  it('locate answers a locally declared name used widely, and still judges one declared nowhere', () => {
    const e = ok(gatedLocate(fx.repo, { query: 'networkFault' }));
    expect(e.gate_note).toMatch(/"networkFault" names a definition \(declared in net\/fail\.ts:2\)$/);
    expect(e.total).toBe(32);
    expect(gatedLocate(fx.repo, { query: 'externalHelperFn' }).status).toBe('refine');
  });

  it('a name declared nowhere is still judged', () => {
    const r = gatedSearch(fx.repo, { query: 'externalHelperFn', mode: 'keyword' }) as RefineEnvelope;
    expect(r.status).toBe('refine');
    expect(r.reason).toBe('breadth');
    expect(r.summary.total_found).toBe(30);
  });
});

describe('exactName and declares', () => {
  it('takes one identifier of two or more words, and nothing else', () => {
    expect(exactName(' hasInFlightRequest ')).toEqual({ name: 'hasInFlightRequest', term: 'hasinflightrequest' });
    expect(exactName('url_value_preprocessor')).toEqual({ name: 'url_value_preprocessor', term: 'urlvaluepreprocessor' });
    expect(exactName('template')).toBeNull();
    expect(exactName('parse config')).toBeNull();
    expect(exactName('Config.load')).toBeNull();
  });

  it('finds declarations across languages, never a use', () => {
    const yes = [
      'const networkError = new Error()',
      '  let networkError: Error | null = null;',
      'def network_error(self):',
      '    network_error = make()',
      'export function* networkError() {}',
      'func networkError() error {',
      'class networkError:',
      'networkError: Error = base',
    ];
    for (const line of yes) expect(declares(`x\n${line}\ny`, line.includes('network_error') ? 'network_error' : 'networkError'), line).toBe(true);
    const no = ['report(networkError)', 'if (networkError == null) {', 'const x = networkError;', 'this.networkError = e', 'networkErrors = []', 'const networkErrorCount = 1', 'networkError => 1'];
    for (const line of no) expect(declares(line, 'networkError'), line).toBe(false);
  });
});

describe('locate of a name with hundreds of references', () => {
  let fx: Indexed;
  beforeAll(async () => {
    fx = await indexed({
      'lib/clock.ts': 'export function tickClock(n: number): number {\n  return n + 1;\n}\n',
      'test/clock.test.ts': 'export function tickClock(): void {}\n',
      ...files('app', 60, () => Array.from({ length: 5 }, (_, j) => `  input = tickClock(input + ${j});`).join('\n')),
    });
  });
  afterAll(() => fx.cleanup());

  it('answers the definitions first, code before tests, then references, with the count of all of them', () => {
    const e = ok(gatedLocate(fx.repo, { query: 'tickClock' }));
    expect(e.results.slice(0, 2).map((r) => [r.path, r.kind])).toEqual([
      ['lib/clock.ts', 'definition'],
      ['test/clock.test.ts', 'definition'],
    ]);
    expect(e.results.slice(2).every((r) => r.kind === 'reference')).toBe(true);
    // The code graph lists all 300 calls; the 62 files that say the name are not read for mentions it lacks,
    // as the 50 results asked for (the default) are at hand without them.
    expect(e.total).toBe(302);
    expect(e.unread_files).toBe(62);
    expect(e.results.length).toBeLessThan(e.total);
    expect(e.gate_note).toMatch(/\(compound: 302 hits in 62 files\).*"tickClock" names a definition, which comes first$/);
  });

  it('reads files for text mentions only until the results asked for are found: code first, then by path, the first ones the same either way', async () => {
    // Mentions the code graph does not hold (comments), 3 in each of 40 code files, and in a doc and a test
    // whose paths sort before them.
    const said = ['  // turnGear first', '  // then turnGear again', '  // turnGear last'].join('\n');
    const notes = await indexed({
      'lib/gear.ts': 'export function turnGear(): void {}\n',
      'aardvark.md': '# Notes\n\nCall turnGear before anything.\n',
      'a-test/gear.test.ts': 'test("turns", () => {\n  // turnGear is called by hand here\n});\n',
      ...files('app', 40, () => said),
    });
    try {
      const first = ok(gatedLocate(notes.repo, { query: 'turnGear', maxResults: 20 }));
      const every = ok(gatedLocate(notes.repo, { query: 'turnGear', maxResults: 1_000, maxTokens: 50_000 }));
      expect([every.total, every.unread_files]).toEqual([123, undefined]);
      const order: Record<string, number> = { code: 0, test: 3, doc: 4 };
      const kindOf = (r: { reasons: string[] }) => order[r.reasons.find((x) => x.startsWith('file-kind:'))!.slice('file-kind:'.length)]!;
      const mentions = every.results.slice(1);
      const sorted = [...mentions].sort((a, b) => kindOf(a) - kindOf(b) || a.path.localeCompare(b.path) || a.start_line - b.start_line);
      expect(mentions.map((r) => `${r.path}:${r.start_line}`)).toEqual(sorted.map((r) => `${r.path}:${r.start_line}`));
      expect(mentions.slice(-2).map((r) => r.path)).toEqual(['a-test/gear.test.ts', 'aardvark.md']);
      // The definition and 3 mentions in each of the first 7 code files read make the 20 asked for: of the
      // 43 files that say the name, 36 are left.
      expect([first.total, first.unread_files]).toEqual([22, 36]);
      expect(first.results.map((r) => `${r.path}:${r.start_line}`)).toEqual(every.results.slice(0, 20).map((r) => `${r.path}:${r.start_line}`));
    } finally {
      notes.cleanup();
    }
  });
});
