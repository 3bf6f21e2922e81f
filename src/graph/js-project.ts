/**
 * What a JavaScript / TypeScript repository declares about its imports, read from disk once per
 * resolution pass: each tsconfig.json / jsconfig.json's `paths` and `baseUrl` (get-tsconfig follows
 * `extends` and applies them as TypeScript does), and each package.json (jsonc-parser reads both).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createPathsMatcher, parseTsconfig, type PathsMatcher, type TsConfigJsonResolved } from 'get-tsconfig';
import { parse, type ParseError } from 'jsonc-parser';
import type { LayoutFile } from './layout.js';
import { dirOf } from './repo-path.js';

export interface LocalPackage {
  /** Repository-relative directory of its package.json. */
  dir: string;
  json: Record<string, unknown>;
}

/** A tsconfig's `paths` and `baseUrl` as one function: a bare specifier → repository-relative candidate paths. */
export type PathsCandidates = (specifier: string) => string[];

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

export class JsProject {
  /** Directory → its config file (tsconfig.json over jsconfig.json). */
  private configs: Map<string, string> | null = null;
  private readonly candidates = new Map<string, PathsCandidates | null>();
  /** get-tsconfig's cache of file reads, shared by every config of the pass (a common base is read once). */
  private readonly tsconfigReads = new Map<string, string>();
  private localPackages: { byName: Map<string, LocalPackage>; byDir: Map<string, LocalPackage> } | null = null;
  private readonly answers = new Map<string, LayoutFile | null>();

  constructor(
    private readonly root: string,
    /** Indexed files with this base name. */
    private readonly named: (base: string) => string[],
  ) {}

  /** The nearest config above a file, and its `paths` / `baseUrl` (null without either, or without a config). */
  pathsFor(file: string): { config: string; candidates: PathsCandidates } | null {
    this.configs ??= this.findConfigs();
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      const config = this.configs.get(dir);
      if (config !== undefined) {
        let candidates = this.candidates.get(config);
        if (candidates === undefined) this.candidates.set(config, (candidates = this.loadPaths(config)));
        return candidates ? { config, candidates } : null;
      }
      if (dir === '') return null;
    }
  }

  /** A lookup answered once per pass (the pass reads the index as of its start). */
  once(key: string, compute: () => LayoutFile | null): LayoutFile | null {
    let found = this.answers.get(key);
    if (found === undefined) this.answers.set(key, (found = compute()));
    return found;
  }

  /** A local package by its package.json `name`. */
  packageNamed(name: string): LocalPackage | undefined {
    return this.packages().byName.get(name);
  }

  /** The package a file belongs to: the nearest package.json above it. */
  packageOf(file: string): LocalPackage | undefined {
    const { byDir } = this.packages();
    for (let dir = dirOf(file); ; dir = dirOf(dir)) {
      const pkg = byDir.get(dir);
      if (pkg || dir === '') return pkg;
    }
  }

  private findConfigs(): Map<string, string> {
    const out = new Map<string, string>();
    for (const name of CONFIG_NAMES) {
      const found = this.named(name);
      if (!found.includes(name) && fs.existsSync(path.join(this.root, name))) found.push(name);
      for (const file of found) if (!out.has(dirOf(file))) out.set(dirOf(file), file);
    }
    return out;
  }

  private loadPaths(config: string): PathsCandidates | null {
    const abs = path.join(this.root, config);
    const resolved = this.withExtends(abs);
    const match = resolved && pathsMatcher(abs, resolved);
    if (!match) return null;
    return (specifier) => {
      const out: string[] = [];
      for (const p of match(specifier)) {
        const rel = path.relative(this.root, p).split(path.sep).join('/');
        if (rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel)) out.push(rel);
      }
      return out;
    };
  }

  /**
   * The config with its `extends` chain applied. A base that cannot be found (a shared config
   * package in a node_modules that is not installed) leaves the config's own options.
   */
  private withExtends(abs: string): TsConfigJsonResolved | null {
    try {
      return parseTsconfig(abs, this.tsconfigReads);
    } catch {
      const options = readJsonc(abs)?.compilerOptions;
      return isObject(options) ? { compilerOptions: options as TsConfigJsonResolved['compilerOptions'] } : null;
    }
  }

  private packages(): { byName: Map<string, LocalPackage>; byDir: Map<string, LocalPackage> } {
    if (!this.localPackages) {
      const byName = new Map<string, LocalPackage>();
      const byDir = new Map<string, LocalPackage>();
      for (const file of this.named('package.json')) {
        const json = readJsonc(path.join(this.root, file));
        if (!json) continue;
        const pkg = { dir: dirOf(file), json };
        byDir.set(pkg.dir, pkg);
        if (typeof json.name === 'string') byName.set(json.name, pkg);
      }
      this.localPackages = { byName, byDir };
    }
    return this.localPackages;
  }
}

/** Null without `paths` and `baseUrl`, or with a pattern TypeScript refuses too (two `*`, a non-relative target without baseUrl). */
function pathsMatcher(abs: string, config: TsConfigJsonResolved): PathsMatcher | null {
  try {
    return createPathsMatcher({ path: abs, config });
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON file that may hold comments and trailing commas; null when unreadable, malformed or not an object. */
function readJsonc(abs: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch {
    return null;
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  return errors.length === 0 && isObject(value) ? value : null;
}
