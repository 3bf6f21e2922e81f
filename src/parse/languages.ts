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

// ---------------------------------------------------------------- helpers

function field(n: Node, name: string): Node | null {
  return n.childForFieldName(name);
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function firstNamedOfType(n: Node, types: readonly string[]): Node | null {
  for (const c of n.namedChildren) if (c && types.includes(c.type)) return c;
  return null;
}

function hasAnonChild(n: Node, token: string): boolean {
  for (const c of n.children) if (c && !c.isNamed && c.type === token) return true;
  return false;
}

/** "A::B::C" / "A.B.C" / "A\\B\\C" → { name: "C", scope: ["A", "B"] }. */
function splitQualified(text: string): { name: string; scope: string[] } {
  const parts = clean(text)
    .split(/::|\.|\\/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { name: clean(text), scope: [] };
  return { name: parts[parts.length - 1]!, scope: parts.slice(0, -1) };
}

/** Definition named by its `name` field. */
function named(kind: InternalKind, container = false, fallback: string | null = null): Extractor {
  return (node) => {
    const nameNode = field(node, 'name');
    const name = nameNode ? clean(nameNode.text) : fallback;
    if (!name) return null;
    return { name, kind, container, nameNode };
  };
}

/** Like `named`, but a dotted / :: name is split into scope + name (namespaces, Ruby A::B). */
function scopedNamed(kind: InternalKind, container = false): Extractor {
  return (node) => {
    const nameNode = field(node, 'name');
    if (!nameNode) return null;
    const { name, scope } = splitQualified(nameNode.text);
    return { name, kind, container, scope, nameNode };
  };
}

function set(...xs: string[]): ReadonlySet<string> {
  return new Set(xs);
}

const CLASSLIKE: InternalKind[] = ['class', 'interface', 'struct', 'enum', 'trait', 'impl'];

// ---------------------------------------------------------------- JavaScript / TypeScript

const JS_FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

function jsVariable(node: Node, parent: InternalKind | null): DefInfo | null {
  if (parent !== null && parent !== 'module') return null;
  const nameNode = field(node, 'name');
  if (!nameNode || nameNode.type !== 'identifier') return null; // skip destructuring
  const value = field(node, 'value');
  if (value && JS_FUNCTION_VALUES.has(value.type)) return { name: nameNode.text, kind: 'function', container: true, nameNode };
  if (value && value.type === 'call_expression') {
    const callee = field(value, 'function');
    if (callee && (callee.text === 'require' || callee.type === 'import')) return null;
  }
  const decl = node.parent;
  const isConst = decl !== null && decl.type === 'lexical_declaration' && decl.firstChild?.type === 'const';
  return { name: nameNode.text, kind: isConst ? 'constant' : 'variable', nameNode };
}

/** Class fields holding a function (`handle = () => {}`) count as methods. */
function jsField(node: Node): DefInfo | null {
  const value = field(node, 'value');
  if (!value || !JS_FUNCTION_VALUES.has(value.type)) return null;
  const nameNode = field(node, 'name') ?? field(node, 'property');
  if (!nameNode) return null;
  return { name: clean(nameNode.text), kind: 'method', container: true, nameNode };
}

/** `module.exports` (or, when `bare`, also the `exports` shorthand): CommonJS's export object. */
function isExportsObject(node: Node | null, bare: boolean): boolean {
  if (!node) return false;
  if (node.type === 'identifier') return bare && node.text === 'exports';
  return node.type === 'member_expression' && field(node, 'object')?.text === 'module' && field(node, 'property')?.text === 'exports';
}

/** What a value defines: a function or class holds definitions of its own; anything else is a variable. */
function jsValueKind(value: Node | null): { kind: InternalKind; container: boolean } {
  if (value && (JS_FUNCTION_VALUES.has(value.type) || value.type === 'class')) return { kind: value.type === 'class' ? 'class' : 'function', container: true };
  return { kind: 'variable', container: false };
}

/**
 * CommonJS exports at the top level: `exports.x = …` and `module.exports.x = …` define `x`;
 * `module.exports = function f() {}` (or `class C {}`) defines `f` (`C`); `module.exports = { … }`
 * is the export object itself, a module `exports` whose members are its properties.
 */
function cjsExport(node: Node, parent: InternalKind | null): DefInfo | null {
  if (parent !== null) return null;
  const left = field(node, 'left');
  const right = field(node, 'right');
  if (!left || !right) return null;
  if (left.type === 'member_expression' && isExportsObject(field(left, 'object'), true)) {
    const nameNode = field(left, 'property');
    return nameNode ? { name: nameNode.text, ...jsValueKind(right), nameNode } : null;
  }
  if (!isExportsObject(left, false)) return null;
  if (right.type === 'object') return { name: 'exports', kind: 'module', container: true, nameNode: left, label: 'module.exports' };
  const nameNode = field(right, 'name');
  return nameNode && jsValueKind(right).container ? { name: nameNode.text, ...jsValueKind(right), nameNode } : null;
}

/** The object literal assigned to `module.exports` at the top level. */
function isExportObjectLiteral(node: Node | null): boolean {
  const assignment = node?.parent;
  return node?.type === 'object' && assignment?.type === 'assignment_expression' && field(assignment, 'right')?.id === node.id && isExportsObject(field(assignment, 'left'), false);
}

/** A property of the export object: `a: function () {}`, `b: () => {}`, `c: 1` (a shorthand `d` names a definition made elsewhere). */
function cjsProperty(node: Node): DefInfo | null {
  if (!isExportObjectLiteral(node.parent)) return null;
  const nameNode = field(node, 'key');
  return nameNode ? { name: clean(nameNode.text), ...jsValueKind(field(node, 'value')), nameNode } : null;
}

/** A method of a class, or a function of the export object; a method of any other object literal is not a definition. */
function jsMethod(node: Node, parent: InternalKind | null): DefInfo | null {
  if (node.parent?.type !== 'object') return named('method', true)(node, parent);
  return isExportObjectLiteral(node.parent) ? named('function', true)(node, parent) : null;
}

/**
 * A class expression is reached under an assignment or a property only as the value of an export
 * (nothing else there is walked): the export is its definition, and its body is walked under it.
 */
function jsClass(node: Node, parent: InternalKind | null): DefInfo | null {
  const holder = node.parent;
  const valueOf = holder?.type === 'assignment_expression' ? field(holder, 'right') : holder?.type === 'pair' ? field(holder, 'value') : null;
  return valueOf?.id === node.id ? null : named('class', true, 'default')(node, parent);
}

function tsModule(node: Node): DefInfo | null {
  const nameNode = field(node, 'name');
  if (!nameNode) return null;
  const raw = nameNode.type === 'string' ? nameNode.text.replace(/^['"`]|['"`]$/g, '') : nameNode.text;
  if (nameNode.type === 'string') return { name: raw, kind: 'module', container: true, nameNode };
  const { name, scope } = splitQualified(raw);
  return { name, kind: 'module', container: true, scope, nameNode };
}

function jsSpec(typescript: boolean): LangSpec {
  // Functions are containers so that function declarations nested in their bodies are found.
  const fn = named('function', true, 'default');
  const defs: Record<string, Extractor> = {
    function_declaration: fn,
    generator_function_declaration: fn,
    class_declaration: named('class', true, 'default'),
    class: jsClass,
    method_definition: jsMethod,
    field_definition: jsField,
    variable_declarator: jsVariable,
    assignment_expression: cjsExport,
    pair: cjsProperty,
  };
  if (typescript) {
    Object.assign(defs, {
      function_signature: fn,
      abstract_class_declaration: named('class', true, 'default'),
      method_signature: named('method'),
      abstract_method_signature: named('method'),
      public_field_definition: jsField,
      interface_declaration: named('interface', true),
      type_alias_declaration: named('type'),
      enum_declaration: named('enum'),
      internal_module: tsModule,
      module: tsModule,
    });
  }
  return {
    defs,
    descend: set(
      'export_statement', 'lexical_declaration', 'variable_declaration', 'ambient_declaration', 'expression_statement',
      'class_body', 'interface_body', 'object_type', 'statement_block', 'arrow_function', 'function_expression',
      'function', 'generator_function', 'object', 'class',
    ),
    wrap: set('export_statement', 'lexical_declaration', 'variable_declaration', 'ambient_declaration', 'expression_statement'),
    attach: set('decorator'),
    methodParents: new Set(CLASSLIKE),
    bodyDescend: set('statement_block', 'arrow_function', 'function_expression', 'function', 'generator_function'),
  };
}

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

// ---------------------------------------------------------------- C / C++

const DECLARATOR_LEAVES = new Set([
  'identifier', 'field_identifier', 'qualified_identifier', 'destructor_name', 'operator_name', 'type_identifier',
  'template_function', 'operator_cast',
]);

/** Follow a C/C++ declarator chain (pointer → function → parenthesized ...) down to the name. */
function declaratorName(decl: Node | null): { name: string; scope: string[]; node: Node } | null {
  let n: Node | null = decl;
  for (let guard = 0; n && guard < 32; guard++) {
    if (DECLARATOR_LEAVES.has(n.type)) {
      if (n.type === 'qualified_identifier') {
        const { name, scope } = splitQualified(n.text.replace(/<[^<>]*>/g, ''));
        return { name, scope, node: n };
      }
      if (n.type === 'template_function') {
        const inner = field(n, 'name');
        return { name: clean((inner ?? n).text), scope: [], node: n };
      }
      return { name: clean(n.text), scope: [], node: n };
    }
    n = field(n, 'declarator') ?? n.firstNamedChild;
  }
  return null;
}

function cFunction(node: Node): DefInfo | null {
  const d = declaratorName(field(node, 'declarator'));
  if (!d) return null;
  return { name: d.name, kind: d.scope.length > 0 ? 'method' : 'function', scope: d.scope, nameNode: d.node };
}

/** struct/union/enum/class specifiers are definitions only when they have a body. */
function cTagged(kind: InternalKind, container: boolean): Extractor {
  return (node) => {
    if (!field(node, 'body')) return null;
    const nameNode = field(node, 'name');
    if (!nameNode) return null;
    const { name, scope } = splitQualified(nameNode.text);
    return { name, kind, container, scope, nameNode };
  };
}

function cTypedef(node: Node): DefInfo | null {
  const d = declaratorName(field(node, 'declarator'));
  if (!d) return null;
  const type = field(node, 'type');
  let kind: InternalKind = 'type';
  if (type && field(type, 'body') && !field(type, 'name')) {
    if (type.type === 'enum_specifier') kind = 'enum';
    else if (type.type === 'struct_specifier' || type.type === 'union_specifier') kind = 'struct';
  }
  return { name: d.name, kind, nameNode: d.node };
}

const C_DESCEND = [
  'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef', 'linkage_specification',
  'declaration_list',
];

const c: LangSpec = {
  defs: {
    function_definition: cFunction,
    struct_specifier: cTagged('struct', true),
    union_specifier: cTagged('struct', true),
    enum_specifier: cTagged('enum', false),
    type_definition: cTypedef,
  },
  descend: set(...C_DESCEND),
  wrap: set(),
  attach: set(),
  methodParents: new Set(CLASSLIKE),
};

const cpp: LangSpec = {
  defs: {
    ...c.defs,
    class_specifier: cTagged('class', true),
    namespace_definition: (node) => {
      const nameNode = field(node, 'name');
      if (!nameNode) return null; // anonymous namespace: walked through (see descend)
      const { name, scope } = splitQualified(nameNode.text);
      return { name, kind: 'module', container: true, scope, nameNode };
    },
    alias_declaration: named('type'),
  },
  descend: set(...C_DESCEND, 'template_declaration', 'field_declaration_list', 'namespace_definition'),
  wrap: set('template_declaration'),
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
