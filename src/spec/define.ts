/**
 * The shape of a verb's one declaration: each argument once, with what both
 * faces need from it (the MCP wire name, the CLI flag, the type, the help,
 * an example for validation messages, the default and the limits). zod.ts,
 * commander.ts and markdown.ts read these; nothing here knows a face.
 */
import { budgetDefaults } from '../budget/limits.js';

/** `links` maps a relation to target keys (CLI: repeatable relation=key); `fields` maps a name among `choices` to a string (CLI: name=value). */
export type ArgType = 'text' | 'int' | 'flag' | 'list' | 'choice' | 'choices' | 'links' | 'fields';

/** Which faces take an argument. One face alone needs `only`: why the other has none. */
export type Face = 'both' | 'mcp' | 'cli';

export interface ArgSpec<N extends string = string, V = unknown, F extends Face = Face> {
  /** The MCP wire name, snake_case; the CLI flag is its kebab-case unless `flag` says otherwise. */
  readonly name: N;
  readonly type: ArgType;
  readonly required: boolean;
  readonly face: F;
  /** Why the other face does without it (required when `face` is not both). */
  readonly only?: string;
  /** What the MCP description says, for an agent; `{limits}` marks where the limits go (else they follow). */
  readonly doc: string;
  /** The CLI help line when it should differ from `doc`; for a flag that defaults to true, what `--no-<flag>` does. */
  readonly cli?: string;
  /** A valid value, shown in the validation message of a bad one. */
  readonly example?: string | number;
  /** The validation message of a value of the wrong type, when the one made from `example` would not say enough. */
  readonly message?: string;
  /** What the engine uses when the argument is left out (stated in help; never sent on its behalf). */
  readonly default?: string | number | boolean;
  /** An inclusive range the MCP schema enforces. */
  readonly bounds?: readonly [number, number];
  /** A ceiling the engine enforces (stated in help). */
  readonly atMost?: number;
  /** The budget limits (default and ceiling from the gate's configuration). */
  readonly budget?: boolean;
  readonly choices?: readonly string[];
  /** The CLI long flag when it is not the wire name in kebab-case. */
  readonly flag?: string;
  readonly short?: string;
  /** The CLI value placeholder (default: n for numbers, else the flag name). */
  readonly metavar?: string;
  /** On the CLI a positional argument rather than a flag: its label, and whether it takes the rest of the words. */
  readonly positional?: { readonly label: string; readonly variadic?: boolean };
  /** Phantom: the value type the MCP schema outputs. */
  readonly value?: V;
}

export interface ArgOptions {
  doc: string;
  cli?: string;
  example?: string | number;
  message?: string;
  required?: boolean;
  face?: Face;
  only?: string;
  default?: string | number | boolean;
  bounds?: readonly [number, number];
  atMost?: number;
  flag?: string;
  short?: string;
  metavar?: string;
  positional?: { label: string; variadic?: boolean };
}

type Value<O, T> = O extends { required: true } ? T : T | undefined;
type FaceOf<O> = O extends { face: infer F extends Face } ? F : 'both';

function make<N extends string, V, F extends Face>(name: N, type: ArgType, o: ArgOptions, extra: Pick<ArgSpec, 'choices' | 'budget'> = {}): ArgSpec<N, V, F> {
  const { required = false, face = 'both', ...rest } = o;
  return { ...rest, ...extra, name, type, required, face: face as F };
}

/** The argument constructors, one per type; each keeps the literal name and value type for the MCP schema's typing. */
export const arg = {
  text: <N extends string, const O extends ArgOptions>(name: N, o: O) => make<N, Value<O, string>, FaceOf<O>>(name, 'text', o),
  int: <N extends string, const O extends ArgOptions>(name: N, o: O) => make<N, Value<O, number>, FaceOf<O>>(name, 'int', o),
  flag: <N extends string, const O extends ArgOptions>(name: N, o: O) => make<N, Value<O, boolean>, FaceOf<O>>(name, 'flag', o),
  list: <N extends string, const O extends ArgOptions>(name: N, o: O) => make<N, Value<O, string[]>, FaceOf<O>>(name, 'list', o),
  choice: <N extends string, const T extends readonly [string, ...string[]], const O extends ArgOptions>(name: N, choices: T, o: O) =>
    make<N, Value<O, T[number]>, FaceOf<O>>(name, 'choice', o, { choices }),
  choices: <N extends string, const T extends readonly [string, ...string[]], const O extends ArgOptions>(name: N, choices: T, o: O) =>
    make<N, Value<O, T[number][]>, FaceOf<O>>(name, 'choices', o, { choices }),
  links: <N extends string, const O extends ArgOptions>(name: N, o: O) => make<N, Value<O, Record<string, string[]>>, FaceOf<O>>(name, 'links', o),
  fields: <N extends string, const T extends readonly [string, ...string[]], const O extends ArgOptions>(name: N, names: T, o: O) =>
    make<N, Value<O, Record<string, string>>, FaceOf<O>>(name, 'fields', o, { choices: names }),
  /** Every budgeted verb's max_tokens: what it bounds and what happens past it; the limits are the gate's. */
  maxTokens: (what: string, cut: string, cliWhat = what) =>
    make<'max_tokens', number | undefined, 'both'>('max_tokens', 'int', { doc: `Token budget for ${what} ({limits}): ${cut}`, cli: `trim ${cliWhat} to this many tokens`, example: 2000 }, { budget: true }),
};

/** When an agent should reach for the tool, and a typical call's arguments (one row of the agent guide). */
export interface Guide {
  when: string;
  call: string;
}

export interface VerbSpec<A extends readonly ArgSpec[] = readonly ArgSpec[]> {
  /** The MCP tool's name. */
  tool: string;
  /** The CLI verb's name. */
  command: string;
  title: string;
  /** The MCP tool's description, for an agent. */
  description: string;
  /** The CLI verb's one line. */
  summary: string;
  guide: Guide;
  args: A;
  /** CLI invocations, without the `$ `. */
  examples: readonly string[];
}

export function verb<const A extends readonly ArgSpec[]>(spec: VerbSpec<A>): VerbSpec<A> {
  return spec;
}

/** The default and limits in words, e.g. "default 10, at most 50"; empty when there are none. */
export function limitsOf(a: ArgSpec): string {
  if (a.budget) return budgetDefaults();
  const parts: string[] = [];
  if (a.default !== undefined) parts.push(`default ${String(a.default)}`);
  if (a.bounds) parts.push(a.bounds[0] > 1 ? `from ${a.bounds[0]} to ${a.bounds[1]}` : `at most ${a.bounds[1]}`);
  if (a.atMost !== undefined) parts.push(`at most ${a.atMost}`);
  return parts.join(', ');
}

/** A help text with the argument's limits in it: where `{limits}` stands, else in parentheses at the end. */
export function withLimits(text: string, a: ArgSpec): string {
  const limits = limitsOf(a);
  if (text.includes('{limits}')) return text.replace('{limits}', limits);
  return limits ? `${text} (${limits})` : text;
}

/** The arguments one face takes. */
export const mcpArgs = (spec: VerbSpec): ArgSpec[] => spec.args.filter((a) => a.face !== 'cli');
export const cliArgs = (spec: VerbSpec): ArgSpec[] => spec.args.filter((a) => a.face !== 'mcp');

/** The CLI long flag of an argument, without its dashes. */
export const flagName = (a: ArgSpec): string => a.flag ?? a.name.replace(/_/g, '-');
