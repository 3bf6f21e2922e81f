/**
 * What the resolver knows about the repository as a whole: every indexed path, and the project
 * files that change how imports resolve (tsconfig.json and package.json through `js`, go.mod
 * module paths, Cargo.toml crate names). Project files are read from disk, once per pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { JsProject } from './js-project.js';
import { dirOf } from './repo-path.js';

export interface LayoutFile {
  id: number;
  path: string;
  language: string | null;
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
  /** tsconfig paths and package.json files, for JavaScript and TypeScript. */
  readonly js: JsProject;
  private goModules: [module: string, dir: string][] | null = null;
  private crates: Map<string, string> | null = null;

  constructor(
    readonly root: string,
    files: readonly LayoutFile[],
    namespaces: { fileId: number; name: string }[],
  ) {
    this.js = new JsProject(root, (base) => this.named(base));
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
