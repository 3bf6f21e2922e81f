/**
 * Calls, type uses and inheritance → definitions. Scope first, then imports, then the package,
 * then the name alone:
 *
 *   exact   the enclosing class or file defines it (`this.m()`, a local function, a Go package sibling)
 *   import  an import binds it, or binds the module / class it is reached through
 *   name    only the name matched; several matches are all kept and the edge is `ambiguous`
 *
 * A name reached through an import that did not resolve (an external package) is left unresolved
 * rather than matched by name, and so are receivers that are the runtime's own (`console.log`).
 */
import type { Confidence, EdgeTarget, StoredEdge, StoredSymbol } from '../store/index.js';
import { bindingFor, UNRESOLVED, type Binding, type GraphView, type Resolution } from './view.js';
import {
  CALLABLE_KINDS,
  CONTAINER_KINDS,
  DIRECTORY_PACKAGES,
  IMPLICIT_THIS,
  isGlobalReceiver,
  NAMESPACE_PACKAGES,
  SELF_WORDS,
  SUPER_WORDS,
  TYPE_KINDS,
  familyOf,
} from './lang.js';
import { isBuiltinMethod } from './builtins.js';
import type { LayoutFile } from './layout.js';
import { RESOLVERS } from './modules.js';
import { findExported } from './resolve-imports.js';
import { containerOf, inClass, inFunction, isMember } from './containers.js';
import { answer, constructorTargets, type Found } from './found.js';

const MAX_BASE_DEPTH = 3;

class ReferenceResolver {
  private readonly file: LayoutFile;
  private readonly language: string;
  private readonly family: string;
  private readonly from: StoredSymbol | undefined;

  constructor(
    private readonly ctx: GraphView,
    private readonly edge: StoredEdge,
    private readonly depth: number,
  ) {
    this.file = ctx.layout.byId.get(edge.fileId)!;
    this.language = this.file.language ?? '';
    this.family = familyOf(this.file.language);
    this.from = edge.fromSymbol === null ? undefined : ctx.symbol(edge.fromSymbol, edge.fileId);
  }

  private get kinds(): ReadonlySet<string> {
    return this.edge.kind === 'call' ? CALLABLE_KINDS : TYPE_KINDS;
  }

  resolve(): Resolution {
    const { qualifier: q, name } = this.edge;
    const found =
      q === null ? this.bare(name, this.kinds)
      : SELF_WORDS.has(q) ? this.selfCall(name, false)
      : SUPER_WORDS.has(q) ? this.selfCall(name, true)
      : this.edge.kind === 'call' && this.edge.module ? this.typedReceiver(this.edge.module, name)
      : q === '?' ? this.anyMember(name)
      : this.qualified(q, name);
    if (!found || found === 'stop') return UNRESOLVED;
    const result = answer(found);
    if (this.edge.kind === 'call' && 'symbols' in found) result.targets.push(...constructorTargets(this.ctx, found));
    return result;
  }

  /**
   * A call on a variable with a declared type (`r *http.Request`, `app: Flask`): a member of that
   * type or of its bases. A type that resolves to nothing indexed is the runtime's or a library's.
   */
  private typedReceiver(type: string, name: string): Found {
    if (type === 'Self') return this.selfCall(name, false); // Rust `other: &Self`
    const found = this.typeNamed(type);
    if (!found || found === 'stop') return 'stop';
    // An imported type comes back as the import's targets: read them as definitions.
    const owners = 'symbols' in found ? found : { symbols: this.symbolsOf(found.targets), confidence: found.targets[0]?.confidence ?? 'name' };
    const members = owners.symbols.filter((o) => CONTAINER_KINDS.has(o.kind)).flatMap((o) => this.membersWithBases(o, name));
    return members.length > 0 ? { symbols: members, confidence: owners.confidence } : 'stop';
  }

  /** Members named `name` of a type, else of its nearest base that has them. */
  private membersWithBases(owner: StoredSymbol, name: string): StoredSymbol[] {
    const own = this.membersOf(owner, name);
    if (own.length > 0) return own;
    const inherited = this.inheritedMember({ qualified: owner.qualified, symbol: owner }, name, 0);
    return inherited && inherited !== 'stop' && 'symbols' in inherited ? inherited.symbols : [];
  }

