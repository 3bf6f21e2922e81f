/**
 * The parity check: each verb's spec against what the two faces actually
 * built. Returns one sentence per disagreement, so a test can both require
 * none and show that a broken face is reported.
 */
import type { Command, Option } from 'commander';
import { z } from 'zod';
import { cliArgs, describeArg, flagName, mcpArgs, negated, type ArgSpec, type VerbSpec } from '../../src/spec/index.js';

export interface Faces {
  tools: readonly { name: string; inputSchema: z.ZodRawShape }[];
  program: Command;
}

/**
 * Options every repository verb takes whatever its spec says (verb.ts `common`); the MCP side
 * has no counterpart: the server is started on one repository, config and store, and speaks
 * JSON. In a workspace the server adds `repo` to every tool (repo-arg.ts); the workspace
 * verbs take the workspace's root (--workspace), which the server was started on.
 */
export const COMMON_FLAGS = ['--repo', '--config', '--store', '--embedder', '--model-dir', '--json', '--workspace'];

const same = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

function enumOf(schema: z.ZodType): unknown[] | undefined {
  const json = z.toJSONSchema(schema) as { enum?: unknown[]; items?: { enum?: unknown[] } };
  return json.enum ?? json.items?.enum;
}

function toolProblems(spec: VerbSpec, faces: Faces): string[] {
  const tool = faces.tools.find((t) => t.name === spec.tool);
  if (!tool) return [`${spec.tool}: no MCP tool of that name`];
  const problems: string[] = [];
  const declared = mcpArgs(spec).map((a) => a.name);
  const offered = Object.keys(tool.inputSchema);
  for (const name of offered) if (!declared.includes(name)) problems.push(`${spec.tool}: the tool takes ${name}, which its spec does not declare`);
  for (const a of mcpArgs(spec)) {
    const schema = tool.inputSchema[a.name] as z.ZodType | undefined;
    if (!schema) {
      problems.push(`${spec.tool}: the spec declares ${a.name}, which the tool does not take`);
      continue;
    }
    if (schema.description !== describeArg(a)) problems.push(`${spec.tool}.${a.name}: the tool's description is not the spec's`);
    if ((a.type === 'choice' || a.type === 'choices') && !same(enumOf(schema), a.choices)) problems.push(`${spec.tool}.${a.name}: the tool's choices ${JSON.stringify(enumOf(schema))} are not the spec's ${JSON.stringify(a.choices)}`);
  }
  return problems;
}

const longOf = (o: Option) => o.long ?? o.short ?? o.flags;

function optionProblems(spec: VerbSpec, a: ArgSpec, cmd: Command): string[] {
  const long = `--${negated(a) ? 'no-' : ''}${flagName(a)}`;
  const option = cmd.options.find((o) => o.long === long);
  const where = `sightline ${spec.command}`;
  if (!option) return [`${where} has no ${long} for ${a.face === 'cli' ? 'its' : `${spec.tool}'s`} ${a.name}${a.face === 'both' ? ' (give it a flag, or declare the argument MCP-only with the reason)' : ''}`];
  const problems: string[] = [];
  if (a.type === 'choice' && !same(option.argChoices, a.choices)) problems.push(`${where} ${long}: choices ${JSON.stringify(option.argChoices)} are not the spec's ${JSON.stringify(a.choices)}`);
  // The CLI sends nothing on a default's behalf (the engine applies it, as it does over MCP); a negated flag defaults to true.
  const expected = negated(a) ? true : undefined;
  const initial: unknown = cmd.getOptionValue(option.attributeName()); // before parsing: the default commander would send
  if (initial !== expected) problems.push(`${where} ${long}: commander defaults it to ${JSON.stringify(initial)}, the spec to ${JSON.stringify(expected)} (the engine's default, ${JSON.stringify(a.default)}, is not sent)`);
  return problems;
}

function commandProblems(spec: VerbSpec, faces: Faces): string[] {
  // A verb of a group ("workspace add") is found under its group's command.
  const cmd = spec.command.split(' ').reduce<Command | undefined>((at, word) => at?.commands.find((c) => c.name() === word), faces.program);
  if (!cmd) return [`sightline ${spec.command}: no CLI verb of that name`];
  const problems: string[] = [];
  const positionals = cliArgs(spec).filter((a) => a.positional);
  const registered = cmd.registeredArguments.map((r) => ({ label: r.name(), required: r.required, variadic: r.variadic }));
  const wanted = positionals.map((a) => ({ label: a.positional!.label, required: a.required, variadic: Boolean(a.positional!.variadic) }));
  if (!same(registered, wanted)) problems.push(`sightline ${spec.command}: positional arguments ${JSON.stringify(registered)} are not the spec's ${JSON.stringify(wanted)}`);
  for (const a of cliArgs(spec)) if (!a.positional) problems.push(...optionProblems(spec, a, cmd));
  const known = new Set([...COMMON_FLAGS, ...cliArgs(spec).filter((a) => !a.positional).map((a) => `--${negated(a) ? 'no-' : ''}${flagName(a)}`)]);
  for (const o of cmd.options) if (!known.has(longOf(o))) problems.push(`sightline ${spec.command} takes ${longOf(o)}, which its spec does not declare`);
  return problems;
}

/** Every disagreement between the specs and the faces, as sentences; empty when they agree. */
export function parityProblems(specs: readonly VerbSpec[], faces: Faces): string[] {
  const problems: string[] = [];
  for (const spec of specs) {
    for (const a of spec.args) if (a.face !== 'both' && !a.only?.trim()) problems.push(`${spec.tool}.${a.name}: ${a.face}-only without a reason the other face has none`);
    problems.push(...toolProblems(spec, faces), ...commandProblems(spec, faces));
  }
  return problems;
}
