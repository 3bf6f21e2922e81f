/**
 * Contents: what the index holds by language and by top-level directory (a
 * chart and the same numbers as a table), its heaviest files, and what an
 * index pass leaves out and why (the dry run's table).
 */
import { get } from '../api.js';
import { barChart } from '../charts.js';
import { fmt, h, kb, later, section, table, tiles } from '../dom.js';

interface Weight {
  files: number;
  chunks: number;
  symbols: number;
  tokens: number;
  bytes: number;
}

interface Contents {
  totals: Weight;
  by_language: ({ language: string } & Weight)[];
  by_directory: ({ dir: string } & Weight)[];
  largest_files: { path: string; language: string; tokens: number; bytes: number; chunks: number }[];
}

interface DryRun {
  files: number;
  skipped: Record<string, number>;
  ignored_by_rule: { rule: string; entries: number }[];
}

const TOP = 12;
const METRICS = ['files', 'chunks', 'symbols', 'tokens'] as const;

function breakdown(title: string, label: string, rows: ({ name: string } & Weight)[], stops: (() => void)[], testid: string): HTMLElement {
  const chart = h('div', { class: 'chart', 'aria-hidden': 'true' });
  const picker = h('select', { 'aria-label': `${title}: measure the chart by` }, ...METRICS.map((m) => h('option', { value: m, selected: m === 'tokens' }, m)));
  const top = rows.slice(0, TOP);
  let stop = () => {};
  const draw = () => {
    stop();
    const metric = picker.value as (typeof METRICS)[number];
    stop = barChart(chart, top.map((r) => r.name), [{ label: metric, values: top.map((r) => r[metric]) }]);
  };
  picker.addEventListener('change', draw);
  stops.push(() => stop());
  const el = section(
    title,
    h('label', { class: 'inline' }, 'Chart by ', picker),
    chart,
    table(`${title}, most tokens first`, [label, 'files', 'chunks', 'symbols', 'tokens', 'size'], rows.map((r) => [r.name, fmt(r.files), fmt(r.chunks), fmt(r.symbols), fmt(r.tokens), kb(r.bytes)]), { numeric: [1, 2, 3, 4, 5], testid }),
  );
  requestAnimationFrame(draw); // once the chart's box has its width
  return el;
}

export async function renderContents(panel: HTMLElement): Promise<() => void> {
  const c = await get<Contents>('/api/contents');
  const stops: (() => void)[] = [];
  panel.append(
    section(
      'Totals',
      tiles([
        ['files', h('span', { 'data-testid': 'total-files' }, fmt(c.totals.files))],
        ['chunks', h('span', { 'data-testid': 'total-chunks' }, fmt(c.totals.chunks))],
        ['symbols', h('span', { 'data-testid': 'total-symbols' }, fmt(c.totals.symbols))],
        ['tokens', h('span', { 'data-testid': 'total-tokens' }, fmt(c.totals.tokens))],
        ['source', kb(c.totals.bytes)],
      ]),
    ),
    h(
      'div',
      { class: 'grid2' },
      breakdown('By language', 'language', c.by_language.map((r) => ({ ...r, name: r.language })), stops, 'by-language'),
      breakdown('By top-level directory', 'directory', c.by_directory.map((r) => ({ ...r, name: r.dir })), stops, 'by-directory'),
    ),
    section(
      'Largest files',
      table('The files that cost most to read whole', ['path', 'language', 'chunks', 'tokens', 'size'], c.largest_files.map((f) => [h('code', {}, f.path), f.language, fmt(f.chunks), fmt(f.tokens), kb(f.bytes)]), { numeric: [2, 3, 4] }),
    ),
    later('Walking the tree for what an index pass leaves out…', get<DryRun>('/api/dry-run'), (d) =>
      section(
        'Skipped, and why',
        h('p', {}, `A pass now would take in ${fmt(d.files)} files and leave out:`),
        h(
          'div',
          { class: 'grid2' },
          table('By reason', ['reason', 'entries'], Object.entries(d.skipped).map(([r, n]) => [r, fmt(n)]), { numeric: [1], testid: 'skipped' }),
          table('By rule', ['rule', 'entries'], d.ignored_by_rule.map((r) => [h('code', {}, r.rule), fmt(r.entries)]), { numeric: [1] }),
        ),
      ),
    ),
  );
  return () => stops.forEach((s) => s());
}
