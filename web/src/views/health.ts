/**
 * Health: the index job live (server-sent events: phase, files done of
 * total, ETA), the index and its last pass, staleness (files changed on disk
 * since indexing), doctor's checks with their fixes, the embedder and the
 * retrieval phase.
 */
import { apiUrl, get } from '../api.js';
import { ago, badge, errorBox, fmt, h, later, section, table, tiles } from '../dom.js';

interface JobEvent {
  status: string;
  phase: string | null;
  done: number;
  total: number;
  eta_seconds: number | null;
  counts: Record<string, number>;
  started_at: string | null;
  ended_at: string | null;
  error: string | null;
  retrieval_phase: string;
}

interface HealthView {
  health: { index: string; last_indexed_at: string | null; files: number | null; schema_version: number; problems: string[]; server?: { version: string; transport: string; started_at: string } };
  job: { summary: { elapsed_ms?: number } | null; ended_at: string | null };
  retrieval_phase: string;
  embedder: { name: string; vectors: number; pending_chunks: number };
}

interface Doctor {
  healthy: boolean;
  checks: { name: string; ok: boolean; detail: string; fix?: string }[];
}

interface Changed {
  added: string[];
  modified: string[];
  removed: string[];
  unchanged: number;
  impact: { path: string }[];
  omitted?: number;
}

function eta(seconds: number | null): string {
  if (seconds === null) return '';
  return seconds < 90 ? `about ${seconds}s left` : `about ${Math.round(seconds / 60)} min left`;
}

function jobCard(): { el: HTMLElement; show: (e: JobEvent) => void } {
  const status = h('span', { 'data-testid': 'job-status' });
  const phase = h('span', { 'data-testid': 'job-phase' });
  const bar = h('progress', { max: 1, value: 0, 'aria-label': 'files done in this phase' });
  const done = h('span', { 'data-testid': 'job-progress' });
  const left = h('span', { class: 'muted' });
  const error = h('p', { class: 'error', hidden: true });
  const el = section('Index job (live)', h('p', { class: 'job-line', 'aria-live': 'polite' }, status, ' ', phase, ' ', done, ' ', left), bar, error);
  return {
    el,
    show(e) {
      status.replaceChildren(badge(e.status));
      phase.textContent = e.phase ? `phase: ${e.phase}` : '';
      done.textContent = e.total ? `${fmt(e.done)} of ${fmt(e.total)} files` : '';
      left.textContent = e.status === 'running' ? eta(e.eta_seconds) : e.ended_at ? `ended ${ago(e.ended_at)}` : '';
      bar.max = Math.max(e.total, 1);
      bar.value = e.status === 'running' ? e.done : e.status === 'completed' ? bar.max : 0;
      error.hidden = !e.error;
      error.textContent = e.error ?? '';
    },
  };
}

const plural = (n: number, noun: string) => `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;

function staleness(c: Changed): HTMLElement {
  const changedCount = c.added.length + c.modified.length + c.removed.length;
  const list = (title: string, paths: string[]) => (paths.length ? h('div', {}, h('h3', {}, `${title} (${paths.length})`), h('ul', { class: 'paths' }, ...paths.slice(0, 20).map((p) => h('li', {}, h('code', {}, p))))) : null);
  return section(
    'Staleness',
    h(
      'p',
      { 'data-testid': 'staleness' },
      changedCount === 0
        ? 'Every indexed file matches the disk.'
        : `${plural(changedCount, 'file')} changed on disk since indexing; ${plural(c.impact.length, 'indexed file')} ${c.impact.length === 1 ? 'depends' : 'depend'} on ${changedCount === 1 ? 'it' : 'them'}.`,
    ),
    list('Modified', c.modified),
    list('Added', c.added),
    list('Removed', c.removed),
  );
}

export async function renderHealth(panel: HTMLElement): Promise<() => void> {
  const job = jobCard();
  panel.append(job.el);
  const events = new EventSource(apiUrl('/api/events'));
  let lastStatus = '';
  const rest = h('div', { class: 'stack' });
  panel.append(rest);
  const draw = async () => {
    const view = await get<HealthView>('/api/health');
    const { health, embedder } = view;
    rest.replaceChildren(
      section(
        'Index',
        tiles([
          ['index', badge(health.index)],
          ['files', h('span', { 'data-testid': 'health-files' }, fmt(health.files))],
          ['last indexed', ago(health.last_indexed_at)],
          ['retrieval phase', badge(view.retrieval_phase)],
          ['embedder', `${embedder.name}: ${fmt(embedder.vectors)} vectors, ${fmt(embedder.pending_chunks)} chunks pending`],
          ['server', health.server ? `${health.server.version} over ${health.server.transport}, since ${ago(health.server.started_at)}` : '—'],
        ]),
        health.problems.length ? h('ul', { class: 'problems' }, ...health.problems.map((p) => h('li', {}, p))) : null,
      ),
      later('Comparing the files on disk with the index…', get<Changed>('/api/changed'), staleness),
      later('Checking the index file…', get<Doctor>('/api/doctor'), (d) =>
        section(
          `Doctor: ${d.healthy ? 'healthy' : 'needs attention'}`,
          table('Checks of the index file, read-only', ['check', 'result', 'detail', 'fix'], d.checks.map((c) => [c.name, badge(c.ok ? 'ok' : 'failed'), c.detail, c.fix ? h('code', {}, c.fix) : '']), { testid: 'doctor' }),
        ),
      ),
    );
  };
  events.addEventListener('job', (message) => {
    const e = JSON.parse((message as MessageEvent<string>).data) as JobEvent;
    job.show(e);
    // A pass that just ended changed what the rest of the page says.
    if (lastStatus === 'running' && e.status !== 'running') void draw().catch((err) => rest.replaceChildren(errorBox(err)));
    lastStatus = e.status;
  });
  await draw();
  return () => events.close();
}
