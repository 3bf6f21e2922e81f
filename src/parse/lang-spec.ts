/**
 * What a language table is (LangSpec: which node types define symbols and how
 * to read their names) and the small readers every table is built from.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from './types.js';

/** 'impl' is a Rust impl block: a container that names its methods but is not itself reported. */
export type InternalKind = SymbolKind | 'impl';

export interface DefInfo {
  /** Simple name (last segment). */
  name: string;
  kind: InternalKind;
  /** Walk this node's children (through the language's `descend` types) for nested definitions. */
  container?: boolean;
  /** Qualifiers between the enclosing container and the name: Go receiver type, C++ `Foo::`, `namespace A.B`. */
  scope?: string[];
  /** Node holding the name; its line is the symbol's signature line. */
  nameNode?: Node | null;
  /** Breadcrumb label override, e.g. "impl Display for Foo". */
  label?: string;
}

/** Returns null when the node is not a definition after all (e.g. a struct reference without a body). */
export type Extractor = (node: Node, parent: InternalKind | null) => DefInfo | null;

export interface LangSpec {
  defs: Readonly<Record<string, Extractor>>;
  /** Non-definition nodes whose children may hold definitions (bodies, export wrappers, #ifdef ...). */
  descend: ReadonlySet<string>;
  /** Descend nodes whose range becomes the range of the single definition inside (export, decorators). */
  wrap: ReadonlySet<string>;
  /** Node types that stay with the following sibling when chunking (besides any type containing "comment"). */
  attach: ReadonlySet<string>;
  /** Parent kinds under which a 'function' is reported as a 'method'. */
  methodParents: ReadonlySet<InternalKind>;
  /**
   * Inside function bodies only these node types are walked (to find nested function and class
   * declarations cheaply); defaults to `descend`.
   */
  bodyDescend?: ReadonlySet<string>;
}

export function field(n: Node, name: string): Node | null {
  return n.childForFieldName(name);
}

export function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function firstNamedOfType(n: Node, types: readonly string[]): Node | null {
  for (const c of n.namedChildren) if (c && types.includes(c.type)) return c;
  return null;
}

export function hasAnonChild(n: Node, token: string): boolean {
  for (const c of n.children) if (c && !c.isNamed && c.type === token) return true;
  return false;
}

/** "A::B::C" / "A.B.C" / "A\\B\\C" → { name: "C", scope: ["A", "B"] }. */
export function splitQualified(text: string): { name: string; scope: string[] } {
  const parts = clean(text)
    .split(/::|\.|\\/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { name: clean(text), scope: [] };
  return { name: parts[parts.length - 1]!, scope: parts.slice(0, -1) };
}

/** Definition named by its `name` field. */
export function named(kind: InternalKind, container = false, fallback: string | null = null): Extractor {
  return (node) => {
    const nameNode = field(node, 'name');
    const name = nameNode ? clean(nameNode.text) : fallback;
    if (!name) return null;
    return { name, kind, container, nameNode };
  };
}

/** Like `named`, but a dotted / :: name is split into scope + name (namespaces, Ruby A::B). */
export function scopedNamed(kind: InternalKind, container = false): Extractor {
  return (node) => {
    const nameNode = field(node, 'name');
    if (!nameNode) return null;
    const { name, scope } = splitQualified(nameNode.text);
    return { name, kind, container, scope, nameNode };
  };
}

export function set(...xs: string[]): ReadonlySet<string> {
  return new Set(xs);
}

export const CLASSLIKE: InternalKind[] = ['class', 'interface', 'struct', 'enum', 'trait', 'impl'];
