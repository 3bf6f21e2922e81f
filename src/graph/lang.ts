/** Per-language facts the resolver needs beyond import rules. */

/** Languages whose names can refer to each other's definitions (a TS file calling a JS function). */
const FAMILY: Record<string, string> = {
  typescript: 'js',
  tsx: 'js',
  javascript: 'js',
  c: 'c',
  cpp: 'c',
  java: 'jvm',
  kotlin: 'jvm',
};

export function familyOf(language: string | null): string {
  return language ? (FAMILY[language] ?? language) : '';
}

/** Receivers meaning "this object" or "this class". */
export const SELF_WORDS = new Set(['this', 'self', 'Self', 'cls', 'static']);
/** Receivers meaning "the base class". */
export const SUPER_WORDS = new Set(['super', 'base', 'parent']);

/** Languages where a bare call inside a class body may call one of the class's methods. */
export const IMPLICIT_THIS = new Set(['java', 'kotlin', 'csharp', 'cpp', 'ruby']);

/** Languages whose imports never re-export: a name a file imports is its own, not one it offers its importers. */
export const SEALED_IMPORTS = new Set(['java', 'kotlin', 'csharp', 'go', 'php']);

/** Languages where every file of a directory (Go) or of a namespace (the others) sees the others' names. */
export const DIRECTORY_PACKAGES = new Set(['go']);
export const NAMESPACE_PACKAGES = new Set(['java', 'kotlin', 'csharp', 'php']);

/**
 * Receivers that are the runtime's own objects, never the repository's: `console.log()` must not
 * be matched by name to some `Logger.log`. Imported modules need no list: an unresolved import
 * stops the name search by itself.
 */
const GLOBAL_RECEIVERS: Record<string, ReadonlySet<string>> = {
  js: new Set([
    'console', 'Math', 'JSON', 'Object', 'Array', 'Promise', 'process', 'Number', 'String', 'Reflect', 'Date', 'window',
    'document', 'globalThis', 'Buffer', 'Symbol', 'Error', 'Map', 'Set', 'WeakMap', 'Intl', 'URL', 'module', 'exports',
    'require', 'navigator', 'localStorage', 'Atomics', 'BigInt', 'RegExp',
  ]),
  jvm: new Set([
    'System', 'String', 'Math', 'Arrays', 'Collections', 'Objects', 'Integer', 'Long', 'Double', 'Float', 'Boolean',
    'Character', 'Thread', 'List', 'Map', 'Set', 'Optional', 'Stream', 'Collectors', 'Class', 'Byte', 'Short',
  ]),
  csharp: new Set(['Console', 'Math', 'String', 'Task', 'Enumerable', 'Convert', 'Guid', 'DateTime', 'Path', 'File', 'Directory', 'Environment']),
  python: new Set(['str', 'dict', 'list', 'set', 'tuple', 'int', 'float', 'bytes', 'object', 'type']),
};

export function isGlobalReceiver(family: string, head: string): boolean {
  return GLOBAL_RECEIVERS[family]?.has(head) ?? false;
}

/** Symbol kinds a reference of each kind may point at. */
export const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'type']);
export const CALLABLE_KINDS = new Set(['function', 'method', 'class', 'struct', 'type']);
export const CONTAINER_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'module']);
