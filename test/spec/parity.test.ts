/**
 * One spec per verb: the MCP tools, the CLI verbs and docs/tools.md are what
 * src/spec declares, and the check that says so reports a face that drifts.
 */
import fs from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { TOOLS, WORKSPACE_TOOLS } from '../../src/mcp/tools/index.js';
import { addVerb, arg, CONTEXT, inputShape, reference, SEARCH, splice, verb, VERBS, type VerbSpec } from '../../src/spec/index.js';
import { parityProblems, type Faces } from './parity.js';

const faces = (): Faces => ({ tools: [...TOOLS, ...WORKSPACE_TOOLS], program: buildProgram() });

describe('each verb is declared once', () => {
  it('every spec matches its MCP tool and its CLI verb', () => {
    expect(parityProblems(VERBS, faces())).toEqual([]);
  });

  it('covers the retrieval, graph, index, memory and workspace verbs, each argument with a CLI flag unless it says why not', () => {
    expect(VERBS.map((v) => v.tool)).toEqual([
      ...['search', 'context', 'locate', 'explore', 'related', 'changed', 'read', 'outline', 'list_files', 'stats', 'index', 'index_status'],
      ...['recall', 'list_topics', 'neighbors', 'scan', 'claim_status', 'remember', 'update', 'forget', 'claim', 'renew_claim', 'release_claim'],
      ...['list_repos', 'add_repo', 'remove_repo', 'reset_index'],
    ]);
    for (const v of VERBS) for (const a of v.args) if (a.face !== 'both') expect(a.only, `${v.tool}.${a.name}`).toBeTruthy();
  });

  it('context says budget_tokens on MCP and --budget on the CLI, from one declaration with one range', () => {
    const budget = CONTEXT.args.find((a) => a.name === 'budget_tokens')!;
    expect(budget.flag).toBe('budget');
    const option = faces().program.commands.find((c) => c.name() === 'context')!.options.find((o) => o.long === '--budget')!;
    expect(option.description).toContain(`from ${budget.bounds![0]} to ${budget.bounds![1]}`);
    expect(inputShape(CONTEXT).budget_tokens.description).toContain(`from ${budget.bounds![0]} to ${budget.bounds![1]}`);
  });

  it('docs/tools.md holds the generated reference (run `npm run docs:tools` after changing a spec)', () => {
    const page = fs.readFileSync(new URL('../../docs/tools.md', import.meta.url), 'utf8');
    expect(splice(page, reference(VERBS))).toBe(page);
  });
});

describe('the parity check reports drift', () => {
  it('a CLI verb that lost a flag', () => {
    const program = new Command('sightline');
    addVerb(program, verb({ ...SEARCH, args: SEARCH.args.filter((a) => a.name !== 'scope') })).option('--repo <path>');
    expect(parityProblems([SEARCH], { tools: TOOLS, program })).toEqual(["sightline search has no --scope for search's scope (give it a flag, or declare the argument MCP-only with the reason)"]);
  });

  it('a spec argument neither face was built with, and a flag no spec declares', () => {
    const wider = verb({ ...SEARCH, args: [...SEARCH.args, arg.int('limit', { doc: 'Most results', example: 5 })] });
    const problems = parityProblems([wider], faces());
    expect(problems).toContain('search: the spec declares limit, which the tool does not take');
    expect(problems).toContain("sightline search has no --limit for search's limit (give it a flag, or declare the argument MCP-only with the reason)");
    const program = new Command('sightline');
    addVerb(program, SEARCH).option('--fuzzy', 'not in any spec');
    expect(parityProblems([SEARCH], { tools: TOOLS, program })).toEqual(['sightline search takes --fuzzy, which its spec does not declare']);
  });

  it('choices, defaults and positionals that differ, and a one-face argument without a reason', () => {
    const program = new Command('sightline');
    program.command('search <words>').option('--mode <mode>', 'x', 'hybrid');
    const drifted: VerbSpec = verb({ ...SEARCH, args: [SEARCH.args[0], arg.choice('mode', ['hybrid', 'keyword'], { doc: 'Retrieval', default: 'hybrid' }), arg.text('trace', { face: 'mcp', doc: 'x' })] });
    const problems = parityProblems([drifted], { tools: TOOLS, program });
    expect(problems).toContain('search.trace: mcp-only without a reason the other face has none');
    expect(problems).toContain('search.mode: the tool\'s choices ["hybrid","keyword","semantic"] are not the spec\'s ["hybrid","keyword"]');
    expect(problems.some((p) => p.startsWith('sightline search: positional arguments'))).toBe(true);
    expect(problems.some((p) => p.startsWith('sightline search --mode: choices'))).toBe(true);
    expect(problems.some((p) => p.startsWith('sightline search --mode: commander defaults it to "hybrid"'))).toBe(true);
  });

  it('a tool built from something other than its spec', () => {
    const tools = TOOLS.map((t) => (t.name === 'search' ? { ...t, inputSchema: { ...t.inputSchema, k: inputShape(CONTEXT).top } } : t));
    expect(parityProblems([SEARCH], { tools, program: buildProgram() })).toEqual(["search.k: the tool's description is not the spec's"]);
  });

  it('a page without the generated section is refused, not silently left alone', () => {
    expect(() => splice('# Tools\n', reference(VERBS))).toThrow(/has no generated section/);
  });
});
