/**
 * What the resolver knows about the repository as a whole: every indexed path, and the project
 * files that change how imports resolve (tsconfig.json paths, package.json names and exports,
 * go.mod module paths, Cargo.toml crate names). Project files are read from disk, once per pass.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface LayoutFile {
  id: number;
  path: string;
  language: string | null;
}

export interface TsConfig {
  /** Directory `paths` patterns are relative to (baseUrl, or the tsconfig's directory). */
  base: string;
  paths: [pattern: string, targets: string[]][];
  hasBaseUrl: boolean;
}

export interface LocalPackage {
  dir: string;
  json: Record<string, unknown>;
}

/** Repository-relative POSIX helpers (paths never start with '/' and never hold '..' after normalising). */
export function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

export function joinPath(dir: string, rel: string): string | null {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null; // leaves the repository
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

export function stemOf(p: string): string {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** JSON with comments and trailing commas (tsconfig.json); null when unreadable. */
export function readJsonc(abs: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  try {
    const parsed: unknown = JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function readText(abs: string): string | null {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
}

export class Layout {
  readonly byPath = new Map<string, LayoutFile>();
  readonly byId = new Map<number, LayoutFile>();
  /** Directory → files directly inside it. */
  readonly dirs = new Map<string, LayoutFile[]>();
  /** File name (`foo.h`) → files with that name anywhere: the fallback for include paths and Ruby requires. */
  readonly byBase = new Map<string, LayoutFile[]>();
  /** Declared package / namespace (Java, Kotlin, C#, PHP, Go) → the files declaring it. */
  readonly namespaces = new Map<string, LayoutFile[]>();
  readonly namespaceOf = new Map<number, string>();
  private tsconfigs: Map<string, TsConfig | null> | null = null;
  private packages: Map<string, LocalPackage> | null = null;
  private goModules: [module: string, dir: string][] | null = null;
  private crates: Map<string, string> | null = null;

  constructor(
    readonly root: string,
    files: LayoutFile[],
    namespaces: { fileId: number; name: string }[],
  ) {
    for (const f of files) {
      this.byPath.set(f.path, f);
      this.byId.set(f.id, f);
      push(this.dirs, dirOf(f.path), f);
      push(this.byBase, f.path.slice(f.path.lastIndexOf('/') + 1), f);
    }
    for (const { fileId, name } of namespaces) {
      const f = this.byId.get(fileId);
      if (!f) continue;
      push(this.namespaces, name, f);
      if (!this.namespaceOf.has(fileId)) this.namespaceOf.set(fileId, name);
    }
  }

  has(p: string): boolean {
    return this.byPath.has(p);
  }

  /** Indexed project files with this base name (tsconfig.json, go.mod, ...). */
  named(base: string): string[] {
    return (this.byBase.get(base) ?? []).map((f) => f.path);
  }

  /** The nearest tsconfig.json / jsconfig.json above a file, parsed. */
  tsconfigFor(file: string): TsConfig | null {
    this.tsconfigs ??= this.loadTsconfigs();
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      const cfg = this.tsconfigs.get(dir);
      if (cfg) return cfg;
      if (dir === '') return null;
    }
  }

  private loadTsconfigs(): Map<string, TsConfig | null> {
    const out = new Map<string, TsConfig | null>();
    const found = new Set([...this.named('tsconfig.json'), ...this.named('jsconfig.json')]);
    for (const name of ['tsconfig.json', 'jsconfig.json']) if (fs.existsSync(path.join(this.root, name))) found.add(name);
    for (const file of found) {
      const dir = dirOf(file);
      if (out.get(dir)) continue;
      out.set(dir, this.parseTsconfig(file, 0));
    }
    return out;
  }

  private parseTsconfig(file: string, depth: number): TsConfig | null {
    const json = readJsonc(path.join(this.root, file));
    if (!json) return null;
    const dir = dirOf(file);
    // `extends` of a relative file supplies what this one leaves out (one level is the common case).
    let inherited: TsConfig | null = null;
    if (typeof json.extends === 'string' && json.extends.startsWith('.') && depth < 3) {
      const rel = json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`;
      const parent = joinPath(dir, rel);
      if (parent !== null) inherited = this.parseTsconfig(parent, depth + 1);
    }
    const options = (json.compilerOptions ?? {}) as Record<string, unknown>;
    const baseUrl = typeof options.baseUrl === 'string' ? joinPath(dir, options.baseUrl) : null;
    const rawPaths = options.paths && typeof options.paths === 'object' ? (options.paths as Record<string, unknown>) : null;
    const paths: [string, string[]][] = rawPaths
      ? Object.entries(rawPaths).map(([k, v]) => [k, Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []])
      : (inherited?.paths ?? []);
    const base = baseUrl ?? (rawPaths ? dir : (inherited?.base ?? dir));
    return { base, paths, hasBaseUrl: baseUrl !== null || (inherited?.hasBaseUrl ?? false) };
  }

  /** Local packages by their package.json `name`. */
  packageNamed(name: string): LocalPackage | undefined {
    if (!this.packages) {
      this.packages = new Map();
      for (const file of this.named('package.json')) {
        const json = readJsonc(path.join(this.root, file));
        if (json && typeof json.name === 'string') this.packages.set(json.name, { dir: dirOf(file), json });
      }
    }
    return this.packages.get(name);
  }

  /** Go module paths declared by go.mod files, longest first. */
  goModuleList(): [string, string][] {
    if (!this.goModules) {
      const files = new Set(this.named('go.mod'));
      if (fs.existsSync(path.join(this.root, 'go.mod'))) files.add('go.mod');
      this.goModules = [];
      for (const file of files) {
        const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(readText(path.join(this.root, file)) ?? '');
        if (m) this.goModules.push([m[2]!, dirOf(file)]);
      }
      this.goModules.sort((a, b) => b[0].length - a[0].length);
    }
    return this.goModules;
  }

  /** Rust crates: crate name (dashes as underscores) → crate directory (holding Cargo.toml). */
  crateDirs(): Map<string, string> {
    if (!this.crates) {
      this.crates = new Map();
      const files = new Set(this.named('Cargo.toml'));
      if (fs.existsSync(path.join(this.root, 'Cargo.toml'))) files.add('Cargo.toml');
      for (const file of files) {
        const text = readText(path.join(this.root, file)) ?? '';
        const pkg = /^\[package\][^[]*?^\s*name\s*=\s*"([^"]+)"/ms.exec(text);
        if (pkg) this.crates.set(pkg[1]!.replace(/-/g, '_'), dirOf(file));
      }
    }
    return this.crates;
  }

  /** The directory of the crate holding a file: the nearest directory above it with a Cargo.toml, else the root. */
  crateDirOf(file: string): string {
    const dirs = new Set(this.crateDirs().values());
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      if (dirs.has(dir) || dir === '') return dir;
    }
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
