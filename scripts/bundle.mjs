#!/usr/bin/env node
/**
 * Bundles the CLI (src/cli/main.ts) over tsc's dist/src/cli/main.js, so `bin`, client configs
 * written by `init` and the tests keep running the same path. Node's ESM loader spent most of a
 * short verb's start resolving, reading and linking ~200 files one by one; a few bundled files
 * cost a fraction of that. Code splitting keeps every `import()` of the CLI and the engine a
 * separate chunk, so what a verb does not run is still not loaded.
 *
 * Worker threads are bundled too (an index pass's prepare, embed and graph threads, and the MCP
 * read pool's): a prepare thread spent ~120 ms loading tsc's modules one by one before its first
 * file, ~60 ms bundled. Their entries land beside the CLI's (sharing its chunks), and each tsc
 * file a thread is started from (dist/src/index/prepare-worker.js …) becomes a one-line import
 * of its bundle, so whoever starts the thread, the bundled CLI or tsc's engine (benchmarks,
 * tests), runs the bundle.
 *
 * Everything else in dist/src (benchmarks) stays as tsc wrote it.
 * A bundled module that finds a file next to itself (`new URL('./worker.js', import.meta.url)`,
 * the rank table, the dashboard's assets) sees the URL it has in tsc's layout: each
 * `import.meta.url` is rewritten to that module's dist/src path, so a thread starts from tsc's
 * file (the stub) and no lookup needs a second, bundle-only path.
 *
 * Also writes dist/src/cli/mcp-tools.js, the server's tool list (below), and
 * dist/src/cli/bundle.json, the sources each bundled file holds (from esbuild's metafile),
 * which test/cli/start.test.ts reads to name the modules a run loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist/src/cli');
const CHUNK = /^bundle-[A-Z0-9]+\.js(\.map)?$/;

/**
 * Left to Node: native addons (better-sqlite3, @node-rs/xxhash, @parcel/watcher, onnxruntime-node),
 * packages that find their own files (web-tree-sitter's wasm, tree-sitter-wasms' grammars,
 * gpt-tokenizer's tiktoken file) and pg (optional native binding). The MCP SDK and zod are
 * bundled, both: the server's tool schemas and the SDK's checks of them come from the bundle's
 * one copy of zod. Loaded file by file, they were ~140 ms of a server's start (spawn to the
 * answer to `initialize`: ~615 ms on flask, ~475 bundled).
 */
const EXTERNAL = ['better-sqlite3', '@node-rs/xxhash', '@parcel/watcher', 'onnxruntime-node', 'web-tree-sitter', 'tree-sitter-wasms', 'gpt-tokenizer', 'pg'];

/** Each module's `import.meta.url` as tsc's layout has it (see above); any other `import.meta` use fails the build. */
const tscLayout = {
  name: 'tsc-layout',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const other = /\bimport\.meta\.(?!url\b)\w+/.exec(source);
      if (other) return { errors: [{ text: `${other[0]} has no tsc-layout rewrite; use import.meta.url` }] };
      const compiled = path.relative(path.join(ROOT, 'src'), args.path).replace(/\.ts$/, '.js').split(path.sep).join('/');
      // Every output file lies in dist/src/cli, so `../` is dist/src.
      const contents = source.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(`../${compiled}`)}, import.meta.url).href`);
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * commander requires node:child_process at load, for executable subcommands, which sightline has
 * none of; loading it cost every verb ~6 ms of CPU. Its one use (`childProcess.spawn`) goes
 * through a getter that requires the module when called. The build fails if commander's source
 * no longer reads as expected, rather than bundling it unpatched.
 */
const COMMANDER_REQUIRE = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes(COMMANDER_REQUIRE)) return { errors: [{ text: `commander's ${COMMANDER_REQUIRE} not found: update scripts/bundle.mjs` }] };
      const lazy = "const childProcess = { get spawn() { return require('node:child_process').spawn; } };";
      return { contents: source.replace(COMMANDER_REQUIRE, lazy), loader: 'js' };
    });
  },
};

for (const name of fs.readdirSync(OUT)) if (CHUNK.test(name)) fs.rmSync(path.join(OUT, name));

/** Thread bodies (an index pass's, and the MCP read pool's): the bundle's entry name → the tsc file threads are started from. */
const THREADS = {
  'thread-prepare': 'src/index/prepare-worker.ts',
  'thread-embed': 'src/embed/worker.ts',
  'thread-graph': 'src/graph/resolve-worker.ts',
  'thread-read': 'src/mcp/read-pool/worker.ts',
};

const result = await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: {
    main: 'src/cli/main.ts',
    // The server's tool list at a stable path: a module has one instance per file, so a test
    // preload (test/helpers/faults/slow-tool.mjs) that adds a tool must import the bundled one,
    // which the tsc copy in dist/src/mcp is not.
    'mcp-tools': 'src/mcp/tools/index.ts',
    ...THREADS,
  },
  outdir: OUT,
  chunkNames: 'bundle-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jsonc-parser's `main` is a UMD build that requires its parts by relative path at run time.
  mainFields: ['module', 'main'],
  external: EXTERNAL,
  // Bundled CommonJS packages (commander, picomatch, ignore) `require` Node's builtins; an ES module has no `require`.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  sourcemap: true,
  metafile: true,
  plugins: [lazyChildProcess, tscLayout],
  logLevel: 'warning',
});
/** `src/…` as is; a package's file from `node_modules/` on, wherever node_modules lies (a linked one resolves outside the checkout). */
const source = (input) => (input.includes('node_modules/') ? input.slice(input.indexOf('node_modules/')) : input);
const sources = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (file.endsWith('.js')) sources[path.basename(file)] = Object.keys(output.inputs).map(source);
}
fs.writeFileSync(path.join(OUT, 'bundle.json'), JSON.stringify(sources));

// Each thread's tsc file imports its bundle (dist/src/x/y.js → ../../cli/thread-….js); tsc's map of the file it replaces goes.
for (const [entry, source] of Object.entries(THREADS)) {
  const compiled = path.join(ROOT, 'dist', source.replace(/\.ts$/, '.js'));
  const bundled = path.relative(path.dirname(compiled), path.join(OUT, `${entry}.js`)).split(path.sep).join('/');
  fs.writeFileSync(compiled, `// Written by scripts/bundle.mjs: this thread runs its bundle.\nimport '${bundled}';\n`);
  fs.rmSync(`${compiled}.map`, { force: true });
}