  private typeNamed(type: string): Found {
    const parts = type.split('.');
    if (parts.length === 1) return this.bare(type, CONTAINER_KINDS);
    const scope = this.ctx.scope(this.edge.fileId, this.depth);
    for (let n = parts.length - 1; n > 0; n--) {
      const binding = bindingFor(scope, parts.slice(0, n).join('.'), this.from?.qualified ?? '');
      if (binding) return this.viaBinding(binding, parts.slice(n, -1).join('.'), parts[parts.length - 1]!);
    }
    return null;
  }

  // ------------------------------------------------------------ bare names

  private bare(name: string, kinds: ReadonlySet<string>): Found {
    return (
      this.local(name, kinds) ??
      this.imported(name) ??
      this.spilled(name, kinds) ??
      this.packaged(name, kinds) ??
      (IMPLICIT_THIS.has(this.language) && this.edge.kind === 'call' ? this.inheritedMember(this.enclosingClass(), name, 0) : null) ??
      this.byName(name, kinds, this.edge.kind === 'call' && !IMPLICIT_THIS.has(this.language) && this.language !== 'ruby')
    );
  }

  /** Definitions in this file visible from the reference: top level, or in a container it sits in. */
  private local(name: string, kinds: ReadonlySet<string>): Found {
    const symbols = this.ctx.fileSymbols(this.edge.fileId);
    const here = this.from?.qualified ?? '';
    const found = symbols.filter((s) => {
      if (s.name !== name || !kinds.has(s.kind)) return false;
      const container = containerOf(s.qualified);
      if (container === '') return true;
      if (here !== container && !here.startsWith(`${container}.`)) return false;
      // A class member is reachable bare only where the language has an implicit `this`.
      const owner = symbols.find((p) => p.qualified === container);
      return !owner || owner.kind === 'module' || owner.kind === 'function' || owner.kind === 'method' || IMPLICIT_THIS.has(this.language);
    });
    return found.length > 0 ? { symbols: found, confidence: 'exact' } : null;
  }

  private imported(name: string): Found {
    const binding = bindingFor(this.ctx.scope(this.edge.fileId, this.depth), name, this.from?.qualified ?? '');
    return binding ? this.viaBinding(binding, '', null) : null;
  }

  private spilled(name: string, kinds: ReadonlySet<string>): Found {
    const spill = this.ctx.scope(this.edge.fileId, this.depth).spill;
    if (spill.length === 0) return null;
    let targets = findExported(this.ctx, spill, name, this.depth);
    if (targets.length === 0 && this.family === 'c') targets = findExported(this.ctx, this.companions(spill), name, this.depth);
    const symbols = this.symbolsOf(targets).filter((s) => kinds.has(s.kind));
    return symbols.length > 0 ? { symbols, confidence: 'import' } : null;
  }

  /** `ns::f()` / `Mod.f` defined in a file this one includes or wildcard-imports (C++ namespaces, Ruby modules). */
  private spilledMember(q: string, name: string): Found {
    const spill = this.ctx.scope(this.edge.fileId, this.depth).spill;
    if (spill.length === 0) return null;
    const files = new Set([...spill, ...(this.family === 'c' ? this.companions(spill) : [])]);
    const symbols = [...files].flatMap((f) =>
      this.ctx.fileSymbols(f).filter((s) => s.name === name && (s.qualified === `${q}.${name}` || s.qualified.endsWith(`.${q}.${name}`))),
    );
    return symbols.length > 0 ? { symbols, confidence: 'import' } : null;
  }

