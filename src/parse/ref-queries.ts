/**
 * Tree-sitter queries that find references, one source per grammar. Capture names:
 *
 *   @call / @type / @inherit   the referenced name; `@<kind>.q` in the same pattern is what
 *                              precedes it (receiver, package, path: `ns` in `ns.f()`)
 *   @import                    an import-like node, decoded by ref-imports.ts
 *   @namespace                 the name of a package / namespace declaration
 *   @def                       a definition's own name (never reported as a type reference)
 *   @typeparam                 a type parameter name (its uses are not reported either)
 *   @var / @var.type           a variable (parameter, typed local, field, `x = Foo()`) and its declared
 *                              type: a call on that variable is looked up on that type
 *
 * Node type names were taken from parsing samples with tree-sitter-wasms 0.1.13 (see languages.ts).
 * A name captured by several patterns is reported once: inheritance beats call beats type, and a
 * match with a qualifier beats one without (see refs.ts).
 */

const JS_COMMON = `
(call_expression function: (identifier) @call)
(call_expression function: (member_expression object: (_) @call.q property: (property_identifier) @call))
(new_expression constructor: (identifier) @call)
(new_expression constructor: (member_expression object: (_) @call.q property: (property_identifier) @call))
(decorator (identifier) @call)
(import_statement) @import
(export_statement source: (_)) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) .)) @import
  (#eq? @_require "require"))
(call_expression function: (import) arguments: (arguments . (string))) @import
(variable_declarator name: (identifier) @var value: (new_expression constructor: (identifier) @var.type))
`;

const JAVASCRIPT = `${JS_COMMON}
(class_heritage (identifier) @inherit)
(class_heritage (member_expression object: (_) @inherit.q property: (property_identifier) @inherit))
`;

const TYPESCRIPT = `${JS_COMMON}
(class_heritage (extends_clause value: (identifier) @inherit))
(class_heritage (extends_clause value: (member_expression object: (_) @inherit.q property: (property_identifier) @inherit)))
(implements_clause (type_identifier) @inherit)
(implements_clause (generic_type name: (type_identifier) @inherit))
(extends_type_clause type: (type_identifier) @inherit)
(extends_type_clause type: (generic_type name: (type_identifier) @inherit))
(type_identifier) @type
(nested_type_identifier module: (_) @type.q name: (type_identifier) @type)
(class_declaration name: (type_identifier) @def)
(abstract_class_declaration name: (type_identifier) @def)
(interface_declaration name: (type_identifier) @def)
(type_alias_declaration name: (type_identifier) @def)
(type_parameter name: (type_identifier) @typeparam)
(required_parameter pattern: (identifier) @var type: (type_annotation (_) @var.type))
(optional_parameter pattern: (identifier) @var type: (type_annotation (_) @var.type))
(variable_declarator name: (identifier) @var type: (type_annotation (_) @var.type))
(public_field_definition name: (property_identifier) @var type: (type_annotation (_) @var.type))
`;

const PYTHON = `
(call function: (identifier) @call)
(call function: (attribute object: (_) @call.q attribute: (identifier) @call))
(decorator (identifier) @call)
(decorator (attribute object: (_) @call.q attribute: (identifier) @call))
(import_statement) @import
(import_from_statement) @import
(class_definition superclasses: (argument_list (identifier) @inherit))
(class_definition superclasses: (argument_list (attribute object: (_) @inherit.q attribute: (identifier) @inherit)))
(type (identifier) @type)
(type (attribute object: (_) @type.q attribute: (identifier) @type))
(generic_type (identifier) @type)
(typed_parameter (identifier) @var type: (type) @var.type)
(typed_default_parameter name: (identifier) @var type: (type) @var.type)
(assignment left: (identifier) @var type: (type) @var.type)
((assignment left: (identifier) @var right: (call function: (identifier) @var.type))
  (#match? @var.type "^[A-Z]"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @var) right: (call function: (identifier) @var.type))
  (#match? @var.type "^[A-Z]"))
`;

const GO = `
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression operand: (_) @call.q field: (field_identifier) @call))
(import_spec) @import
(package_clause (package_identifier) @namespace)
(field_declaration_list (field_declaration !name type: (type_identifier) @inherit))
(field_declaration_list (field_declaration !name type: (pointer_type (type_identifier) @inherit)))
(field_declaration_list (field_declaration !name type: (qualified_type package: (_) @inherit.q name: (type_identifier) @inherit)))
(interface_type (constraint_elem (type_identifier) @inherit))
(type_identifier) @type
(qualified_type package: (_) @type.q name: (type_identifier) @type)
(type_spec name: (type_identifier) @def)
(type_parameter_list (parameter_declaration name: (identifier) @typeparam))
(parameter_list (parameter_declaration name: (identifier) @var type: (_) @var.type))
(var_spec name: (identifier) @var type: (_) @var.type)
(short_var_declaration left: (expression_list . (identifier) @var) right: (expression_list . (composite_literal type: (_) @var.type)))
(short_var_declaration left: (expression_list . (identifier) @var) right: (expression_list . (unary_expression operand: (composite_literal type: (_) @var.type))))
`;

