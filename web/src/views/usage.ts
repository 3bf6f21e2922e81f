/**
 * Usage: what answering agents cost and saved. The server's ledger (its last
 * hour, per tool: calls, tokens sent, whole reads replaced, net saved), the
 * tool log over time with its slowest calls, and agent memory: topics, and
 * the claims held on records with their holders and lease expiries.
 */
import type { ToolLogSummary } from '../../../src/web/tool-log.js';
import { get } from '../api.js';
import { timeline } from '../charts.js';
import { ago, badge, fmt, h, later, section, table, tiles } from '../dom.js';

interface Totals {
  calls: number;
  response_tokens: number;
  reads_replaced_tokens: number;
  net_saved_tokens: number;
}

interface UsageView {
  ledger: (Totals & { window_seconds: number; tools: Record<string, Totals> }) | null;
  log: ToolLogSummary;
}

interface MemoryView {
  topics: { topics?: { topic: string; count: number }[]; total?: number };
  records: number;
  claims: { key: string; title: string | null; owner: string | null; is_held: boolean; lease_expires_at: string | null; fencing_token: number | null; queue_depth: number }[];
}

export async function renderUsage(panel: HTMLElement): Promise<() => void> {
  const u = await get<UsageView>('/api/usage');
  const stops: (() => void)[] = [];
  const ledger = u.ledger;
  panel.append(
    section(
      'This server, last hour',
      ledger
        ? tiles([
            ['calls', h('span', { 'data-testid': 'ledger-calls' }, fmt(ledger.calls))],
            ['tokens sent', fmt(ledger.response_tokens)],
            ['reads replaced', fmt(ledger.reads_replaced_tokens)],
            ['net saved', h('span', { class: ledger.net_saved_tokens < 0 ? 'negative' : 'positive' }, fmt(ledger.net_saved_tokens))],
          ])
        : h('p', {}, 'No ledger.'),
      ledger
        ? table('Per tool', ['tool', 'calls', 'tokens sent', 'reads replaced', 'net saved'], Object.entries(ledger.tools).map(([t, x]) => [t, fmt(x.calls), fmt(x.response_tokens), fmt(x.reads_replaced_tokens), fmt(x.net_saved_tokens)]), { numeric: [1, 2, 3, 4] })
        : null,
      h('p', { class: 'muted' }, 'Agents\' calls to this server only: the dashboard\'s own are not counted. A dashboard started alone serves no agents; chart a serve\'s log with --tool-log.'),
    ),
  );
  const log = u.log;
  const calls = h('div', { class: 'chart', 'aria-hidden': 'true' });
  const tokens = h('div', { class: 'chart', 'aria-hidden': 'true' });
  panel.append(
    section(
      `Tool log${log.file ? `: ${log.file}` : ''}`,
      log.note ? h('p', { class: 'muted' }, log.note) : null,
      tiles([
        ['calls', h('span', { 'data-testid': 'log-calls' }, fmt(log.calls))],
        ['errors', fmt(log.errors)],
        ['tokens sent', fmt(log.tokens_sent)],
        ['reads replaced', fmt(log.reads_replaced_tokens)],
        ['net saved', fmt(log.net_saved_tokens)],
      ]),
      log.buckets.length ? h('div', { class: 'grid2' }, h('figure', {}, h('figcaption', {}, 'Calls over time'), calls), h('figure', {}, h('figcaption', {}, 'Tokens sent vs whole reads replaced'), tokens)) : null,
      h(
        'div',
        { class: 'grid2' },
        table('Slowest calls', ['when', 'tool', 'ms', 'outcome', 'tokens'], log.slowest.map((c) => [new Date(c.ts).toLocaleString(), c.tool, fmt(c.ms), badge(c.outcome), fmt(c.tokens_sent)]), { numeric: [2, 4], testid: 'slowest' }),
        table('By tool', ['tool', 'calls', 'errors', 'tokens sent', 'reads replaced'], Object.entries(log.by_tool).map(([t, x]) => [t, fmt(x.calls), fmt(x.errors), fmt(x.tokens_sent), fmt(x.reads_replaced_tokens)]), { numeric: [1, 2, 3, 4] }),
      ),
    ),
  );
  if (log.buckets.length) {
    requestAnimationFrame(() => {
      const t = log.buckets.map((b) => b.t);
      stops.push(timeline(calls, t, [{ label: 'calls', values: log.buckets.map((b) => b.calls) }, { label: 'errors', values: log.buckets.map((b) => b.errors) }]));
      stops.push(timeline(tokens, t, [{ label: 'tokens sent', values: log.buckets.map((b) => b.tokens_sent) }, { label: 'reads replaced', values: log.buckets.map((b) => b.reads_replaced_tokens) }]));
    });
  }
  panel.append(
    later('Reading agent memory…', get<MemoryView>('/api/memory'), (m) =>
      section(
        'Agent memory',
        h('p', {}, `${fmt(m.topics.total ?? 0)} live records in ${fmt(m.topics.topics?.length ?? 0)} topics; ${fmt(m.claims.length)} claimed.`),
        h(
          'div',
          { class: 'grid2' },
          table('Topics', ['topic', 'records'], (m.topics.topics ?? []).map((t) => [t.topic, fmt(t.count)]), { numeric: [1], testid: 'topics' }),
          table('Claims', ['record', 'holder', 'held', 'lease expires', 'token', 'waiting'], m.claims.map((c) => [h('code', { title: c.title ?? '' }, c.key), c.owner ?? '—', badge(c.is_held ? 'held' : 'released'), ago(c.lease_expires_at), fmt(c.fencing_token), fmt(c.queue_depth)]), { testid: 'claims' }),
        ),
      ),
    ),
  );
  return () => stops.forEach((s) => s());
}
