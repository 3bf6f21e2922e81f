/**
 * Import decoders: turn one import-like node (captured as @import by ref-queries.ts) into the
 * bindings it creates. Every binding says which module it comes from, which member it takes
 * ('*' for the module as a whole) and the local name it binds:
 *
 *   import { a as b } from './x'   → { module: './x', name: 'a', alias: 'b' }
 *   import * as ns from './x'      → { module: './x', name: '*', alias: 'ns' }
 *   from x import *                → { module: 'x',   name: '*', alias: null }  (names spill into scope)
 *   import './side-effect'         → { module: './side-effect', name: '*', alias: '' }  (binds nothing)
 *
 * Module paths keep the language's own spelling ('./x.js', '..pkg.mod', 'crate::a::b', 'stdio.h'),
 * except that PHP's and C#'s separators become '.', like Java's and Kotlin's.
 */
import type { Node } from 'web-tree-sitter';

export interface ImportBinding {
  module: string;
  name: string;
  alias: string | null;
  /** The node whose line the binding is reported at. */
  at: Node;
}

type Decoder = (node: Node) => ImportBinding[];

function field(n: Node, name: string): Node | null {
  return n.childForFieldName(name);
}

function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => c !== null);
}

function ofType(n: Node, ...types: string[]): Node | null {
  for (const c of named(n)) if (types.includes(c.type)) return c;
  return null;
}