const RUST = `
(call_expression function: (identifier) @call)
(call_expression function: (scoped_identifier path: (_) @call.q name: (identifier) @call))
(call_expression function: (field_expression value: (_) @call.q field: (field_identifier) @call))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (scoped_identifier path: (_) @call.q name: (identifier) @call)))
(call_expression function: (generic_function function: (field_expression value: (_) @call.q field: (field_identifier) @call)))
(use_declaration) @import
(mod_item !body) @import
(extern_crate_declaration) @import
(impl_item trait: (type_identifier) @inherit)
(impl_item trait: (scoped_type_identifier path: (_) @inherit.q name: (type_identifier) @inherit))
(impl_item trait: (generic_type type: (type_identifier) @inherit))
(trait_item bounds: (trait_bounds (type_identifier) @inherit))
(type_identifier) @type
(scoped_type_identifier path: (_) @type.q name: (type_identifier) @type)
(struct_item name: (type_identifier) @def)
(union_item name: (type_identifier) @def)
(enum_item name: (type_identifier) @def)
(trait_item name: (type_identifier) @def)
(type_item name: (type_identifier) @def)
(type_parameters (type_identifier) @typeparam)
(constrained_type_parameter left: (type_identifier) @typeparam)
(token_tree (identifier) @call . (token_tree))
(token_tree (identifier) @call.q . "." . (identifier) @call . (token_tree))
(token_tree (self) @call.q . "." . (identifier) @call . (token_tree))
(parameter pattern: (identifier) @var type: (_) @var.type)
(let_declaration pattern: (identifier) @var type: (_) @var.type)
((let_declaration pattern: (identifier) @var value: (call_expression function: (scoped_identifier path: (identifier) @var.type)))
  (#match? @var.type "^[A-Z]"))
`;

const JAVA = `
(method_invocation name: (identifier) @call)
(method_invocation object: (_) @call.q name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(import_declaration) @import
(package_declaration (_) @namespace)
(superclass (type_identifier) @inherit)
(superclass (generic_type (type_identifier) @inherit))
(super_interfaces (type_list (type_identifier) @inherit))
(super_interfaces (type_list (generic_type (type_identifier) @inherit)))
(extends_interfaces (type_list (type_identifier) @inherit))
(extends_interfaces (type_list (generic_type (type_identifier) @inherit)))
(type_identifier) @type
(type_parameter (type_identifier) @typeparam)
(formal_parameter type: (_) @var.type name: (identifier) @var)
(local_variable_declaration type: (_) @var.type declarator: (variable_declarator name: (identifier) @var))
(field_declaration type: (_) @var.type declarator: (variable_declarator name: (identifier) @var))
`;

const C_COMMON = `
(call_expression function: (identifier) @call)
(call_expression function: (field_expression argument: (_) @call.q field: (field_identifier) @call))
(preproc_include) @import
(type_identifier) @type
(struct_specifier name: (type_identifier) @def body: (_))
(union_specifier name: (type_identifier) @def body: (_))
(enum_specifier name: (type_identifier) @def body: (_))
(type_definition declarator: (type_identifier) @def)
(parameter_declaration type: (type_identifier) @var.type declarator: (identifier) @var)
(parameter_declaration type: (type_identifier) @var.type declarator: (pointer_declarator declarator: (identifier) @var))
(declaration type: (type_identifier) @var.type declarator: (identifier) @var)
(declaration type: (type_identifier) @var.type declarator: (init_declarator declarator: (identifier) @var))
(declaration type: (type_identifier) @var.type declarator: (pointer_declarator declarator: (identifier) @var))
`;

