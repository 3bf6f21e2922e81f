/** The context verb: one budgeted bundle of what a task needs. */
import { defaultConfig } from '../config/defaults.js';
import { MAX_BUDGET_TOKENS, MAX_TOP, MIN_BUDGET_TOKENS } from '../engine/limits.js';
import { arg, verb } from './define.js';

const CONTEXT_DETAILS = ['paths', 'outline', 'slices', 'auto'] as const;

export const CONTEXT = verb({
  tool: 'context',
  command: 'context',
  title: 'Context for a task',
  description:
    'Everything a task needs to read, in one call, never more than budget_tokens (the whole response counted): ranked files with why they matched, ' +
    'each with the relevant slices (with neighbouring code), its outline, or only its path (detail; auto picks the richest that fits; ' +
    'a top file whose code does not fit is still listed, by path alone), ' +
    'tokens, full_read_tokens (cost of reading the whole file), content_hash and citation_status. Call it first when starting a task instead of a ' +
    'search/read loop. Each delivered unit has a receipt: pass receipts back in seen, or path@content_hash of files you hold whole in known, and ' +
    'they are not sent again (listed in reused); within this session that happens by itself. At slices detail, budget the slices leave goes to ' +
    'expansions: units labelled neighbor-of, sibling-of or imported-by:<path>:<line> (the definitions a slice uses from other files). If nothing fits, entries is empty and ' +
    'retry_budget_tokens says what budget would.',
  summary: 'what a task needs to read, ranked and packed under a token budget, in one answer (indexes on first use)',
  guide: { when: 'gather what a task needs to read, ranked and packed under one token budget, in one call', call: '{task: "add retry to the HTTP client", terms: ["HttpClient"]}' },
  args: [
    arg.text('task', {
      required: true,
      positional: { label: 'task', variadic: true },
      doc: 'What you are about to do, in a sentence (an issue text works)',
      example: '"add retry with backoff to the HTTP client"',
    }),
    arg.list('terms', {
      doc: 'Exact identifiers the task is about: their definitions come first',
      cli: 'exact identifiers the task is about',
      example: '["HttpClient", "retry_policy"]',
      metavar: 'ids',
    }),
    arg.text('scope', { doc: 'Only files under this directory or glob', cli: 'only files under this directory or glob', example: '"src/net"', metavar: 'dir-or-glob' }),
    arg.int('top', { doc: 'Most files in the bundle', cli: 'most files in the bundle', example: 10, default: defaultConfig().contextTop, bounds: [1, MAX_TOP] }),
    arg.int('budget_tokens', {
      doc: 'Hard ceiling on the whole response in tokens',
      cli: 'ceiling on the whole answer',
      example: 8192,
      default: defaultConfig().contextBudgetTokens,
      bounds: [MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS],
      flag: 'budget',
      metavar: 'tokens',
    }),
    arg.choice('detail', CONTEXT_DETAILS, {
      doc: 'paths (names only), outline (definitions and lines), slices (the matching code) or auto (richest that fits; {limits})',
      cli: 'paths, outline, slices, or auto: the richest that fits',
      default: 'auto',
      metavar: 'level',
    }),
    arg.list('seen', { doc: 'Receipts of units you already hold: not sent again', cli: 'receipts of units already held: not sent again', example: '["3f9a0c1b2d"]', metavar: 'receipts' }),
    arg.list('known', {
      doc: 'path@content_hash of files you hold whole (honoured if delivered whole before)',
      cli: 'files held whole at that content_hash',
      example: '["src/net/client.ts@9c1e0a77b2d4f610"]',
      metavar: 'path@hash',
    }),
    arg.text('session', {
      doc: 'Keep receipts under this name across connections (default: this connection), for a day',
      cli: 'remember what was delivered under this name (for a day): nothing is sent twice',
      example: '"task-42"',
      metavar: 'id',
    }),
    arg.flag('expand', {
      doc: 'At slices detail, fill what the slices leave of the budget with labelled expansions; false sends only the slices',
      cli: 'at slices detail, send only the slices (no neighbours, siblings or imported definitions in the budget they leave)',
      default: true,
    }),
  ],
  examples: [
    'sightline context "add retry with backoff to the HTTP client"',
    'sightline context "fix token refresh" --terms SessionManager,refreshToken --budget 4000',
    'sightline context "where is config loaded" --detail outline --json',
    'sightline context "explain the index pipeline" --session task-42 --json',
  ],
});
