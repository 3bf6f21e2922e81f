/**
 * The CLI's start path (cli/verb.ts): declaring the verbs loads commander,
 * src/spec's cli door and leaves of constants; what a verb runs is imported
 * when it runs. Checked by the modules a child process loads, not by time: the
 * CLI is bundled, and a bundled file counts as the sources it holds
 * (loadedModules), so a heavy module is caught whichever chunk carries it.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bundledGraph, loadedModules, loadedModulesEnv, modulesLoaded } from '../helpers/cli.js';
import { useIndexedRepo, useRepo } from '../helpers/fixture.js';
import { call, connectStdio } from '../mcp/harness.js';

/** Modules whose load means the start path pulled in what only a running verb needs. */
const HEAVY = [
  /^src\/(engine|mcp|workspace|memory|store|index|parse|search|embed|graph|team|web)\/index\.ts$/,
  /^src\/config\/index\.ts$/,
  /^src\/walk\/(index|walker)\.ts$/,
  /^node_modules\/(zod|better-sqlite3|web-tree-sitter|@modelcontextprotocol|gpt-tokenizer|pg|onnxruntime-node|@parcel)\//,
  // Node's own modules that cost milliseconds to load and that only some verbs use.
  /^node:(crypto|v8|worker_threads|child_process)$/,
];
const heavy = (modules: string[]) => modules.filter((m) => HEAVY.some((re) => re.test(m)));

/** Whether @node-rs/xxhash's glibc Linux addon is installed here, which walk/source.ts requires directly. */
function hasGlibcXxhash(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    createRequire(import.meta.url).resolve(`@node-rs/xxhash-linux-${process.arch}-gnu`);
    return true;
  } catch {
    return false;
  }
}

