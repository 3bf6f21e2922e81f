/**
 * Import resolution: a module as written in one file → the indexed files that make it up, and the
 * member to look for inside them. Each language follows its own rules first (relative paths,
 * go.mod, crate roots, packages and namespaces; JavaScript and TypeScript in js-modules.ts); a
 * fallback match on the path's tail is reported with confidence 'name', since the include path
 * or source root is a guess.
 */
import { javascript } from './js-modules.js';
import type { Layout, LayoutFile } from './layout.js';
import { dirOf, joinPath, stemOf } from './repo-path.js';

export interface ModuleTarget {
  files: LayoutFile[];
  /** The name to look up in those files (`Class.member` for a static import); null when the import is the module itself. */
  member: string | null;
  confidence: 'exact' | 'name';
}

export type Resolver = (layout: Layout, importer: LayoutFile, module: string, name: string) => ModuleTarget | null;

const memberOf = (name: string) => (name === '*' ? null : name);

function exact(files: (LayoutFile | null | undefined)[], member: string | null): ModuleTarget | null {
  const found = files.filter((f): f is LayoutFile => Boolean(f));
  return found.length > 0 ? { files: found, member, confidence: 'exact' } : null;
}

/** Files whose path ends with `/tail` (or is `tail`): the fallback for include paths and requires. */
function byTail(layout: Layout, tail: string): LayoutFile[] {
  const base = tail.slice(tail.lastIndexOf('/') + 1);
  return (layout.byBase.get(base) ?? []).filter((f) => f.path === tail || f.path.endsWith(`/${tail}`));
}

function tailMatch(layout: Layout, tail: string, member: string | null): ModuleTarget | null {
  const files = byTail(layout, tail);
  if (files.length === 0) return null;
  return { files, member, confidence: files.length === 1 ? 'exact' : 'name' };
}

// ---------------------------------------------------------------- Python

function pyModuleFile(layout: Layout, rel: string): LayoutFile | null {
  return layout.byPath.get(`${rel}.py`) ?? layout.byPath.get(`${rel}/__init__.py`) ?? layout.byPath.get(`${rel}.pyi`) ?? layout.byPath.get(`${rel}/__init__.pyi`) ?? null;
}

/** An absolute module under any source root (the repository root, src/, lib/ ...): the shallowest match wins. */
function pyAbsolute(layout: Layout, dotted: string): ModuleTarget | null {
  const rel = dotted.split('.').join('/');
  const direct = pyModuleFile(layout, rel);
  if (direct) return { files: [direct], member: null, confidence: 'exact' };
  const candidates: LayoutFile[] = [];
  for (const tail of [`${rel}.py`, `${rel}/__init__.py`, `${rel}.pyi`]) {
    for (const f of byTail(layout, tail)) {
      // The match must start at a source root (src/, lib/ ...), not inside another package.
      const prefix = f.path.slice(0, f.path.length - tail.length);
      if (!layout.has(`${prefix}__init__.py`)) candidates.push(f);
    }
  }
  if (candidates.length === 0) return null;
  const depth = (f: LayoutFile) => f.path.split('/').length;
  const best = Math.min(...candidates.map(depth));
  const files = candidates.filter((f) => depth(f) === best);
  return { files, member: null, confidence: files.length === 1 ? 'exact' : 'name' };
}

const python: Resolver = (layout, importer, module, name) => {
  const member = memberOf(name);
  const dots = /^\.*/.exec(module)![0].length;
  if (dots > 0) {
    let dir: string | null = dirOf(importer.path);
    for (let i = 1; i < dots && dir !== null; i++) dir = dir === '' ? null : dirOf(dir);
    if (dir === null) return null;
    const rest = module.slice(dots).split('.').filter(Boolean).join('/');
    const base = rest ? (dir ? `${dir}/${rest}` : rest) : dir;
    if (member) {
      const sub = pyModuleFile(layout, base ? `${base}/${member}` : member);
      if (sub) return { files: [sub], member: null, confidence: 'exact' };
    }
    return exact([base === '' ? layout.byPath.get('__init__.py') : pyModuleFile(layout, base)], member);
  }
  if (member) {
    const sub = pyAbsolute(layout, `${module}.${member}`);
    if (sub) return sub;
  }
  const mod = pyAbsolute(layout, module);
  return mod ? { ...mod, member } : null;
};

