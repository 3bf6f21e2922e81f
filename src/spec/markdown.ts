/**
 * The reference face of the specs: the "Arguments, verb by verb" section of
 * docs/tools.md, written between two markers by `npm run docs:tools` and
 * checked against the committed page by test/spec/parity.test.ts.
 */
import { flagsOf, helpOf, usageOf } from './commander.js';
import type { ArgSpec, VerbSpec } from './define.js';
import { describe } from './zod.js';

const BEGIN = '<!-- reference: generated from src/spec by `npm run docs:tools`; do not edit by hand -->';
const END = '<!-- end of reference -->';

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replace(/\|/g, '\\|');

function typeOf(a: ArgSpec): string {
  const choices = (a.choices ?? []).map(code).join(', ');
  switch (a.type) {
    case 'text':
      return 'string';
    case 'int':
      return a.bounds ? `integer, ${a.bounds[0]} to ${a.bounds[1]}` : 'integer ≥ 1';
    case 'flag':
      return 'boolean';
    case 'list':
      return 'list of strings';
    case 'choice':
      return `one of ${choices}`;
    case 'choices':
      return `list of ${choices}`;
    case 'links':
      return 'map of relation to keys';
    case 'fields':
      return `map of ${choices} to strings`;
  }
}

function row(a: ArgSpec): string {
  const wire = a.face === 'cli' ? '—' : code(a.name) + (a.required ? ' (required)' : '');
  const cli = a.face === 'mcp' ? '—' : code(a.positional ? usageOf(a) : flagsOf(a));
  const what = a.face === 'cli' ? `CLI only: ${helpOf(a)} (${a.only})` : a.face === 'mcp' ? `MCP only: ${describe(a)} (${a.only})` : describe(a);
  return `| ${wire} | ${cell(cli)} | ${typeOf(a)} | ${cell(what).replace(/</g, '&lt;')} |`;
}

function section(spec: VerbSpec): string {
  const lines = [`### ${code(spec.tool)} · ${code(`sightline ${spec.command}`)}`, '', `${spec.title}: ${spec.summary}.`, ''];
  if (spec.args.length) lines.push('| MCP argument | CLI | type | what it does |', '|---|---|---|---|', ...spec.args.map(row), '');
  else lines.push('No arguments beyond the common ones.', '');
  lines.push('```sh', ...spec.examples.map((e) => `$ ${e}`), '```');
  return lines.join('\n');
}

/** The generated section, markers included. */
export function reference(specs: readonly VerbSpec[]): string {
  const intro =
    'Each verb is declared once (`src/spec/`): the MCP tool, the CLI verb, this table and `--help` are made from that one declaration. ' +
    'Every verb also takes the common options (`--repo`, `--config`, `--store`, `--embedder`, `--model-dir`, `--json`); in workspace mode every tool also takes `repo`.';
  return [BEGIN, '', '## Arguments, verb by verb', '', intro, '', specs.map(section).join('\n\n'), '', END].join('\n');
}

/** The page with its generated section replaced; refused when the markers are missing. */
export function splice(page: string, generated: string): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/tools.md has no generated section: add the lines ${BEGIN} and ${END} where it goes`);
  return page.slice(0, begin) + generated + page.slice(end + END.length);
}
