/**
 * Per-language tables for tree-sitter grammars: which node types define symbols (and how to read
 * their names), which node types are walked through when looking for nested definitions, and which
 * node types (comments, decorators) stick to the definition that follows them when chunking.
 *
 * Node type names were taken from parsing samples with the grammars shipped in tree-sitter-wasms
 * 0.1.13 — they differ from the newest upstream grammars in places (e.g. C# has no file-scoped
 * namespaces here).
 */
import type { Node } from 'web-tree-sitter';
import { c, cpp } from './lang-c.js';
import { jsSpec } from './lang-js.js';
import { CLASSLIKE, clean, field, firstNamedOfType, hasAnonChild, named, scopedNamed, set, splitQualified, type DefInfo, type InternalKind, type LangSpec } from './lang-spec.js';

import type { SymbolKind } from './types.js';

export type { DefInfo, Extractor, InternalKind, LangSpec } from './lang-spec.js';

// ---------------------------------------------------------------- Python

function pyAssignment(node: Node, parent: InternalKind | null): DefInfo | null {
  if (parent !== null) return null; // module level only
  const left = field(node, 'left');
  if (!left || left.type !== 'identifier') return null;
  const name = left.text;
  return { name, kind: /^_*[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable', nameNode: left };
}

const python: LangSpec = {
  defs: {
    // Functions are containers so that nested defs (decorator wrappers, helpers) are found.
    function_definition: named('function', true),
    class_definition: named('class', true),
    assignment: pyAssignment,
  },
  descend: set(
    'decorated_definition', 'block', 'expression_statement', 'if_statement', 'elif_clause', 'else_clause',
    'try_statement', 'except_clause', 'finally_clause',
  ),
  wrap: set('decorated_definition', 'expression_statement'),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
  bodyDescend: set('block', 'decorated_definition'),
};

// ---------------------------------------------------------------- Go

function goReceiverType(node: Node): string | null {
  const recv = field(node, 'receiver');
  if (!recv) return null;
  const param = firstNamedOfType(recv, ['parameter_declaration', 'variadic_parameter_declaration']);
  const type = param ? field(param, 'type') : null;
  if (!type) return null;
  const t = clean(type.text).replace(/^[\s(*]+/, '').replace(/[\s)]+$/, '').replace(/\[.*$/, '');
  return t || null;
}

const go: LangSpec = {
  defs: {
    function_declaration: named('function'),
    method_declaration: (node) => {
      const nameNode = field(node, 'name');
      if (!nameNode) return null;
      const recv = goReceiverType(node);
      return { name: nameNode.text, kind: 'method', scope: recv ? [recv] : [], nameNode };
    },
    type_spec: (node) => {
      const nameNode = field(node, 'name');
      if (!nameNode) return null;
      const t = field(node, 'type')?.type;
      const kind: SymbolKind = t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
      return { name: nameNode.text, kind, nameNode };
    },
    type_alias: named('type'),
    const_spec: named('constant'),
    var_spec: named('variable'),
  },
  descend: set('type_declaration', 'const_declaration', 'var_declaration'),
  wrap: set('type_declaration', 'const_declaration', 'var_declaration'),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
};

// ---------------------------------------------------------------- Rust

function rustTypeName(n: Node): string {
  // `fmt::Display`, `Wrapper<T>`, `&'a mut Foo` → last path segment without generics.
  const t = clean(n.text)
    .replace(/<.*$/, '')
    .replace(/^&\s*('\w+\s*)?(mut\s+)?/, '')
    .replace(/^(dyn|impl)\s+/, '');
  const parts = t.split('::');
  return parts[parts.length - 1]!.trim() || t;
}

const rust: LangSpec = {
  defs: {
    function_item: named('function'),
    function_signature_item: named('function'),
    struct_item: named('struct'),
    union_item: named('struct'),
    enum_item: named('enum'),
    trait_item: named('trait', true),
    mod_item: named('module', true),
    const_item: named('constant'),
    static_item: named('constant'),
    type_item: named('type'),
    impl_item: (node) => {
      const type = field(node, 'type');
      if (!type) return null;
      const name = rustTypeName(type);
      const trait = field(node, 'trait');
      const label = trait ? `impl ${rustTypeName(trait)} for ${name}` : `impl ${name}`;
      return { name, kind: 'impl', container: true, nameNode: type, label };
    },
  },
  descend: set('declaration_list'),
  wrap: set(),
  attach: set('attribute_item', 'inner_attribute_item'),
  methodParents: new Set(CLASSLIKE),
};

// ---------------------------------------------------------------- Java

const java: LangSpec = {
  defs: {
    class_declaration: named('class', true),
    record_declaration: named('class', true),
    interface_declaration: named('interface', true),
    annotation_type_declaration: named('interface'),
    enum_declaration: named('enum', true),
    method_declaration: named('function'),
    constructor_declaration: named('function'),
    compact_constructor_declaration: named('function'),
  },
  descend: set('class_body', 'interface_body', 'enum_body', 'enum_body_declarations'),
  wrap: set(),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
};

// ---------------------------------------------------------------- C#

const csharp: LangSpec = {
  defs: {
    class_declaration: named('class', true),
    record_declaration: named('class', true),
    record_struct_declaration: named('struct', true),
    interface_declaration: named('interface', true),
    struct_declaration: named('struct', true),
    enum_declaration: named('enum'),
    delegate_declaration: named('type'),
    method_declaration: named('function'),
    constructor_declaration: named('function'),
    destructor_declaration: named('function'),
    namespace_declaration: scopedNamed('module', true),
    file_scoped_namespace_declaration: scopedNamed('module', true),
  },
  descend: set('declaration_list'),
  wrap: set(),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
};

// ---------------------------------------------------------------- Ruby

const ruby: LangSpec = {
  defs: {
    method: named('function'),
    singleton_method: (node) => {
      const nameNode = field(node, 'name');
      return nameNode ? { name: nameNode.text, kind: 'method', nameNode } : null;
    },
    class: scopedNamed('class', true),
    module: scopedNamed('module', true),
    assignment: (node) => {
      const left = field(node, 'left');
      if (!left || left.type !== 'constant') return null;
      return { name: left.text, kind: 'constant', nameNode: left };
    },
  },
  descend: set('body_statement', 'singleton_class'),
  wrap: set(),
  attach: set(),
  methodParents: new Set<InternalKind>([...CLASSLIKE, 'module']),
};

// ---------------------------------------------------------------- PHP

const php: LangSpec = {
  defs: {
    function_definition: named('function'),
    method_declaration: named('function'),
    class_declaration: named('class', true),
    interface_declaration: named('interface', true),
    trait_declaration: named('trait', true),
    enum_declaration: named('enum', true),
    namespace_definition: (node) => {
      // `namespace App;` (no body) does not enclose anything syntactically, so it is not a container.
      const nameNode = field(node, 'name');
      if (!nameNode || !field(node, 'body')) return null;
      const { name, scope } = splitQualified(nameNode.text);
      return { name, kind: 'module', container: true, scope, nameNode };
    },
    const_declaration: (node, parent) => {
      if (parent !== null && parent !== 'module') return null;
      const el = firstNamedOfType(node, ['const_element']);
      const nameNode = el ? firstNamedOfType(el, ['name']) : null;
      return nameNode ? { name: nameNode.text, kind: 'constant', nameNode } : null;
    },
  },
  descend: set('declaration_list', 'compound_statement', 'enum_declaration_list'),
  wrap: set(),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
};

// ---------------------------------------------------------------- Kotlin (grammar has no field names)

const kotlin: LangSpec = {
  defs: {
    function_declaration: (node) => {
      const nameNode = firstNamedOfType(node, ['simple_identifier']);
      return nameNode ? { name: nameNode.text, kind: 'function', nameNode } : null;
    },
    class_declaration: (node) => {
      const nameNode = firstNamedOfType(node, ['type_identifier']);
      if (!nameNode) return null;
      let kind: InternalKind = 'class';
      if (hasAnonChild(node, 'interface')) kind = 'interface';
      else if (hasAnonChild(node, 'enum') || firstNamedOfType(node, ['enum_class_body'])) kind = 'enum';
      return { name: nameNode.text, kind, container: true, nameNode };
    },
    object_declaration: (node) => {
      const nameNode = firstNamedOfType(node, ['type_identifier']);
      return nameNode ? { name: nameNode.text, kind: 'class', container: true, nameNode } : null;
    },
    property_declaration: (node, parent) => {
      if (parent !== null) return null;
      const v = firstNamedOfType(node, ['variable_declaration']);
      const nameNode = v ? firstNamedOfType(v, ['simple_identifier']) : null;
      if (!nameNode) return null;
      const mods = firstNamedOfType(node, ['modifiers']);
      const isConst = mods !== null && /\bconst\b/.test(mods.text);
      return { name: nameNode.text, kind: isConst ? 'constant' : 'variable', nameNode };
    },
    type_alias: (node) => {
      const nameNode = firstNamedOfType(node, ['type_identifier']);
      return nameNode ? { name: nameNode.text, kind: 'type', nameNode } : null;
    },
  },
  descend: set('class_body', 'enum_class_body', 'companion_object'),
  wrap: set(),
  attach: set('annotation'),
  methodParents: new Set(CLASSLIKE),
};

export const SPECS: Readonly<Record<string, LangSpec>> = {
  typescript: jsSpec(true),
  tsx: jsSpec(true),
  javascript: jsSpec(false),
  python,
  go,
  rust,
  java,
  c,
  cpp,
  csharp,
  ruby,
  php,
  kotlin,
};

/** Comments of every grammar ("comment", "line_comment", "block_comment", "doc_comment") plus the spec's extras. */
export function isAttached(spec: LangSpec, type: string): boolean {
  return spec.attach.has(type) || type.includes('comment');
}
