/** `sightline context "<task>"`: one budgeted bundle of what a task needs (see engine/context.ts). */
import type { Command } from 'commander';
import type { ContextDetail } from '../engine/index.js';
import { addVerb, CONTEXT } from '../spec/cli.js';
import { renderContext } from './render-budget.js';
import { common, emit, readyToQuery, withEngine, type CommonOptions } from './verb.js';

interface ContextFlags extends CommonOptions {
  terms?: string[];
  scope?: string;
  top?: number;
  /** --budget: the tool's budget_tokens. */
  budget?: number;
  detail?: ContextDetail | 'auto';
  seen?: string[];
  known?: string[];
  session?: string;
  expand: boolean;
}

export function registerContext(program: Command): void {
  common(addVerb(program, CONTEXT)).action(async (words: string[], o: ContextFlags) => {
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
