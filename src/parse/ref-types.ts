/**
 * Declared types of variables, so that a call on a variable can be looked up on its type:
 * parameters (`r *http.Request`, `app: Flask`, `Param p`), typed locals and fields, and locals
 * initialised by a constructor (`x = Foo()`, `let w = Walker::new()`, `x := &S{}`). Each binding
 * belongs to the definition it is declared in; class fields (and Python's `self.x = Foo()`)
 * belong to the class, for `this.x.m()` / `self.x.m()`.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolTable } from './symbols.js';

const CLASS_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'impl']);
const SELF = new Set(['this', 'self']);
const TYPE_PATH = /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

/** `*pkg.T`, `&mut Foo<T>`, `Optional[Foo]`, `?Foo`, `Foo[]` → the named type; null for slices, maps, unions, functions. */
export function declaredType(text: string): string | null {
  let t = text.trim().replace(/^:\s*/, '');
  const optional = /^(?:t\.|typing\.)?Optional\[(.+)\]$/.exec(t);
  if (optional) t = optional[1]!;
  t = t.replace(/^(?:\*|&|\?|mut\s+|const\s+|dyn\s+|impl\s+)+/, '').replace(/\?$/, '');
  t = t.replace(/[<[].*$/s, '').replace(/::|\\/g, '.').replace(/^\.+/, '').trim();
  return TYPE_PATH.test(t) ? t : null;
}

export class ReceiverTypes {
  /** Entry index (-1: file level) → variable → type. */
  private readonly scopes = new Map<number, Map<string, string>>();

  constructor(private readonly table: SymbolTable) {}

  /** Records `variable: type`, declared inside entry `entry`. */
  add(variable: Node, type: Node, entry: number): void {
    const t = declaredType(type.text);
    if (!t) return;
    // `self.x = Foo()` in a method declares a field of its class.
    const owner = variable.parent?.type === 'attribute' ? this.classOf(entry) : entry;
    if (owner === null) return;
    let scope = this.scopes.get(owner);
    if (!scope) this.scopes.set(owner, (scope = new Map()));
    const name = variable.text.replace(/^\$/, '');
    if (!scope.has(name)) scope.set(name, t);
  }

  /** The declared type of a receiver (`x`, or `this.x` / `self.x`) seen from entry `from`; null when unknown. */
  typeOf(qualifier: string, from: number): string | null {
    const parts = qualifier.split('.');
    if (parts.length === 1) {
      for (let e = from; ; e = this.table.entries[e]!.parent) {
        const t = this.scopes.get(e)?.get(parts[0]!);
        if (t) return t;
        if (e < 0) return null;
      }
    }
    if (parts.length === 2 && SELF.has(parts[0]!)) {
      const cls = this.classOf(from);
      return cls === null ? null : (this.scopes.get(cls)?.get(parts[1]!) ?? null);
    }
    return null;
  }

  private classOf(entry: number): number | null {
    for (let e = entry; e >= 0; e = this.table.entries[e]!.parent) {
      if (CLASS_KINDS.has(this.table.entries[e]!.kind)) return e;
    }
    return null;
  }
}