/** The text inside a string literal, without quotes. */
function unquote(n: Node): string {
  return n.text.replace(/^[@$]?["'`<]|["'`>]$/g, '');
}

function lastSegment(path: string, sep: string): { prefix: string; last: string } {
  const i = path.lastIndexOf(sep);
  return i < 0 ? { prefix: '', last: path } : { prefix: path.slice(0, i), last: path.slice(i + sep.length) };
}

/** Member import `a.b.C` → module a.b, name C, bound as C (or `alias`). */
function member(path: string, sep: string, alias: string | null, at: Node): ImportBinding {
  const { prefix, last } = lastSegment(path, sep);
  return { module: prefix, name: last, alias: alias ?? last, at };
}

// ---------------------------------------------------------------- JavaScript / TypeScript

function jsStringArg(call: Node): string | null {
  const args = field(call, 'arguments');
  const s = args ? ofType(args, 'string', 'template_string') : null;
  return s ? unquote(s) : null;
}

function jsImport(node: Node): ImportBinding[] {
  if (node.type === 'call_expression') return jsRequire(node);
  const source = field(node, 'source');
  if (!source) return [];
  const module = unquote(source);
  if (node.type === 'export_statement') {
    const clause = ofType(node, 'export_clause');
    if (clause) {
      return named(clause).map((s) => {
        const name = field(s, 'name')?.text ?? s.text;
        return { module, name, alias: field(s, 'alias')?.text ?? name, at: s };
      });
    }
    const ns = ofType(node, 'namespace_export');
    const nsName = ns ? ofType(ns, 'identifier', 'string') : null;
    return [{ module, name: '*', alias: nsName ? nsName.text : null, at: node }];
  }
  const clause = ofType(node, 'import_clause');
  if (!clause) return [{ module, name: '*', alias: '', at: node }];
  const out: ImportBinding[] = [];
  for (const part of named(clause)) {
    if (part.type === 'identifier') out.push({ module, name: 'default', alias: part.text, at: part });
    else if (part.type === 'namespace_import') out.push({ module, name: '*', alias: ofType(part, 'identifier')?.text ?? '', at: part });
    else if (part.type === 'named_imports') {
      for (const spec of named(part)) {
        if (spec.type !== 'import_specifier') continue;
        const name = field(spec, 'name')?.text ?? spec.text;
        out.push({ module, name, alias: field(spec, 'alias')?.text ?? name, at: spec });
      }
    }
  }
  return out;
}

/** `require('m')` and `import('m')`: bindings come from the declaration they initialise, if any. */
function jsRequire(call: Node): ImportBinding[] {
  const module = jsStringArg(call);
  if (module === null) return [];
  const decl = call.parent;
  const target = decl?.type === 'variable_declarator' && field(decl, 'value')?.id === call.id ? field(decl, 'name') : null;
  if (target?.type === 'identifier') return [{ module, name: '*', alias: target.text, at: call }];
  if (target?.type === 'object_pattern') {
    const out: ImportBinding[] = [];
    for (const p of named(target)) {
      if (p.type === 'shorthand_property_identifier_pattern') out.push({ module, name: p.text, alias: p.text, at: p });
      else if (p.type === 'pair_pattern') {
        const key = field(p, 'key')?.text;
        const value = field(p, 'value');
        if (key && value?.type === 'identifier') out.push({ module, name: key, alias: value.text, at: p });
      }
    }
    return out;
  }
  return [{ module, name: '*', alias: '', at: call }];
}

// ---------------------------------------------------------------- Python

function pyImport(node: Node): ImportBinding[] {
  const out: ImportBinding[] = [];
  if (node.type === 'import_statement') {
    for (const n of node.childrenForFieldName('name')) {
      if (!n) continue;
      if (n.type === 'aliased_import') {
        const path = field(n, 'name')?.text ?? '';
        out.push({ module: path, name: '*', alias: field(n, 'alias')?.text ?? path, at: n });
      } else {
        // `import a.b` binds `a.b` as a dotted prefix; calls spell it out (`a.b.f()`).
        out.push({ module: n.text, name: '*', alias: n.text, at: n });
      }
    }
    return out;
  }
  const module = (field(node, 'module_name')?.text ?? '').replace(/\s+/g, '');
  if (ofType(node, 'wildcard_import')) return [{ module, name: '*', alias: null, at: node }];
  for (const n of node.childrenForFieldName('name')) {
    if (!n) continue;
    if (n.type === 'aliased_import') {
      const name = field(n, 'name')?.text ?? '';
      out.push({ module, name, alias: field(n, 'alias')?.text ?? name, at: n });
    } else {
      out.push({ module, name: n.text, alias: n.text, at: n });
    }
  }
  return out;
}

// ---------------------------------------------------------------- Go

function goImport(node: Node): ImportBinding[] {
  const path = field(node, 'path');
  if (!path) return [];
  const module = unquote(path);
  const name = field(node, 'name');
  if (name?.type === 'dot') return [{ module, name: '*', alias: null, at: node }];
  if (name?.type === 'blank_identifier') return [{ module, name: '*', alias: '', at: node }];
  if (name) return [{ module, name: '*', alias: name.text, at: node }];
  // Default binding: the last path element, skipping a major-version suffix (`/v2`).
  const parts = module.split('/');
  let last = parts.pop() ?? module;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop()!;
  return [{ module, name: '*', alias: last.replace(/^go-/, '').replace(/[.-]/g, '_'), at: node }];
}

// ---------------------------------------------------------------- Rust

function rustUse(node: Node, prefix: string, out: ImportBinding[], alias: string | null = null): void {
  const join = (a: string, b: string) => (a && b ? `${a}::${b}` : a || b);
  switch (node.type) {
    case 'scoped_identifier': {
      const path = field(node, 'path');
      const name = field(node, 'name')?.text ?? '';
      out.push({ module: join(prefix, path ? path.text.replace(/\s+/g, '') : ''), name, alias: alias ?? name, at: node });
      return;
    }
    case 'identifier':
    case 'crate':
    case 'super':
      out.push({ module: prefix, name: node.text, alias: alias ?? node.text, at: node });
      return;
    case 'self': {
      const { prefix: parent, last } = lastSegment(prefix, '::');
      out.push({ module: parent, name: last, alias: alias ?? last, at: node });
      return;
    }
    case 'use_as_clause': {
      const path = field(node, 'path');
      if (path) rustUse(path, prefix, out, field(node, 'alias')?.text ?? null);
      return;
    }
    case 'use_wildcard': {
      const path = named(node)[0];
      out.push({ module: join(prefix, path ? path.text.replace(/\s+/g, '') : ''), name: '*', alias: null, at: node });
      return;
    }
    case 'scoped_use_list': {
      const path = field(node, 'path');
      const list = field(node, 'list');
      const next = join(prefix, path ? path.text.replace(/\s+/g, '') : '');
      if (list) for (const item of named(list)) rustUse(item, next, out);
      return;
    }
    case 'use_list':
      for (const item of named(node)) rustUse(item, prefix, out);
      return;
  }
}

function rustImport(node: Node): ImportBinding[] {
  if (node.type === 'mod_item') {
    const name = field(node, 'name')?.text;
    return name ? [{ module: 'self', name, alias: name, at: node }] : [];
  }
  if (node.type === 'extern_crate_declaration') {
    const name = field(node, 'name')?.text;
    return name ? [{ module: '', name, alias: field(node, 'alias')?.text ?? name, at: node }] : [];
  }
  const arg = field(node, 'argument');
  const out: ImportBinding[] = [];
  if (arg) rustUse(arg, '', out);
  return out;
}

// ---------------------------------------------------------------- Java, Kotlin, C#

function javaImport(node: Node): ImportBinding[] {
  const path = ofType(node, 'scoped_identifier', 'identifier');
  if (!path) return [];
  const text = path.text.replace(/\s+/g, '');
  if (ofType(node, 'asterisk')) return [{ module: text, name: '*', alias: null, at: node }];
  return [member(text, '.', null, node)];
}

function kotlinImport(node: Node): ImportBinding[] {
  const path = ofType(node, 'identifier');
  if (!path) return [];
  const text = path.text.replace(/\s+/g, '');
  if (ofType(node, 'wildcard_import')) return [{ module: text, name: '*', alias: null, at: node }];
  const alias = ofType(node, 'import_alias');
  return [member(text, '.', alias ? (ofType(alias, 'type_identifier', 'simple_identifier')?.text ?? null) : null, node)];
}

function csharpUsing(node: Node): ImportBinding[] {
  const path = ofType(node, 'qualified_name', 'identifier', 'alias_qualified_name', 'generic_name');
  if (!path) return [];
  const text = path.text.replace(/\s+/g, '').replace(/::/g, '.');
  const equals = ofType(node, 'name_equals');
  if (equals) return [member(text, '.', ofType(equals, 'identifier')?.text ?? null, node)];
  return [{ module: text, name: '*', alias: null, at: node }];
}

// ---------------------------------------------------------------- C / C++, Ruby, PHP

function cInclude(node: Node): ImportBinding[] {
  const path = field(node, 'path');
  if (!path) return [];
  const module = path.type === 'system_lib_string' ? path.text : unquote(path);
  return [{ module, name: '*', alias: null, at: node }];
}

function rubyRequire(node: Node): ImportBinding[] {
  const method = field(node, 'method')?.text;
  const args = field(node, 'arguments');
  const s = args ? ofType(args, 'string') : null;
  if (!s) return [];
  let module = unquote(s);
  if (method === 'require_relative' && !/^[./]/.test(module)) module = `./${module}`;
  return [{ module, name: '*', alias: null, at: node }];
}

function phpName(text: string): string {
  return text.replace(/\s+/g, '').replace(/^\\/, '').replace(/\\/g, '.');
}

function phpImport(node: Node): ImportBinding[] {
  if (node.type !== 'namespace_use_declaration') {
    // include / require: the first string in the expression (`__DIR__ . '/x.php'` → './x.php').
    const s = node.descendantsOfType(['string', 'encapsed_string'])[0];
    if (!s) return [];
    let module = unquote(s);
    if (module.startsWith('/')) module = `.${module}`;
    return [{ module, name: '*', alias: null, at: node }];
  }
  const out: ImportBinding[] = [];
  const aliasOf = (clause: Node) => {
    const a = ofType(clause, 'namespace_aliasing_clause');
    return a ? (ofType(a, 'name')?.text ?? null) : null;
  };
  const group = ofType(node, 'namespace_use_group');
  if (group) {
    const prefix = phpName(ofType(node, 'namespace_name')?.text ?? '');
    for (const clause of named(group)) {
      const path = ofType(clause, 'namespace_name', 'name', 'qualified_name');
      if (path) out.push(member(prefix ? `${prefix}.${phpName(path.text)}` : phpName(path.text), '.', aliasOf(clause), clause));
    }
    return out;
  }
  for (const clause of named(node)) {
    if (clause.type !== 'namespace_use_clause') continue;
    const path = ofType(clause, 'qualified_name', 'name', 'namespace_name');
    if (path) out.push(member(phpName(path.text), '.', aliasOf(clause), clause));
  }
  return out;
}

export const IMPORT_DECODERS: Readonly<Record<string, Decoder>> = {
  typescript: jsImport,
  tsx: jsImport,
  javascript: jsImport,
  python: pyImport,
  go: goImport,
  rust: rustImport,
  java: javaImport,
  kotlin: kotlinImport,
  csharp: csharpUsing,
  c: cInclude,
  cpp: cInclude,
  ruby: rubyRequire,
  php: phpImport,
};

/** A namespace / package name in one spelling: dot-separated. */
export function namespaceName(text: string): string {
  return phpName(text);
}
