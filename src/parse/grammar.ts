/**
 * Lazy, cached tree-sitter setup: the runtime is initialised once, each grammar is loaded once,
 * and each language gets exactly one Parser. Parsing itself is synchronous, so one parser per
 * language is safe to share between concurrent parseFile() calls.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/** Our language id → grammar file stem in tree-sitter-wasms/out. */
const GRAMMAR_FILE: Record<string, string> = {
  typescript: 'typescript',
  tsx: 'tsx',
  javascript: 'javascript',
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  csharp: 'c_sharp',
  ruby: 'ruby',
  php: 'php',
  kotlin: 'kotlin',
};

let initPromise: Promise<void> | null = null;
const parsers = new Map<string, Promise<Parser | null>>();
let grammarDir: string | null = null;

function wasmDir(): string {
  if (grammarDir === null) {
    const req = createRequire(import.meta.url);
    grammarDir = path.join(path.dirname(req.resolve('tree-sitter-wasms/package.json')), 'out');
  }
  return grammarDir;
}

function init(): Promise<void> {
  if (!initPromise) {
    // tree-sitter's grammars are WebAssembly, each with one huge lexer function. By default V8
    // recompiles it with TurboFan on a background thread (~0.8 CPU-s), and a short run waits for
    // that compile before it can exit: a one-file `index` took 1.26 s, 0.63 s with baseline
    // (Liftoff) code only, while a 2,100-file pass took the same wall time either way (12.4–12.8 s).
    // Set here, before this thread's first grammar loads, rather than at the CLI's start, where
    // loading node:v8 cost every verb ~5 ms; V8's flags are the process's, and each thread that
    // parses (the index workers) comes through here.
    v8.setFlagsFromString('--liftoff-only');
    initPromise = Parser.init().catch((err: unknown) => {
      initPromise = null; // allow a later retry
      throw err;
    });
  }
  return initPromise;
}

/**
 * Grammar loads run one at a time: web-tree-sitter 0.25 links a grammar's exports while it
 * loads, and two loads in flight mix them up ("bad export type for
 * 'tree_sitter_php_external_scanner_create'"), which silently cost files their symbols.
 */
let loading: Promise<unknown> = Promise.resolve();
function loadLanguage(file: string): Promise<Language> {
  const next = loading.then(() => Language.load(file));
  loading = next.catch(() => undefined);
  return next;
}

/** The shared parser for a language, or null when the language has no grammar or it failed to load. */
export function getParser(lang: string): Promise<Parser | null> {
  let p = parsers.get(lang);
  if (!p) {
    const file = GRAMMAR_FILE[lang];
    if (!file) return Promise.resolve(null);
    p = (async () => {
      try {
        await init();
        const language = await loadLanguage(path.join(wasmDir(), `tree-sitter-${file}.wasm`));
        const parser = new Parser();
        parser.setLanguage(language);
        return parser;
      } catch {
        return null;
      }
    })();
    parsers.set(lang, p);
  }
  return p;
}

/** Parse with a wall-clock budget; null when the budget ran out or tree-sitter gave up. */
export function parseWithBudget(parser: Parser, text: string, budgetMs: number): Tree | null {
  const deadline = performance.now() + budgetMs;
  let tree: Tree | null = null;
  try {
    tree = parser.parse(text, null, {
      // Returning true cancels parsing (see ParseOptions.progressCallback in web-tree-sitter 0.25).
      progressCallback: () => performance.now() > deadline,
    });
  } catch {
    tree = null;
  }
  if (!tree) parser.reset();
  return tree;
}
