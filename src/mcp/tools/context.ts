import { z } from 'zod';
import { MAX_BUDGET_TOKENS, MAX_TOP, MIN_BUDGET_TOKENS } from '../../engine/index.js';
import { flag, oneOf, optionalText, stringList, text } from './args.js';
import { defineTool } from './tool.js';

function wholeNumber(name: string, min: number, max: number, example: number) {
  const says = { error: `${name} must be a whole number from ${min} to ${max}, e.g. ${example}` };
  return z.number(says).int(says).min(min, says).max(max, says).optional();
}

export const contextTool = defineTool({
  name: 'context',
  title: 'Context for a task',
  description:
    'Everything a task needs to read, in one call, never more than budget_tokens (the whole response counted): ranked files with why they matched, ' +
    'each with the relevant slices (with neighbouring code), its outline, or only its path (detail; auto picks the richest that fits), ' +
    'tokens, full_read_tokens (cost of reading the whole file), content_hash and citation_status. Call it first when starting a task instead of a ' +
    'search/read loop. Each delivered unit has a receipt: pass receipts back in seen, or path@content_hash of files you hold whole in known, and ' +
    'they are not sent again (listed in reused); within this session that happens by itself. At slices detail, budget the slices leave goes to ' +
    'expansions: units labelled neighbor-of, sibling-of or imported-by:<path>:<line> (the definitions a slice uses from other files). If nothing fits, entries is empty and ' +
    'retry_budget_tokens says what budget would.',
  readsIndex: true,
  guide: { when: 'gather what a task needs to read, ranked and packed under one token budget, in one call', call: '{task: "add retry to the HTTP client", terms: ["HttpClient"]}' },
  inputSchema: {
    task: text('task', '"add retry with backoff to the HTTP client"').describe('What you are about to do, in a sentence (an issue text works).'),
    terms: stringList('terms', '["HttpClient", "retry_policy"]').describe('Exact identifiers the task is about: their definitions come first.'),
    scope: optionalText('scope', '"src/net"').describe('Only files under this directory or glob.'),
    top: wholeNumber('top', 1, MAX_TOP, 10).describe(`Most files in the bundle (default 10, at most ${MAX_TOP}).`),
    budget_tokens: wholeNumber('budget_tokens', MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS, 8192).describe(
      `Hard ceiling on the whole response in tokens (default 8192, from ${MIN_BUDGET_TOKENS} to ${MAX_BUDGET_TOKENS}).`,
    ),
    detail: oneOf('detail', ['paths', 'outline', 'slices', 'auto'] as const)
      .optional()
      .describe('paths (names only), outline (definitions and lines), slices (the matching code) or auto (richest that fits; default).'),
    seen: stringList('seen', '["3f9a0c1b2d"]').describe('Receipts of units you already hold: not sent again.'),
    known: stringList('known', '["src/net/client.ts@9c1e0a77b2d4f610"]').describe('path@content_hash of files you hold whole (honoured if delivered whole before).'),
    session: optionalText('session', '"task-42"').describe('Keep receipts under this name across connections (default: this connection), for a day.'),
    expand: flag('expand').describe('At slices detail, fill what the slices leave of the budget with labelled expansions (default true); false sends only the slices.'),
  },
  run: (a, { engine, session }) =>
    engine.context({
      task: a.task,
      terms: a.terms,
      scope: a.scope,
      top: a.top,
      budgetTokens: a.budget_tokens,
      detail: a.detail,
      seen: a.seen,
      known: a.known,
      session: a.session ?? session,
      expand: a.expand,
    }),
});