  /** A C header's implementation files: same stem, C or C++ source. */
  private companions(headers: number[]): number[] {
    const out: number[] = [];
    for (const id of headers) {
      const h = this.ctx.layout.byId.get(id);
      if (!h || !/\.(h|hh|hpp|hxx)$/.test(h.path)) continue;
      const stem = h.path.slice(h.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
      for (const ext of ['c', 'cc', 'cpp', 'cxx']) for (const f of this.ctx.layout.byBase.get(`${stem}.${ext}`) ?? []) out.push(f.id);
    }
    return out;
  }

  /** Same Go package (directory), or same Java / Kotlin / C# / PHP namespace. */
  private packaged(name: string, kinds: ReadonlySet<string>): Found {
    const layout = this.ctx.layout;
    let siblings: LayoutFile[] = [];
    let confidence: Confidence = 'import';
    if (DIRECTORY_PACKAGES.has(this.language)) {
      const dir = this.file.path.slice(0, Math.max(0, this.file.path.lastIndexOf('/')));
      siblings = (layout.dirs.get(dir) ?? []).filter((f) => f.language === this.language);
      confidence = 'exact';
    } else if (NAMESPACE_PACKAGES.has(this.language)) {
      const ns = layout.namespaceOf.get(this.file.id);
      siblings = ns === undefined ? [] : (layout.namespaces.get(ns) ?? []);
    }
    const ids = siblings.filter((f) => f.id !== this.file.id).map((f) => f.id);
    if (ids.length === 0) return null;
    const symbols = this.symbolsOf(findExported(this.ctx, ids, name, this.depth)).filter((s) => kinds.has(s.kind));
    return symbols.length > 0 ? { symbols, confidence } : null;
  }

  /**
   * The last resort: every definition with the name in this language family — except those local
   * to a function (invisible outside it), and class members where a bare call cannot reach them.
   */
  private byName(name: string, kinds: ReadonlySet<string>, topLevelOnly: boolean): Found {
    const symbols = this.ctx
      .named(name)
      .filter((s) => kinds.has(s.kind) && this.sameFamily(s) && !inFunction(this.ctx, s) && (!topLevelOnly || !isMember(s) || !inClass(this.ctx, s)));
    return symbols.length > 0 ? { symbols, confidence: 'name' } : null;
  }

  // ------------------------------------------------------------ receivers

  private qualified(q: string, name: string): Found {
    const scope = this.ctx.scope(this.edge.fileId, this.depth);
    const parts = q.split('.');
    for (let n = parts.length; n > 0; n--) {
      const binding = bindingFor(scope, parts.slice(0, n).join('.'), this.from?.qualified ?? '');
      if (binding) return this.viaBinding(binding, parts.slice(n).join('.'), name);
    }
    const included = this.spilledMember(q, name);
    if (included) return included;
    const head = parts[0]!;
    const last = parts[parts.length - 1]!;
    if (this.language === 'go') {
      const pkg = this.goPackageNamed(head);
      if (pkg) return this.viaBinding(pkg, parts.slice(1).join('.'), name);
    }
    if (this.language === 'rust') {
      const target = RESOLVERS.rust!(this.ctx.layout, this.file, parts.join('::'), name);
      if (target) {
        const symbols = this.symbolsOf(findExported(this.ctx, target.files.map((f) => f.id), name, this.depth));
        if (symbols.length > 0) return { symbols, confidence: 'exact' };
      }
    }
    if (/^[A-Z]/.test(last)) {
      const owner = this.bare(last, CONTAINER_KINDS);
      if (owner && owner !== 'stop' && 'symbols' in owner) {
        const members = owner.symbols.flatMap((o) => this.membersOf(o, name));
        if (members.length > 0) return { symbols: members, confidence: owner.confidence };
      }
    }
    const suffix = this.ctx.named(name).filter((s) => this.sameFamily(s) && (s.qualified === `${q}.${name}` || s.qualified.endsWith(`.${q}.${name}`)));
    if (suffix.length > 0) return { symbols: suffix, confidence: suffix.every((s) => s.fileId === this.file.id) ? 'exact' : 'name' };
    if (isGlobalReceiver(this.family, head)) return 'stop';
    if (this.language === 'go' && parts.length === 1 && this.isGoReceiver(head)) return this.selfCall(name, false);
    return this.anyMember(name);
  }

  /** `binding.rest.name`: a member of what the import binds. */
  private viaBinding(binding: Binding, rest: string, name: string | null): Found {
    if (!binding.resolved) return 'stop';
    if (name === null) {
      if (binding.symbols.length > 0) return { targets: binding.symbols.map((s) => ({ fileId: s.fileId, symbolId: s.id, confidence: 'import' })) };
      return binding.files.length > 0 ? { targets: binding.files.map((fileId) => ({ fileId, symbolId: null, confidence: 'import' })) } : null;
    }
    if (binding.symbols.length > 0) {
      const owners = binding.symbols.map((s) => this.ctx.symbol(s.id, s.fileId)).filter((s): s is StoredSymbol => Boolean(s));
      const path = rest ? `${rest}.${name}` : name;
      const members = owners.flatMap((o) => [...this.membersOf(o, path), ...this.declaredMembers(o, path)]);
      return members.length > 0 ? { symbols: members, confidence: 'import' } : 'stop';
    }
    const want = rest ? `${rest}.${name}` : name;
    let symbols = binding.files.flatMap((f) => this.ctx.fileSymbols(f).filter((s) => s.name === name && s.qualified === want));
    if (symbols.length === 0 && !rest) symbols = this.symbolsOf(findExported(this.ctx, binding.files, name, this.depth));
    if (symbols.length === 0 && rest) {
      // `mod.Class.method` where Class came into `mod` by import: resolve the class there first.
      const owners = this.symbolsOf(findExported(this.ctx, binding.files, rest.split('.')[0]!, this.depth));
      const path = [...rest.split('.').slice(1), name].join('.');
      symbols = owners.flatMap((o) => [...this.membersOf(o, path), ...this.declaredMembers(o, path)]);
    }
    return symbols.length > 0 ? { symbols, confidence: 'import' } : 'stop';
  }

  /**
   * Members of an imported variable's declared type (`g: _AppCtxGlobals = ...`, `var Default Config`):
   * the type references written in its declaration, as resolved in its own file.
   */
  private declaredMembers(variable: StoredSymbol, path: string): StoredSymbol[] {
    if (variable.kind !== 'variable' && variable.kind !== 'constant') return [];
    const types = this.ctx.fileEdges(variable.fileId, 'type').filter((e) => e.fromSymbol === variable.id);
    const owners = types.flatMap((e) => this.symbolsOf(this.ctx.resolution(e, this.depth + 1).targets)).filter((t) => CONTAINER_KINDS.has(t.kind));
    return owners.flatMap((o) => this.membersWithBases(o, path));
  }

  /** Members named `path` (`m` or `Inner.m`) of a container, wherever they are defined (Go methods, Rust impls). */
  private membersOf(owner: StoredSymbol, path: string): StoredSymbol[] {
    const want = `${owner.qualified}.${path}`;
    const name = path.slice(path.lastIndexOf('.') + 1);
    const inFile = this.ctx.fileSymbols(owner.fileId).filter((s) => s.name === name && s.qualified === want);
    if (inFile.length > 0) return inFile;
    const tail = `${owner.name}.${path}`;
    return this.ctx.named(name).filter((s) => this.sameFamily(s) && (s.qualified === tail || s.qualified.endsWith(`.${tail}`)));
  }

  // ------------------------------------------------------------ self and base classes

  /** The class (or Go / Rust receiver type) the reference sits in: its qualified name and, when defined here, its symbol. */
  private enclosingClass(): { qualified: string; symbol?: StoredSymbol } | null {
    if (!this.from) return null;
    const symbols = this.ctx.fileSymbols(this.edge.fileId);
    const own = CONTAINER_KINDS.has(this.from.kind) && this.from.kind !== 'module' ? this.from : null;
    if (own) return { qualified: own.qualified, symbol: own };
    for (let q = containerOf(this.from.qualified); q; q = containerOf(q)) {
      const s = symbols.find((x) => x.qualified === q);
      if (s && s.kind !== 'module' && s.kind !== 'function' && s.kind !== 'method') return { qualified: q, symbol: s };
      if (!s) return { qualified: q }; // a receiver type defined elsewhere (Go method, Rust impl, C++ out-of-line)
    }
    return null;
  }

  /**
   * `this.m()` / `super.m()`: the class and its bases. Outside any class the receiver is unknown;
   * inside one, a miss means an attribute or an external base, and is not guessed by name.
   */
  private selfCall(name: string, skipOwn: boolean): Found {
    const cls = this.enclosingClass();
    if (!cls) return this.anyMember(name);
    return (skipOwn ? this.inheritedMember(cls, name, 0) : this.selfMember(cls, name)) ?? 'stop';
  }

  private selfMember(cls: { qualified: string; symbol?: StoredSymbol }, name: string): Found {
    const want = `${cls.qualified}.${name}`;
    const own = this.ctx.fileSymbols(this.edge.fileId).filter((s) => s.name === name && s.qualified === want);
    if (own.length > 0) return { symbols: own, confidence: 'exact' };
    const elsewhere = this.ctx.named(name).filter((s) => this.sameFamily(s) && s.qualified === want && this.samePackage(s));
    if (elsewhere.length > 0) return { symbols: elsewhere, confidence: 'exact' };
    return this.inheritedMember(cls, name, 0);
  }

  /** A member found on the base classes, with the confidence of the inheritance edge. */
  private inheritedMember(cls: { qualified: string; symbol?: StoredSymbol } | null, name: string, level: number): Found {
    if (!cls?.symbol || level >= MAX_BASE_DEPTH) return null;
    const bases = this.ctx
      .fileEdges(cls.symbol.fileId, 'inherit')
      .filter((e) => e.fromSymbol === cls.symbol!.id && e.id !== this.edge.id);
    for (const e of bases) {
      const r = this.ctx.resolution(e, this.depth + 1);
      for (const t of r.targets) {
        const base = t.symbolId === null ? undefined : this.ctx.symbol(t.symbolId, t.fileId);
        if (!base) continue;
        const members = this.membersOf(base, name);
        if (members.length > 0) return { symbols: members, confidence: t.confidence };
        const deeper = this.inheritedMember({ qualified: base.qualified, symbol: base }, name, level + 1);
        if (deeper && deeper !== 'stop') return deeper;
      }
    }
    return null;
  }

  /** A method of unknown receiver: every member with the name in the family (never a runtime method name). */
  private anyMember(name: string): Found {
    if (isBuiltinMethod(this.family, name)) return 'stop';
    const symbols = this.ctx.named(name).filter((s) => isMember(s) && CALLABLE_KINDS.has(s.kind) && inClass(this.ctx, s) && this.sameFamily(s));
    return symbols.length > 0 ? { symbols, confidence: 'name' } : null;
  }

  // ------------------------------------------------------------ helpers

  private symbolsOf(targets: EdgeTarget[]): StoredSymbol[] {
    return targets
      .filter((t) => t.symbolId !== null)
      .map((t) => this.ctx.symbol(t.symbolId!, t.fileId))
      .filter((s): s is StoredSymbol => Boolean(s));
  }

  private sameFamily(s: StoredSymbol): boolean {
    return familyOf(this.ctx.layout.byId.get(s.fileId)?.language ?? null) === this.family;
  }

  /** Go: same directory; Rust: same crate; elsewhere any file. */
  private samePackage(s: StoredSymbol): boolean {
    if (this.language === 'go') return s.path.slice(0, s.path.lastIndexOf('/') + 1) === this.file.path.slice(0, this.file.path.lastIndexOf('/') + 1);
    if (this.language === 'rust') return this.ctx.layout.crateDirOf(s.path) === this.ctx.layout.crateDirOf(this.file.path);
    return true;
  }

  /** Imports bound under another name than the package's own (`import "x/go-foo"` declares `package foo`). */
  private goPackageNamed(name: string): Binding | null {
    for (const list of this.ctx.scope(this.edge.fileId, this.depth).bindings.values()) {
      for (const b of list) if (b.files.some((f) => this.ctx.layout.namespaceOf.get(f) === name)) return b;
    }
    return null;
  }

  /** `func (s *Server) Handle()`: `s` is the receiver, so `s.x()` is a method of Server. */
  private isGoReceiver(name: string): boolean {
    const m = /^func\s*\(\s*(\w+)/.exec(this.from?.signature ?? '');
    return m !== null && m[1] === name;
  }
}

export function resolveReference(edge: StoredEdge, ctx: GraphView, depth: number): Resolution {
  return new ReferenceResolver(ctx, edge, depth).resolve();
}
