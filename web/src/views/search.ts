/**
 * Search as the agent sees it: the search or context tool run on the
 * server with the arguments an agent would send, and its answer shown
 * whole: results with reasons, scores, tokens and citation_status, the
 * refine envelope when the gate refuses (each suggestion runnable), the raw
 * JSON below. Refresh runs the same call again, against the files as they
 * are now.
 */
import type { Suggestion } from '../../../src/budget/gate.js';
import type { Citation } from '../../../src/cite/probe.js';
import type { ResultItem } from '../../../src/engine/envelope.js';
import { post } from '../api.js';
import { badge, errorBox, fmt, h, section, table } from '../dom.js';

/** What search returns per location, with the citation every cited answer carries. */
type Result = ResultItem & Citation & { tokens?: number };


interface Answer {
  status: string;
  mode?: string;
  retrieval_phase?: string;
  total?: number;
  tokens?: number;
  omitted?: number;
  gate_note?: string;
  results?: Result[];
  reason?: string;
  note?: string;
  distribution?: { dir: string; hits: number; files: number }[];
  suggestions?: Suggestion[];
  entries?: { path: string; why?: string[]; reasons?: string[]; tokens: number; full_read_tokens?: number; detail?: string; citation_status: string }[];
  budget_tokens?: number;
  error?: string;
}

type Args = Record<string, unknown>;

function resultCard(r: Result, i: number): HTMLElement {
  return h(
    'li',
    { class: 'result', 'data-testid': 'result' },
    h(
      'div',
      { class: 'result-head' },
      h('span', { class: 'rank' }, `${i + 1}.`),
      h('code', { 'data-testid': 'result-path' }, `${r.path}:${r.start_line}–${r.end_line}`),
      r.symbol ? h('strong', {}, r.symbol) : null,
      h('span', { class: 'muted' }, r.kind),
      h('span', { class: 'muted' }, `score ${r.score}`),
      r.tokens !== undefined ? h('span', { class: 'muted' }, `${fmt(r.tokens)} tokens`) : null,
      h('span', { 'data-testid': 'citation' }, badge(r.citation_status)),
    ),
    h('ul', { class: 'chips', 'aria-label': 'reasons', 'data-testid': 'reasons' }, ...r.reasons.map((x) => h('li', {}, x))),
    r.citation_note ? h('p', { class: 'note' }, r.citation_note) : null,
    r.snippet ? h('pre', { class: 'snippet' }, r.snippet) : null,
  );
}

/** The arguments of the call a suggestion names, from the call it refines. */
function narrowed(base: Args, s: Suggestion): Args {
  switch (s.action) {
    case 'narrow_scope':
      return { ...base, scope: s.arg };
    case 'add_term':
      return { ...base, query: `${String(base.query ?? '')} ${s.arg ?? ''}`.trim() };
    case 'drop_term': {
      const dropped = new Set((s.arg ?? '').split(' '));
      return { ...base, query: String(base.query ?? '').split(/\s+/).filter((w) => w && !dropped.has(w)).join(' ') };
    }
    case 'narrow_kind':
      return { ...base, kind: [s.arg] };
    case 'use_force':
      return { ...base, force: true };
  }
}

function refine(a: Answer, run: (args: Args) => void, base: Args): HTMLElement {
  return section(
    `The gate asks to refine: ${a.reason ?? ''}`,
    h('p', { 'data-testid': 'refine-note' }, a.note ?? ''),
    table('Where the hits are', ['directory', 'hits', 'files'], (a.distribution ?? []).map((d) => [h('code', {}, d.dir), fmt(d.hits), fmt(d.files)]), { numeric: [1, 2], testid: 'distribution' }),
    table(
      'Narrower calls, each counted by running it',
      ['', 'suggestion', 'would yield', 'tokens'],
      (a.suggestions ?? []).map((s) => [h('button', { type: 'button', onclick: () => run(narrowed(base, s)) }, 'Run'), s.hint, fmt(s.would_yield), fmt(s.est_tokens)]),
      { numeric: [2, 3], testid: 'suggestions' },
    ),
  );
}

function contextEntries(a: Answer): HTMLElement {
  return section(
    `Context bundle: ${fmt(a.tokens)} tokens`,
    table('Files in the bundle', ['file', 'why', 'detail', 'tokens', 'whole file', 'citation'], (a.entries ?? []).map((e) => [h('code', {}, e.path), (e.why ?? e.reasons ?? []).join(', '), e.detail ?? '', fmt(e.tokens), fmt(e.full_read_tokens), badge(e.citation_status)]), { numeric: [3, 4], testid: 'context-entries' }),
  );
}

export async function renderSearch(panel: HTMLElement): Promise<void> {
  const query = h('input', { type: 'search', name: 'query', required: true, placeholder: 'parse config file, getUserName, a whole issue…', 'aria-label': 'query', autocomplete: 'off' });
  const tool = h('select', { name: 'tool', 'aria-label': 'tool' }, h('option', { value: 'search' }, 'search'), h('option', { value: 'context' }, 'context'));
  const mode = h('select', { name: 'mode', 'aria-label': 'retrieval mode' }, h('option', { value: '' }, 'default mode'), ...['hybrid', 'keyword', 'semantic'].map((m) => h('option', { value: m }, m)));
  const files = h('input', { type: 'checkbox', name: 'files' });
  const refresh = h('button', { type: 'button', disabled: true, 'data-testid': 'refresh' }, 'Refresh');
  const out = h('div', { 'aria-live': 'polite', 'data-testid': 'search-output' });
  let last: { tool: string; args: Args } | null = null;

  const run = async (name: string, args: Args) => {
    last = { tool: name, args };
    refresh.disabled = false;
    out.replaceChildren(h('p', { class: 'muted' }, 'Asking…'));
    try {
      const a = await post<Answer>(name === 'context' ? '/api/context' : '/api/search', args);
      const summary = h(
        'p',
        { class: 'summary', 'data-testid': 'answer-status' },
        badge(a.status),
        a.mode ? ` mode ${a.mode}` : '',
        a.retrieval_phase ? ` · retrieval ${a.retrieval_phase}` : '',
        a.total !== undefined ? ` · ${fmt(a.total)} matches` : '',
        a.tokens !== undefined ? ` · ${fmt(a.tokens)} tokens sent` : '',
        a.omitted ? ` · ${fmt(a.omitted)} omitted` : '',
      );
      const body =
        a.status === 'refine'
          ? refine(a, (x) => void run(name, x), args)
          : name === 'context'
            ? contextEntries(a)
            : h('ol', { class: 'results', 'data-testid': 'results' }, ...(a.results ?? []).map(resultCard));
      out.replaceChildren(summary, a.gate_note ? h('p', { class: 'note' }, a.gate_note) : '', body, h('details', {}, h('summary', {}, 'The answer as JSON, as the agent receives it'), h('pre', { class: 'json' }, JSON.stringify(a, null, 2))));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  const argsOf = (): Args => {
    const text = query.value.trim();
    if (tool.value === 'context') return { task: text };
    return { query: text, ...(mode.value ? { mode: mode.value } : {}), ...(files.checked ? { files: true } : {}) };
  };
  refresh.addEventListener('click', () => last && void run(last.tool, last.args));
  const form = h(
    'form',
    { class: 'search-form', role: 'search', onsubmit: (e: Event) => (e.preventDefault(), void run(tool.value, argsOf())) },
    query,
    tool,
    mode,
    h('label', { class: 'inline' }, files, ' one per file'),
    h('button', { type: 'submit' }, 'Search'),
    refresh,
  );
  panel.append(section('Search as the agent sees it', form), out);
  query.focus();
}
