/**
 * The CLI face of a spec: the commander verb, its positional arguments, its
 * options with their help, and its examples. Values are parsed here (whole
 * numbers, comma lists, choices); what the verb does with them is cli/.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { cliArgs, flagName, withLimits, type ArgSpec, type VerbSpec } from './define.js';

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
export function helpOf(a: ArgSpec): string {
  const text = a.cli ?? a.doc;
  if (negated(a)) return text; // --no-<flag> says the default itself
  const line = withLimits(text, a);
  if (a.type === 'choices') return `${line} (${a.choices!.join(', ')};${REPEATABLE.slice(2)}`;
  return a.type === 'list' ? line + REPEATABLE : line;
}

export function optionOf(a: ArgSpec): Option {
  const option = new Option(flagsOf(a), helpOf(a));
  if (a.type === 'int') option.argParser(parsePositiveInt);
  if (a.type === 'list') option.argParser(collect);
  if (a.type === 'choice') option.choices(a.choices ?? []);
  if (a.type === 'choices') option.argParser(collectChoices(a.choices ?? []));
  return option;
}

/** The positional usage, e.g. "<query...>" or "[path]". */
export function usageOf(a: ArgSpec): string {
  const label = `${a.positional!.label}${a.positional!.variadic ? '...' : ''}`;
  return a.required ? `<${label}>` : `[${label}]`;
}

/** Adds the spec's verb to the program: positionals, options and examples (the common options and the action are the caller's). */
export function addVerb(program: Command, spec: VerbSpec): Command {
  const args = cliArgs(spec);
  const usage = [spec.command, ...args.filter((a) => a.positional).map(usageOf)].join(' ');
  const cmd = program.command(usage).description(spec.summary);
  for (const a of args) if (!a.positional) cmd.addOption(optionOf(a));
  return spec.examples.length ? cmd.addHelpText('after', examples(...spec.examples)) : cmd;
}
