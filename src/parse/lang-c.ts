/** The C and C++ tables: declarator chains down to the name, tagged types only with a body, typedefs. */
import type { Node } from 'web-tree-sitter';
import { CLASSLIKE, clean, field, named, set, splitQualified, type DefInfo, type Extractor, type InternalKind, type LangSpec } from './lang-spec.js';

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

export const c: LangSpec = {
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

export const cpp: LangSpec = {
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
