/**
 * JavaScript / TypeScript imports → indexed files. A relative specifier follows Node's and
 * TypeScript's file rules; a bare one goes through the importer's tsconfig `paths` / `baseUrl`,
 * then (`#x`) its package's `imports`, then a local package by name through its `exports`,
 * entry fields or usual layout. `exports` and `imports` are read by resolve.exports, which needs
 * no file system: every target must be an indexed file, and a built output that is not indexed
 * (`dist/x.mjs`, `dist/x.d.mts`) is looked for as its source (`src/x.ts`).
 */
import { exports as exportsOf, imports as importsOf, type Options } from 'resolve.exports';
import type { Layout, LayoutFile } from './layout.js';
import type { LocalPackage, PathsCandidates } from './js-project.js';
import type { Resolver } from './modules.js';
import { dirOf, joinPath } from './repo-path.js';

const JS_EXTS = ['.ts', '.tsx', '.d.ts', '.mts', '.d.mts', '.cts', '.d.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** NodeNext: a specifier names the JavaScript a TypeScript file compiles to. */
const SOURCES_OF: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx', '.ts', '.d.ts'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};

/**
 * The environments a package's conditions are read for, in order; within one, the package's own
 * key order decides, as in Node. TypeScript's view (`types`) comes first, then runtimes; `source`
 * is the custom condition workspaces point at their sources with.
 */
const CONDITION_SETS: Options[] = [
  { conditions: ['source', 'types'] },
  { conditions: ['source', 'types'], require: true },
  { conditions: ['module'] },
  { require: true },
  { browser: true },
];

/** Entry fields of a package without a usable `exports`, in the order they are tried. */
const ENTRY_FIELDS = ['source', 'module', 'main', 'types'];

const OUT_DIR = /^(dist|build|lib|out|esm|cjs)\//;
const DECLARATION = /\.d\.[cm]?ts$/;
const BUILT = /(\.d)?\.[cm]?[jt]sx?$/;

/** A specifier's file: as written, `.js` standing for `.ts` (NodeNext), with an extension, or an index file. */
function jsFile(layout: Layout, base: string): LayoutFile | null {
  const ext = /\.[cm]?jsx?$/.exec(base)?.[0];
  const candidates = [base];
  if (ext) for (const source of SOURCES_OF[ext]!) candidates.push(base.slice(0, -ext.length) + source);
  for (const e of JS_EXTS) candidates.push(base + e);
  for (const e of JS_EXTS) candidates.push(base ? `${base}/index${e}` : `index${e}`);
  for (const c of candidates) {
    const f = layout.byPath.get(c);
    if (f) return f;
  }
  return null;
}

/** A path in a package: as written (a declaration as its implementation first), then a built output as its source. */
function packageFile(layout: Layout, dir: string, target: string): LayoutFile | null {
  const rel = joinPath(dir, target);
  if (rel === null) return null;
  const direct = jsFile(layout, rel.replace(DECLARATION, ''));
  if (direct) return direct;
  const inPkg = dir ? rel.slice(dir.length + 1) : rel;
  const source = inPkg.replace(OUT_DIR, 'src/');
  if (source === inPkg) return null;
  const rebuilt = joinPath(dir, source.replace(BUILT, ''));
  return rebuilt === null ? null : jsFile(layout, rebuilt);
}

type ConditionMap = (pkg: Record<string, unknown>, entry: string, options: Options) => readonly string[] | void;

/** Every target a package's `exports` or `imports` gives an entry, over all condition sets, in order. */
function targetsOf(map: ConditionMap, pkg: LocalPackage, entry: string): string[] {
  const out = new Set<string>();
  for (const options of CONDITION_SETS) {
    try {
      for (const t of map(pkg.json, entry, options) ?? []) out.add(t);
    } catch {
      // not exported (or excluded) under these conditions
    }
  }
  return [...out];
}

function localPackage(layout: Layout, module: string): LayoutFile | null {
  const parts = module.split('/');
  const nameLen = module.startsWith('@') ? 2 : 1;
  const pkg = layout.js.packageNamed(parts.slice(0, nameLen).join('/'));
  if (!pkg) return null;
  const sub = parts.length > nameLen ? `./${parts.slice(nameLen).join('/')}` : '.';
  for (const t of targetsOf(exportsOf, pkg, sub)) {
    const f = packageFile(layout, pkg.dir, t);
    if (f) return f;
  }
  // No `exports`, or one naming only outputs a build did not index (nor map back): the usual layout.
  if (sub !== '.') return packageFile(layout, pkg.dir, sub) ?? packageFile(layout, pkg.dir, `src/${sub.slice(2)}`);
  for (const field of ENTRY_FIELDS) {
    const v = pkg.json[field];
    const f = typeof v === 'string' ? packageFile(layout, pkg.dir, v) : null;
    if (f) return f;
  }
  return packageFile(layout, pkg.dir, 'src/index') ?? packageFile(layout, pkg.dir, 'index');
}

/** `#x` through the `imports` of the importer's package: a path inside it, or another package. */
function packageImport(layout: Layout, owner: LocalPackage, module: string): LayoutFile | null {
  for (const t of targetsOf(importsOf, owner, module)) {
    const f = t.startsWith('.') ? packageFile(layout, owner.dir, t) : localPackage(layout, t);
    if (f) return f;
  }
  return null;
}

function fromPaths(layout: Layout, candidates: PathsCandidates, module: string): LayoutFile | null {
  for (const c of candidates(module)) {
    const f = jsFile(layout, c);
    if (f) return f;
  }
  return null;
}

/**
 * A bare specifier. Each step is answered once per pass: `paths` per config, `imports` per package,
 * a package per specifier (many files import the same few, and most through no `paths` at all).
 */
function bare(layout: Layout, importer: LayoutFile, module: string): LayoutFile | null {
  const { js } = layout;
  const paths = js.pathsFor(importer.path);
  const viaPaths = paths && js.once(`paths\0${paths.config}\0${module}`, () => fromPaths(layout, paths.candidates, module));
  if (viaPaths) return viaPaths;
  if (module.startsWith('#')) {
    const owner = js.packageOf(importer.path);
    return owner ? js.once(`imports\0${owner.dir}\0${module}`, () => packageImport(layout, owner, module)) : null;
  }
  return js.once(`package\0${module}`, () => localPackage(layout, module));
}

export const javascript: Resolver = (layout, importer, module, name) => {
  let file: LayoutFile | null;
  if (module.startsWith('.') || module.startsWith('/')) {
    const rel = joinPath(module.startsWith('/') ? '' : dirOf(importer.path), module);
    file = rel === null ? null : jsFile(layout, rel);
  } else file = bare(layout, importer, module);
  return file ? { files: [file], member: name === '*' ? null : name, confidence: 'exact' } : null;
};