// ---------------------------------------------------------------- Go

const go: Resolver = (layout, _importer, module) => {
  for (const [mod, dir] of layout.goModuleList()) {
    if (module !== mod && !module.startsWith(`${mod}/`)) continue;
    const sub = module.slice(mod.length + 1);
    const pkgDir = dir && sub ? `${dir}/${sub}` : dir || sub;
    const files = (layout.dirs.get(pkgDir) ?? []).filter((f) => f.language === 'go' && !f.path.endsWith('_test.go'));
    return files.length > 0 ? { files, member: null, confidence: 'exact' } : null;
  }
  return null;
};

// ---------------------------------------------------------------- Rust

const RUST_ROOTS = new Set(['lib.rs', 'main.rs', 'mod.rs']);

function isModuleRoot(file: string): boolean {
  return RUST_ROOTS.has(file.slice(file.lastIndexOf('/') + 1));
}

/** Where a file's child modules live: beside lib.rs / main.rs / mod.rs, else in a folder named after it. */
function rustChildDir(file: string): string {
  if (isModuleRoot(file)) return dirOf(file);
  const dir = dirOf(file);
  return dir ? `${dir}/${stemOf(file)}` : stemOf(file);
}

function rustModuleIn(layout: Layout, dir: string, seg: string): LayoutFile | null {
  const base = dir ? `${dir}/${seg}` : seg;
  return layout.byPath.get(`${base}.rs`) ?? layout.byPath.get(`${base}/mod.rs`) ?? null;
}

function crateRoot(layout: Layout, crateDir: string): { dir: string; file: LayoutFile | null } {
  const dir = crateDir ? `${crateDir}/src` : 'src';
  return { dir, file: layout.byPath.get(`${dir}/lib.rs`) ?? layout.byPath.get(`${dir}/main.rs`) ?? null };
}

const rust: Resolver = (layout, importer, module, name) => {
  const segs = [...module.split('::').filter(Boolean), ...(name === '*' ? [] : [name])];
  if (segs.length === 0) return null;
  let start: { dir: string; file: LayoutFile | null } | null = null;
  let i = 1;
  const head = segs[0]!;
  if (head === 'crate') start = crateRoot(layout, layout.crateDirOf(importer.path));
  else if (head === 'self') start = { dir: rustChildDir(importer.path), file: importer };
  else if (head === 'super') {
    const dir = isModuleRoot(importer.path) ? dirOf(dirOf(importer.path)) : dirOf(importer.path);
    const file = layout.byPath.get(`${dir}.rs`) ?? layout.byPath.get(`${dir}/mod.rs`) ?? layout.byPath.get(`${dir}/lib.rs`) ?? layout.byPath.get(`${dir}/main.rs`) ?? null;
    start = { dir, file };
  } else {
    const crateDir = layout.crateDirs().get(head);
    if (crateDir !== undefined) start = crateRoot(layout, crateDir);
    else {
      // A bare first segment: a child module of this file, or of the crate root (2018 paths).
      i = 0;
      const own = rustModuleIn(layout, rustChildDir(importer.path), head);
      const root = crateRoot(layout, layout.crateDirOf(importer.path));
      if (own) start = { dir: rustChildDir(importer.path), file: importer };
      else if (rustModuleIn(layout, root.dir, head)) start = root;
      else return null;
    }
  }
  let { dir, file } = start;
  for (; i < segs.length; i++) {
    const next = rustModuleIn(layout, dir, segs[i]!);
    if (!next) break;
    file = next;
    dir = `${dir}/${segs[i]}`;
  }
  const member = i < segs.length ? segs[i]! : null;
  return exact([file], name === '*' ? null : member);
};

