/** Each ranking signal pinned on a small repository built for it. */
import { afterEach, describe, expect, it } from 'vitest';
import { search } from '../../src/engine/search.js';
import { indexedRepo, type IndexedRepo } from '../helpers/fixture.js';
import type { Repo } from '../../src/engine/index.js';

const opened: IndexedRepo[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.cleanup();
});

async function indexed(files: Record<string, string>): Promise<Repo> {
  const fixture = await indexedRepo({ files, flags: { embedder: 'none' } });
  opened.push(fixture);
  return fixture.repo;
}

function rankedFiles(repo: Repo, query: string) {
  return search(repo, { query, files: true, k: 10, force: true }).results;
}

/** A module whose words overlap with the others', so only the signal under test can separate them. */
const loader = (name: string) =>
  [`export function ${name}(path) {`, '  const config = readConfig(path);', '  return parseSettings(config);', '}', ''].join('\n');

describe('file ranking', () => {
  it('a stack trace finds the file of its frame', async () => {
    const files: Record<string, string> = {};
    for (const name of ['loader', 'reader', 'settings', 'options', 'paths']) {
      files[`pkg/core/${name}.py`] = [`def load_${name}(path):`, '    config = read_config(path)', '    return parse_settings(config)', ''].join('\n');
    }
    const repo = await indexed(files);
    const issue = [
      'Crash when loading settings',
      'Loading the config crashes:',
      '```',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/pkg/core/options.py", line 2, in load_options',
      'KeyError: settings',
      '```',
    ].join('\n');
    const top = rankedFiles(repo, issue)[0]!;
    expect(top.path).toBe('pkg/core/options.py');
    expect(top.reasons).toContain('path-mention');
  });

  it('a locale table does not outrank the code that loads it', async () => {
    const files: Record<string, string> = {
      'src/index.js': [
        'import en from "./locale/en"',
        'export function locale(name, table) {',
        '  if (!name) return globalLocale',
        '  if (table) loaded[name] = table',
        '  return loaded[name] || en',
        '}',
        '',
      ].join('\n'),
    };
    for (const code of ['de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'fi', 'pl', 'cs']) {
      files[`src/locale/${code}.js`] = [
        `const locale = { name: '${code}', weekdays: 'a b c d e f g'.split(' '), months: 'a b c'.split(' ') }`,
        'dayjs.locale(locale, null, true)',
        'export default locale',
        '',
      ].join('\n');
    }
    const repo = await indexed(files);
    const results = rankedFiles(repo, 'Global locale is not returned\n\nCalling locale() without a name should return the global locale, it returns the weekdays table.');
    expect(results[0]!.path).toBe('src/index.js');
    expect(results.find((r) => r.path.startsWith('src/locale/'))!.reasons).toContain('role:locale');
  });

  it('the definition of a named symbol beats fifty files that mention it', async () => {
    const files: Record<string, string> = {
      'src/parser.ts': ['export function parseHeaderLine(line: string): string[] {', '  return line.split(":");', '}', ''].join('\n'),
    };
    for (let i = 0; i < 50; i++) {
      files[`src/handlers/handler${i}.ts`] = [
        'import { parseHeaderLine } from "../parser";',
        `export function handle${i}(lines: string[]) {`,
        '  // parseHeaderLine on every header line; parseHeaderLine never throws',
        '  return lines.map((l) => parseHeaderLine(l)).concat(lines.map(parseHeaderLine));',
        '}',
        '',
      ].join('\n');
    }
    const repo = await indexed(files);
    const top = rankedFiles(repo, '`parseHeaderLine` crashes on an empty line')[0]!;
    expect(top.path).toBe('src/parser.ts');
    expect(top.reasons).toContain('symbol:parseHeaderLine');
  });

  it('a file named like what the issue is about ranks above ones that only share words', async () => {
    const repo = await indexed({
      'src/plugin/duration/index.js': loader('duration'),
      'src/plugin/calendar/index.js': loader('calendarDuration'),
      'src/plugin/relative/index.js': loader('relativeDurations'),
    });
    const top = rankedFiles(repo, 'Duration plugin ignores settings')[0]!;
    expect(top.path).toBe('src/plugin/duration/index.js');
    expect(top.reasons).toContain('path-match');
  });

  it('tests, docs and examples rank below the code unless the issue is about them', async () => {
    const repo = await indexed({
      'src/cache.ts': ['export function evictExpired(entries) {', '  return entries.filter((e) => !e.expired);', '}', ''].join('\n'),
      'test/cache.test.ts': ['test("evictExpired drops expired entries", () => {', '  expect(evictExpired([{ expired: true }])).toEqual([]);', '  // evict expired cache entries, evict expired', '});', ''].join('\n'),
      'docs/cache.md': '# Cache\n\nevictExpired: evict expired cache entries. Expired entries are evicted; evict expired often.\n',
      'examples/cache.ts': ['// evict expired cache entries', 'evictExpired(entries); evictExpired(entries);', ''].join('\n'),
    });
    expect(rankedFiles(repo, 'evict expired cache entries')[0]!.path).toBe('src/cache.ts');
    expect(rankedFiles(repo, 'Test for evict expired cache entries is flaky')[0]!.path).toBe('test/cache.test.ts');
  });
});

describe('the words that carry a question', () => {
  const fn = (name: string, body: string[]) => [`export function ${name}() {`, ...body.map((l) => `  ${l}`), '}', ''].join('\n');

  /** "transport" in 4 of 12 chunks, beside two files with only "retry" in them. */
  function retryOverTransport(): Record<string, string> {
    const files: Record<string, string> = {
      'src/a.ts': fn('a', ['retry(); retry(); // retry']),
      'src/b.ts': fn('b', ['retry(); retry(); // retry']),
      'src/c.ts': fn('c', ['retry(); retry(); // over the transport', 'transport.send();']),
    };
    for (const name of ['d', 'e', 'f']) files[`src/${name}.ts`] = fn(name, ['const transport = open(); // transport']);
    for (const name of ['g', 'h', 'i', 'j', 'k', 'l']) files[`src/${name}.ts`] = fn(name, ['return 1;']);
    return files;
  }

  it("a one-line question's word in a third of the chunks is still searched, weighed by its idf", async () => {
    // A quarter used to be the cut, and the files with only "retry" won.
    const repo = await indexed(retryOverTransport());
    expect(rankedFiles(repo, 'retry transport')[0]!.path).toBe('src/c.ts');
  });

  it("a whole issue's word in a third of the chunks is not searched", async () => {
    // Among an issue's dozens of words, searching those this common cost the dev issues 3 points of Acc@5.
    const repo = await indexed(retryOverTransport());
    expect(rankedFiles(repo, 'Retry over transport\n\nThe retry gives up at once.')[0]!.path).not.toBe('src/c.ts');
  });

  it("a question's word that names a definition finds it, even where the word is common", async () => {
    const files: Record<string, string> = {
      'src/shared/transport.ts': ['export interface Transport {', '  start(): Promise<void>;', '  send(message: unknown): Promise<void>;', '}', ''].join('\n'),
    };
    for (const name of ['client', 'server', 'stdio']) files[`src/${name}.ts`] = fn(name, ['const transport = connect(); // the transport', 'return transport;']);
    for (const name of ['reader', 'adder', 'lines', 'bytes', 'chunks']) files[`src/${name}.ts`] = fn(name, ['read(); add(); read(); add(); // read and add']);
    const repo = await indexed(files);
    const top = rankedFiles(repo, 'what must I read to add a new transport')[0]!;
    expect(top.path).toBe('src/shared/transport.ts');
    expect(top.reasons).toContain('symbol:Transport');
  });

  it("a question's frame (what the asker will read, or do) does not outweigh what it asks about", async () => {
    const files: Record<string, string> = {
      'src/shared/transport.ts': ['export interface Transport {', '  start(): Promise<void>;', '  send(message: unknown): Promise<void>;', '}', ''].join('\n'),
    };
    // Each transport reads and adds as it goes: all three words, the frame's two again and again.
    for (const name of ['stdioClient', 'stdioServer', 'sseClient', 'httpServer', 'websocket', 'memory']) {
      files[`src/${name}.ts`] = fn(name, ['// a transport that reads and adds', 'const read = readBuffer(); addHeader(read); addListener(read);', 'readMessage(read); addPending(read); return read;']);
    }
    const repo = await indexed(files);
    const question = 'what must I read to add a new transport';
    expect(rankedFiles(repo, question)[0]!.path).toBe('src/shared/transport.ts');
    expect(search(repo, { query: question, k: 5, force: true }).results[0]!.path).toBe('src/shared/transport.ts');
  });

  it('the plain form of an inflected word finds the definition it names', async () => {
    // `walked` is everywhere as a variable; only one file defines `walk`.
    const files: Record<string, string> = {
      'src/walk/walker.ts': fn('walk', ['const found = [];', 'for (const entry of readdir(root)) found.push(entry);', 'return { files: found };']),
    };
    for (const name of ['dryRun', 'survey', 'stats']) files[`src/engine/${name}.ts`] = fn(name, ['const walked = walk(root); // walked once', 'return walked.files.length + walked.skipped.length;']);
    const repo = await indexed(files);
    const top = rankedFiles(repo, 'where are files walked')[0]!;
    expect(top.path).toBe('src/walk/walker.ts');
    expect(top.reasons).toContain('symbol:walk');
    const chunks = search(repo, { query: 'where are files walked', k: 5, force: true }).results;
    expect(chunks[0]!.path).toBe('src/walk/walker.ts');
  });
});

describe('chunk ranking', () => {
  it("shows each of the file ranking's files once before any file's second chunk", async () => {
    // tree.ts says "walked" twice in each of four functions, walker.ts once in one: by BM25 alone all
    // four of tree.ts's chunks come before walker.ts's. Lifted by their files' places, walker.ts's best
    // chunk comes second.
    const fn = (name: string, said: string) =>
      [`export function ${name}(node) {`, `  // ${said}`, ...Array.from({ length: 10 }, (_, j) => `  const child${j} = node.children[${j}];`), '  return node;', '}', ''].join('\n');
    const files: Record<string, string> = {
      'src/tree.ts': ['enter', 'leave', 'descend', 'ascend'].map((n) => fn(n, 'each entry is walked, then its children are walked')).join('\n'),
      'src/walker.ts': fn('visit', 'the root is walked first, then walked again'),
    };
    for (let i = 0; i < 12; i++) files[`src/util/u${i}.ts`] = [`export function util${i}(x) {`, `  return x + ${i};`, '}', ''].join('\n');
    const repo = await indexed(files);
    const chunks = search(repo, { query: 'where are entries walked', k: 10, force: true, mode: 'keyword' }).results;
    const paths = chunks.map((c) => c.path);
    const secondOfTree = paths.indexOf('src/tree.ts', paths.indexOf('src/tree.ts') + 1);
    expect(secondOfTree).toBeGreaterThan(0);
    expect(paths.indexOf('src/walker.ts')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('src/walker.ts')).toBeLessThan(secondOfTree);
    expect(chunks[0]!.reasons).toContain('file-rank:1');
  });

  it("shows the files' chunks in the file ranking's order, whatever their own scores", async () => {
    // Both files define a walk(). graph.ts's says "walked" more often than any chunk of walker.ts
    // does, but walker.ts has more to say about walking files: the file ranking puts walker.ts
    // first, and so does the list, though by the lift alone graph.ts's walk() would lead.
    const fn = (name: string, said: string[]) =>
      [`export function ${name}(root) {`, ...said.map((line) => `  // ${line}`), ...Array.from({ length: 10 }, (_, j) => `  const part${j} = root.parts[${j}];`), '  return root;', '}', ''].join('\n');
    const files: Record<string, string> = {
      'src/walker.ts': [
        fn('walk', ['one directory at a time']),
        fn('statEntries', ['the files walked are stat-ed in a batch']),
        fn('readIgnore', ['ignore rules decide which files are walked']),
        fn('listFiles', ['files walked are listed']),
      ].join('\n'),
      'src/graph.ts': fn('walk', ['each node is walked, then its edges are walked', 'a walked node is not walked again']),
    };
    for (let i = 0; i < 12; i++) files[`src/util/u${i}.ts`] = [`export function util${i}(x) {`, `  return x + ${i};`, '}', ''].join('\n');
    const repo = await indexed(files);
    const query = 'where are files walked';
    expect(rankedFiles(repo, query).map((f) => f.path).slice(0, 2)).toEqual(['src/walker.ts', 'src/graph.ts']);
    const chunks = search(repo, { query, k: 10, force: true, mode: 'keyword' }).results;
    const bm25 = (c: (typeof chunks)[number]) => Number(c.reasons.find((r) => r.startsWith('bm25:'))!.slice(5));
    const graph = chunks.find((c) => c.path === 'src/graph.ts')!;
    expect(bm25(graph)).toBeGreaterThan(Math.max(...chunks.filter((c) => c.path === 'src/walker.ts').map(bm25)));
    expect(chunks.slice(0, 2).map((c) => [c.path, c.symbol, c.reasons.find((r) => r.startsWith('file-rank:'))])).toEqual([
      ['src/walker.ts', 'walk', 'file-rank:1'],
      ['src/graph.ts', 'walk', 'file-rank:2'],
    ]);
    expect(chunks[0]!.score).toBeGreaterThanOrEqual(chunks[1]!.score);
  });

  it("lifts the chunk holding the definition a question names, where its file holds one", async () => {
    // walker.ts's options block says "walk" more often than walk() does; the question's "walked"
    // names walk(), so that is the chunk its file shows and the one lifted.
    const options = ['export interface WalkOptions {', ...Array.from({ length: 14 }, (_, i) => `  /** how the walk treats case ${i}: each walked entry, walk order */ walkCase${i}?: boolean;`), '}', ''].join('\n');
    const walk = ['export function walk(root: string, options: WalkOptions) {', ...Array.from({ length: 14 }, (_, i) => `  const part${i} = readdir(root, ${i});`), '  return [root];', '}', ''].join('\n');
    const files: Record<string, string> = { 'src/walker.ts': `${options}\n${walk}` };
    for (let i = 0; i < 12; i++) files[`src/util/u${i}.ts`] = [`export function util${i}(x) {`, `  return x + ${i};`, '}', ''].join('\n');
    const repo = await indexed(files);
    const chunks = search(repo, { query: 'where are files walked', k: 10, force: true, mode: 'keyword' }).results;
    const lifted = chunks.filter((c) => c.reasons.some((r) => r.startsWith('file-rank:')));
    expect(lifted.map((c) => [c.path, c.symbol])).toEqual([['src/walker.ts', 'walk']]);
    expect(chunks[0]!.symbol).toBe('walk');
  });
});

