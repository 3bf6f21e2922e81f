/** The JavaScript and TypeScript tables: ES modules, CommonJS exports, classes, TypeScript namespaces. */
import type { Node } from 'web-tree-sitter';
import { CLASSLIKE, clean, field, named, set, splitQualified, type DefInfo, type Extractor, type InternalKind, type LangSpec } from './lang-spec.js';

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

export function jsSpec(typescript: boolean): LangSpec {
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
