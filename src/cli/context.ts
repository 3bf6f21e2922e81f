/** `sightline context "<task>"`: one budgeted bundle of what a task needs (see engine/context.ts). */
import { Option, type Command } from 'commander';
import { MAX_BUDGET_TOKENS, MAX_TOP, MIN_BUDGET_TOKENS, type ContextDetail } from '../engine/index.js';
import { renderContext } from './render-budget.js';
import { collect, common, emit, examples, positiveInt, readyToQuery, withEngine, type CommonOptions } from './verb.js';

interface ContextFlags extends CommonOptions {
  terms?: string[];
  scope?: string;
  top?: number;
  budget?: number;
  detail?: ContextDetail | 'auto';
  seen?: string[];
  known?: string[];
  session?: string;
  expand: boolean;
}

export function registerContext(program: Command): void {
  common(
    program
      .command('context <task...>')
      .description('what a task needs to read, ranked and packed under a token budget, in one answer (indexes on first use)')
      .option('--terms <ids>', 'exact identifiers the task is about (repeatable, or comma-separated)', collect)
      .option('--scope <dir-or-glob>', 'only files under this directory or glob')
      .option('--top <n>', `most files in the bundle (default 10, at most ${MAX_TOP})`, positiveInt)
      .option('--budget <tokens>', `ceiling on the whole answer (default 8192, ${MIN_BUDGET_TOKENS}..${MAX_BUDGET_TOKENS})`, positiveInt)
      .addOption(new Option('--detail <level>', 'paths, outline, slices, or auto: the richest that fits').choices(['paths', 'outline', 'slices', 'auto']))
      .option('--seen <receipts>', 'receipts of units already held: not sent again (repeatable, or comma-separated)', collect)
      .option('--known <path@hash>', 'files held whole at that content_hash (repeatable, or comma-separated)', collect)
      .option('--session <id>', 'remember what was delivered under this name (for a day): nothing is sent twice')
      .option('--no-expand', 'at slices detail, send only the slices (no neighbours, siblings or imported definitions in the budget they leave)')
      .addHelpText(
        'after',
        examples(
          'sightline context "add retry with backoff to the HTTP client"',
          'sightline context "fix token refresh" --terms SessionManager,refreshToken --budget 4000',
          'sightline context "where is config loaded" --detail outline --json',
          'sightline context "explain the index pipeline" --session task-42 --json',
        ),
      ),
  ).action(async (words: string[], o: ContextFlags) => {
    await withEngine(o, async (engine) => {
      await readyToQuery(engine);
      const bundle = await engine.context({
        task: words.join(' '),
        terms: o.terms,
        scope: o.scope,
        top: o.top,
        budgetTokens: o.budget,
        detail: o.detail,
        seen: o.seen,
        known: o.known,
        session: o.session,
        expand: o.expand,
      });
      emit(o, bundle, renderContext);
    });
  });
}