const CPP = `${C_COMMON}
(call_expression function: (qualified_identifier scope: (_) @call.q name: (identifier) @call))
(call_expression function: (template_function name: (identifier) @call))
(call_expression function: (qualified_identifier scope: (_) @call.q name: (template_function name: (identifier) @call)))
(new_expression type: (type_identifier) @call)
(base_class_clause (type_identifier) @inherit)
(base_class_clause (template_type name: (type_identifier) @inherit))
(base_class_clause (qualified_identifier scope: (_) @inherit.q name: (type_identifier) @inherit))
(base_class_clause (qualified_identifier scope: (_) @inherit.q name: (template_type name: (type_identifier) @inherit)))
(qualified_identifier scope: (_) @type.q name: (type_identifier) @type)
(class_specifier name: (type_identifier) @def body: (_))
(type_parameter_declaration (type_identifier) @typeparam)
`;

const CSHARP = `
(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name (identifier) @call))
(invocation_expression function: (member_access_expression expression: (_) @call.q name: (identifier) @call))
(invocation_expression function: (member_access_expression expression: (_) @call.q name: (generic_name (identifier) @call)))
(object_creation_expression type: (identifier) @call)
(object_creation_expression type: (generic_name (identifier) @call))
(using_directive) @import
(namespace_declaration name: (_) @namespace)
(base_list (identifier) @inherit)
(base_list (generic_name (identifier) @inherit))
(base_list (qualified_name (identifier) @inherit .))
(variable_declaration type: (identifier) @type)
(variable_declaration type: (generic_name (identifier) @type))
(parameter type: (identifier) @type)
(parameter type: (generic_name (identifier) @type))
(method_declaration type: (identifier) @type)
(method_declaration type: (generic_name (identifier) @type))
(property_declaration type: (identifier) @type)
(property_declaration type: (generic_name (identifier) @type))
(type_argument_list (identifier) @type)
(type_parameter (identifier) @typeparam)
(parameter type: (_) @var.type name: (identifier) @var)
(variable_declaration type: (_) @var.type (variable_declarator (identifier) @var))
`;

const RUBY = `
(call receiver: (_) @call.q method: (identifier) @call)
(call !receiver method: (identifier) @call)
((call !receiver method: (identifier) @_load arguments: (argument_list . (string) .)) @import
  (#any-of? @_load "require" "require_relative" "load"))
(superclass (constant) @inherit)
(superclass (scope_resolution scope: (_) @inherit.q name: (constant) @inherit))
((call !receiver method: (identifier) @_mixin arguments: (argument_list (constant) @inherit))
  (#any-of? @_mixin "include" "extend" "prepend"))
((assignment left: (identifier) @var right: (call receiver: (constant) @var.type method: (identifier) @_new))
  (#eq? @_new "new"))
`;

const PHP = `
(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (namespace_name_as_prefix) @call.q (name) @call))
(member_call_expression object: (_) @call.q name: (name) @call)
(nullsafe_member_call_expression object: (_) @call.q name: (name) @call)
(scoped_call_expression scope: (_) @call.q name: (name) @call)
(object_creation_expression (name) @call)
(object_creation_expression (qualified_name (name) @call))
(namespace_use_declaration) @import
(include_expression) @import
(include_once_expression) @import
(require_expression) @import
(require_once_expression) @import
(namespace_definition name: (_) @namespace)
(base_clause (name) @inherit)
(base_clause (qualified_name (name) @inherit))
(class_interface_clause (name) @inherit)
(class_interface_clause (qualified_name (name) @inherit))
(use_declaration (name) @inherit)
(named_type (name) @type)
(named_type (qualified_name (name) @type))
(simple_parameter type: (named_type) @var.type name: (variable_name) @var)
(property_promotion_parameter type: (named_type) @var.type name: (variable_name) @var)
`;

const KOTLIN = `
(call_expression . (simple_identifier) @call)
(call_expression . (navigation_expression . (_) @call.q (navigation_suffix (simple_identifier) @call) .))
(import_header) @import
(package_header (identifier) @namespace)
(delegation_specifier (user_type (type_identifier) @inherit))
(delegation_specifier (constructor_invocation (user_type (type_identifier) @inherit)))
(user_type (type_identifier) @type)
(class_declaration (type_identifier) @def)
(type_alias (type_identifier) @def)
(type_parameter (type_identifier) @typeparam)
(parameter (simple_identifier) @var (user_type) @var.type)
(class_parameter (simple_identifier) @var (user_type) @var.type)
(property_declaration (variable_declaration (simple_identifier) @var (user_type) @var.type))
`;

export const REF_QUERIES: Readonly<Record<string, string>> = {
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  javascript: JAVASCRIPT,
  python: PYTHON,
  go: GO,
  rust: RUST,
  java: JAVA,
  c: C_COMMON,
  cpp: CPP,
  csharp: CSHARP,
  ruby: RUBY,
  php: PHP,
  kotlin: KOTLIN,
};
