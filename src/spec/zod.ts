/**
 * The MCP face of a spec: the zod shape a tool registers. The validation
 * messages say what to send instead; the SDK reports them as
 * "Invalid arguments for tool <name>: <message> at <arg>".
 */
import { z } from 'zod';
import { mcpArgs, withLimits, type ArgSpec, type Face, type VerbSpec } from './define.js';

const says = (message: string) => ({ error: message });

/** A required string with something in it. */
export function text(name: string, example: string) {
  const message = `${name} must be a non-empty string, e.g. ${example}`;
  return z.string(says(message)).trim().min(1, says(message));
}

export function optionalText(name: string, example: string) {
  return z.string(says(`${name} must be a string, e.g. ${example}`)).optional();
}

export function positiveInt(name: string, example: number) {
  const message = `${name} must be a positive whole number (not a string), e.g. ${example}`;
  return z.number(says(message)).int(says(message)).min(1, says(message)).optional();
}

function wholeNumber(name: string, min: number, max: number, example: number) {
  const message = says(`${name} must be a whole number from ${min} to ${max}, e.g. ${example}`);
  return z.number(message).int(message).min(min, message).max(max, message).optional();
}

export function flag(name: string) {
  return z.boolean(says(`${name} must be true or false (not a string)`)).optional();
}

export function stringList(name: string, example: string) {
  const message = `${name} must be an array of strings, e.g. ${example}`;
  return z.array(z.string(says(message)), says(message)).optional();
}

function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, says(`${name} must be one of ${values.join(', ')}`));
}

function linkMap(name: string) {
  const message = `${name} must map a relation to target keys, e.g. {"about": ["file:src/a.ts", "symbol:src/a.ts#parse"]}`;
  return z.record(z.string(says(message)), z.array(z.string(says(message)), says(message)), says(message)).optional();
}

function fieldMap(name: string, names: readonly string[]) {
  return z.record(z.string(), z.string(says(`each ${name.replace(/s$/, '')} value must be a string`)), says(`${name} must map field names (${names.join(', ')}) to strings`)).optional();
}

function schemaOf(a: ArgSpec): z.ZodType {
  const example = a.example ?? '';
  const choices = (a.choices ?? []) as unknown as readonly [string, ...string[]];
  const need = <T extends z.ZodType>(s: z.ZodOptional<T>) => (a.required ? s.unwrap() : s);
  switch (a.type) {
    case 'text':
      if (a.message) return need(z.string(says(a.message)).optional());
      return a.required ? text(a.name, String(example)) : optionalText(a.name, String(example));
    case 'int':
      return need(a.bounds ? wholeNumber(a.name, a.bounds[0], a.bounds[1], Number(example)) : positiveInt(a.name, Number(example)));
    case 'flag':
      return need(flag(a.name));
    case 'list':
      return need(stringList(a.name, String(example)));
    case 'choice':
      return need(oneOf(a.name, choices).optional());
    case 'choices':
      return need(z.array(oneOf(a.name, choices)).optional());
    case 'links':
      return need(linkMap(a.name));
    case 'fields':
      return need(fieldMap(a.name, choices));
  }
}

/** An MCP description: the doc with its limits, as a sentence. */
export function describe(a: ArgSpec): string {
  const line = withLimits(a.doc, a);
  return /[.?!…]$/.test(line) ? line : `${line}.`;
}

type McpArg<A extends readonly ArgSpec[]> = Extract<A[number], ArgSpec<string, unknown, Exclude<Face, 'cli'>>>;
type ValueOf<X> = X extends ArgSpec<string, infer V> ? V : never;

/** The arguments a tool's body receives (and a CLI verb hands the same function), by wire name. */
export type Wire<A extends readonly ArgSpec[]> = { [X in McpArg<A> as X['name']]: ValueOf<X> };

/** The zod shape of a spec's MCP arguments, typed by what each outputs. */
export type InputShape<A extends readonly ArgSpec[]> = { [X in McpArg<A> as X['name']]: z.ZodType<ValueOf<X>> };

/** One argument's schema, described. */
function schemaFor<V>(a: ArgSpec<string, V>): z.ZodType<V> {
  return schemaOf(a).describe(describe(a)) as z.ZodType<V>;
}

export function inputShape<A extends readonly ArgSpec[]>(spec: VerbSpec<A>): InputShape<A> {
  return Object.fromEntries(mcpArgs(spec).map((a) => [a.name, schemaFor(a)])) as InputShape<A>;
}

/** What a tool definition takes from its spec: everything but how it runs. */
export function toolFace<A extends readonly ArgSpec[]>(spec: VerbSpec<A>) {
  return { name: spec.tool, title: spec.title, description: spec.description, guide: spec.guide, inputSchema: inputShape(spec) };
}