// ---------------------------------------------------------------- Java, Kotlin, C#, PHP (packages and namespaces)

function inNamespace(layout: Layout, ns: string): LayoutFile[] {
  return layout.namespaces.get(ns) ?? [];
}

/** `com.a` + `B`: the file named B in package com.a, else any file of the package (Kotlin), else a path match. */
function classImport(layout: Layout, module: string, name: string, exts: string[]): ModuleTarget | null {
  if (name === '*') {
    const files = inNamespace(layout, module);
    return files.length > 0 ? { files, member: null, confidence: 'exact' } : null;
  }
  const files = inNamespace(layout, module);
  const named = files.filter((f) => stemOf(f.path) === name);
  if (named.length > 0) return { files: named, member: name, confidence: 'exact' };
  if (files.length > 0) return { files, member: name, confidence: 'exact' };
  // A static import (`com.a.C.util`) names a member of class C.
  const dot = module.lastIndexOf('.');
  if (dot > 0) {
    const cls = module.slice(dot + 1);
    const owner = inNamespace(layout, module.slice(0, dot)).filter((f) => stemOf(f.path) === cls);
    if (owner.length > 0) return { files: owner, member: `${cls}.${name}`, confidence: 'exact' };
  }
  const tail = module.split('.').join('/');
  for (const ext of exts) {
    const found = tailMatch(layout, `${tail}/${name}${ext}`, name);
    if (found) return found;
  }
  return null;
}

const java: Resolver = (layout, _importer, module, name) => classImport(layout, module, name, ['.java', '.kt']);

const csharp: Resolver = (layout, _importer, module, name) => {
  if (name === '*') return exact(inNamespace(layout, module), null);
  return classImport(layout, module, name, ['.cs']) ?? exact(inNamespace(layout, `${module}.${name}`), null);
};

function relativeOrTail(layout: Layout, importer: LayoutFile, module: string, exts: string[]): ModuleTarget | null {
  const candidates = exts.map((e) => (module.endsWith(e) || e === '' ? module : module + e));
  for (const c of candidates) {
    const rel = joinPath(dirOf(importer.path), c);
    const f = rel === null ? null : layout.byPath.get(rel);
    if (f) return { files: [f], member: null, confidence: 'exact' };
  }
  if (module.startsWith('.')) return null;
  for (const c of candidates) {
    const f = layout.byPath.get(c);
    if (f) return { files: [f], member: null, confidence: 'exact' };
  }
  for (const c of candidates) {
    const found = tailMatch(layout, c, null);
    if (found) return found;
  }
  return null;
}

const php: Resolver = (layout, importer, module, name) => {
  if (/\.(php|inc|phtml)$/i.test(module)) return relativeOrTail(layout, importer, module, ['']);
  return classImport(layout, module, name, ['.php']);
};

// ---------------------------------------------------------------- C / C++, Ruby

const c: Resolver = (layout, importer, module) => {
  if (module.startsWith('<')) return tailMatch(layout, module.slice(1, -1), null);
  return relativeOrTail(layout, importer, module, ['']);
};

const ruby: Resolver = (layout, importer, module) => {
  const found = relativeOrTail(layout, importer, module, ['.rb']);
  if (found || module.startsWith('.')) return found;
  const inLib = layout.byPath.get(`lib/${module}.rb`);
  return inLib ? { files: [inLib], member: null, confidence: 'exact' } : null;
};

export const RESOLVERS: Readonly<Record<string, Resolver>> = {
  typescript: javascript,
  tsx: javascript,
  javascript,
  python,
  go,
  rust,
  java,
  kotlin: java,
  csharp,
  php,
  c,
  cpp: c,
  ruby,
};
