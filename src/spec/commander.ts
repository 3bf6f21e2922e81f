/**
 * The CLI face of a spec: the commander verb, its positional arguments, its
 * options with their help, and its examples. Values are parsed here (whole
 * numbers, comma lists, choices); what the verb does with them is cli/.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { usageError } from '../errors/index.js';
import { cliArgs, flagName, withLimits, type ArgSpec, type VerbSpec } from './define.js';
import type { Wire } from './zod.js';

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** A repeatable, comma-separated list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];
}

/** A repeatable, comma-separated list of choices, refused as commander refuses one bad choice. */
function collectChoices(choices: readonly string[]) {
  return (value: string, previous: string[] = []): string[] => {
    const next = collect(value, previous);
    const bad = next.find((v) => !choices.includes(v));
    if (bad !== undefined) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return next;
  };
}

/** Repeatable `name=value` (values may hold commas, unlike `collect`). */
function pairs(value: string, previous: [string, string][] = []): [string, string][] {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('expected name=value');
  return [...previous, [value.slice(0, eq), value.slice(eq + 1)]];
}

export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** A flag that defaults to true is offered as its negation. */
export const negated = (a: ArgSpec): boolean => a.type === 'flag' && a.default === true;

/** The commander flags string, e.g. "-k, --k <n>" or "--no-expand". */
export function flagsOf(a: ArgSpec): string {
  const long = `--${negated(a) ? 'no-' : ''}${flagName(a)}`;
  const value = a.type === 'flag' ? '' : ` <${a.metavar ?? (a.type === 'int' ? 'n' : flagName(a))}>`;
  return `${a.short ? `-${a.short}, ` : ''}${long}${value}`;
}

const REPEATABLE = ' (repeatable, or comma-separated)';

/** The CLI help line: the flag's own text, its limits, and that a list repeats. */
/** The flag's own text: its CLI help, else its doc (CLI help lines start lower-case). */
const ownText = (a: ArgSpec) => a.cli ?? a.doc.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

export function helpOf(a: ArgSpec): string {
  const text = ownText(a);
  if (negated(a)) return text; // --no-<flag> says the default itself
  const line = withLimits(text, a) + (a.required && !a.positional ? ' (required)' : '');
  if (a.type === 'choices') return `${line} (${a.choices!.join(', ')};${REPEATABLE.slice(2)}`;
  if (a.type === 'links' || a.type === 'fields') return `${line} (repeatable)`;
  return a.type === 'list' ? line + REPEATABLE : line;
}

function optionOf(a: ArgSpec): Option {
  const option = new Option(flagsOf(a), helpOf(a));
  if (a.type === 'int') option.argParser(parsePositiveInt);
  if (a.type === 'list') option.argParser(collect);
  if (a.type === 'choice') option.choices(a.choices ?? []);
  if (a.type === 'choices') option.argParser(collectChoices(a.choices ?? []));
  if (a.type === 'links' || a.type === 'fields') option.argParser(pairs);
  return option;
}

/** The positional usage, e.g. "<query...>" or "[path]". */
export function usageOf(a: ArgSpec): string {
  const label = `${a.positional!.label}${a.positional!.variadic ? '...' : ''}`;
  return a.required ? `<${label}>` : `[${label}]`;
}

/** Adds the options of these arguments (not their positionals) to a command. */
function addOptions(cmd: Command, args: readonly ArgSpec[]): Command {
  for (const a of args) if (!a.positional) cmd.addOption(optionOf(a));
  return cmd;
}

/** Adds the spec's verb to the program: positionals, options and examples (the common options and the action are the caller's). */
export function addVerb(program: Command, spec: VerbSpec): Command {
  const args = cliArgs(spec);
  const words = spec.command.split(' ');
  // A verb of a group ("workspace add") goes under the group's command, made here if the caller has not.
  const parent = words.slice(0, -1).reduce((at, word) => at.commands.find((c) => c.name() === word) ?? at.command(word), program);
  const usage = [words.at(-1)!, ...args.filter((a) => a.positional).map(usageOf)].join(' ');
  const cmd = addOptions(parent.command(usage).description(spec.summary), args);
  return spec.examples.length ? cmd.addHelpText('after', examples(...spec.examples)) : cmd;
}

/** commander's name for a flag's value: --lapse-seconds is lapseSeconds, --no-expand is expand. */
const attribute = (a: ArgSpec) => flagName(a).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function toWire(a: ArgSpec, value: unknown): unknown {
  if (a.type === 'fields') return Object.fromEntries(value as [string, string][]);
  if (a.type !== 'links') return value;
  const map: Record<string, string[]> = {};
  for (const [relation, target] of value as [string, string][]) (map[relation] ??= []).push(target);
  return map;
}

/**
 * A CLI call's arguments by wire name, as the MCP tool's body receives them, so both faces hand
 * the engine the same object. CLI-only flags stay with the verb; a required flag left out is a
 * usage error (commander checks only positionals).
 */
export function wireArgs<A extends readonly ArgSpec[]>(spec: VerbSpec<A>, positionals: readonly unknown[], options: object): Wire<A> {
  const wire: Record<string, unknown> = {};
  let next = 0;
  for (const a of cliArgs(spec)) {
    const given = a.positional ? positionals[next++] : (options as Record<string, unknown>)[attribute(a)];
    const value = a.positional?.variadic ? (given as string[]).join(' ') || undefined : given;
    if (a.face === 'cli') continue;
    if (value === undefined) {
      if (a.required) throw usageError(`${flagsOf(a)} is required: ${ownText(a)}`);
      continue;
    }
    wire[a.name] = toWire(a, value);
  }
  return wire as Wire<A>;
}