describe('the CLI start path', () => {
  it('--version and --help load no engine, server, database, parser, schema library or costly Node module', () => {
    for (const args of [['--version'], ['--help'], ['search', '--help'], ['serve', '--help'], ['remember', '--help'], ['team', 'grant', '--help'], ['workspace', 'add', '--help']]) {
      const run = loadedModules(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.modules.length, 'the probe saw the CLI load').toBeGreaterThan(5);
      expect(run.modules).toContain('src/cli/main.ts');
      expect(heavy(run.modules), args.join(' ')).toEqual([]);
    }
  });

  it('a verb that runs loads what it needs when it runs', () => {
    const run = loadedModules(['stats', '--repo', '/nonexistent/sightline-start-test', '--json']);
    expect(run.code).toBe(2); // the missing path is refused by the engine, so the engine was loaded
    expect(run.modules).toContain('src/engine/index.ts');
  });

  const fixture = useIndexedRepo();

  it('a keyword search loads what answering needs, not the indexer, the parser, the graph resolver, other verbs, a schema library or a glob or regex engine', () => {
    const run = loadedModules(['search', 'SessionManager', '--mode', 'keyword', '--repo', fixture.root, '--json'], { SIGHTLINE_HOME: fixture.home });
    expect(run.code, run.stderr.slice(-500)).toBe(0);
    expect(JSON.parse(run.stdout).results[0].path).toBe('src/auth/session.ts');
    expect(run.modules).toEqual(expect.arrayContaining(['src/engine/search.ts', 'src/store/index.ts', 'src/config/index.ts']));
    const unneeded = [
      /^src\/index\/indexer\.ts$/,
      /^src\/parse\//,
      /^src\/graph\/resolve\.ts$/,
      /^src\/engine\/(explore|related|brief|dry-run|reset|live|outline|read)\.ts$/,
      /^node_modules\/(zod|web-tree-sitter|@modelcontextprotocol|pg|@parcel|re2js|picomatch|get-tsconfig|jsonc-parser)\//,
      /^node:(crypto|v8|worker_threads|child_process)$/,
      // Native addons loaded from where they lie, not found by their packages' loaders (store/sqlite.ts,
      // walk/source.ts; xxhash's only where its glibc Linux addon is installed).
      /^node_modules\/(bindings|file-uri-to-path)\//,
      ...(hasGlibcXxhash() ? [/^node_modules\/@node-rs\/xxhash\//] : []),
    ];
    expect(run.modules.filter((m) => unneeded.some((re) => re.test(m)))).toEqual([]);
  });

  it('init plans client configs without loading the server, its transports or the MCP SDK', () => {
    const run = loadedModules(['init', '--dry-run', '--json', '--repo', fixture.root]);
    expect(run.code, run.stderr.slice(-500)).toBe(0);
    expect(JSON.parse(run.stdout).files.length).toBeGreaterThan(0);
    expect(run.modules).toContain('src/mcp/wiring/index.ts');
    expect(run.modules.filter((m) => /^(src\/mcp\/(index|server|runtime)\.ts|node_modules\/@modelcontextprotocol\/)/.test(m))).toEqual([]);
  });

  it('a stdio server loads neither the network transports nor the dashboard', async () => {
    const served = await connectStdio(['--repo', fixture.root, '--no-watch'], { SIGHTLINE_HOME: fixture.home, ...loadedModulesEnv() });
    try {
      expect((await call(served.client, 'health')).status).toBe('ok');
    } finally {
      await served.close();
    }
    const modules = modulesLoaded(served.stderr());
    expect(modules).toEqual(expect.arrayContaining(['src/mcp/transports/stdio.ts', 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js']));
    const network = /^(src\/mcp\/transports\/(http|sse|network)\.ts|src\/web\/|node_modules\/(@hono|raw-body|iconv-lite)\/|node:https?$)/;
    expect(modules.filter((m) => network.test(m))).toEqual([]);
  });

  describe('threads', () => {
    // Enough to start each thread: 200 files to prepare (150 or more), 400 chunks to embed (more
    // than 256) and 12,000 calls to resolve (more than a 10,000-edge page).
    const helpers = Array.from({ length: 20 }, (_, c) => `function helper${c}(y: number): number { return y * ${c + 1}; }`).join('\n');
    const body = Array.from({ length: 20 }, (_, c) => `  x = helper${c}(x) + ${c};`).join('\n');
    const files = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [
        `src/f${i}.ts`,
        [0, 1, 2].map((j) => `export function f${i}_${j}(x: number): number {\n${body}\n  return x;\n}\n`).join('\n') + `\n${helpers}\n`,
      ]),
    );
    const many = useRepo(files);

    it("an index pass's threads each run their bundle: tsc's file a thread starts from is all of dist/src they load", () => {
      const run = loadedModules(['index', '--repo', many.root, '--json'], { SIGHTLINE_HOME: many.home });
      expect(run.code, run.stderr.slice(-500)).toBe(0);
      const summary = JSON.parse(run.stdout) as { added: number; embed: { embedded: number }; graph: { workers: number } };
      expect(summary.added).toBe(200);
      expect(summary.embed.embedded).toBeGreaterThan(256);
      expect(summary.graph.workers).toBe(1);
      expect(run.modules).toEqual(expect.arrayContaining(['src/index/prepare-worker.ts', 'src/embed/worker.ts', 'src/graph/resolve-worker.ts']));
      const unbundled = new Set(run.modules.filter((m) => m.startsWith('dist/src/')));
      expect([...unbundled].sort()).toEqual(['dist/src/embed/worker.js', 'dist/src/graph/resolve-worker.js', 'dist/src/index/prepare-worker.js']);
    });

    it("the MCP read pool's worker runs its bundle, which holds neither zod nor the tool registry", async () => {
      const served = await connectStdio(['--repo', many.root, '--no-watch'], { SIGHTLINE_HOME: many.home, SIGHTLINE_READ_WORKERS: '1', ...loadedModulesEnv() });
      try {
        expect((await call(served.client, 'search', { query: 'helper7', mode: 'keyword' })).results.length).toBeGreaterThan(0);
      } finally {
        await served.close();
      }
      const modules = modulesLoaded(served.stderr());
      expect(modules).toContain('src/mcp/read-pool/worker.ts');
      expect(modules.filter((m) => m.startsWith('dist/src/'))).toEqual(['dist/src/mcp/read-pool/worker.js']);
      // It runs the pooled tools' bodies alone: their faces (zod) and the other tools stay on the main thread.
      const worker = bundledGraph('thread-read.js');
      expect(worker.sources).toEqual(expect.arrayContaining(['src/mcp/read-pool/worker.ts', 'src/mcp/tools/pooled.ts', 'src/engine/index.ts']));
      const faces = /^(src\/(mcp\/tools\/(index|tool|search|context)|spec\/zod)\.ts|node_modules\/(zod|@modelcontextprotocol)\/)/;
      expect(worker.sources.filter((m) => faces.test(m))).toEqual([]);
      expect(worker.imports.filter((m) => /^(zod|@modelcontextprotocol)/.test(m))).toEqual([]);
    });
  });
});
