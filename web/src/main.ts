/**
 * The dashboard page: signs in with the token from the URL's fragment, then
 * shows one view at a time (#health, #contents, #graph, #search, #usage),
 * each drawn from the server's JSON API.
 */
import './style.css';
import { ApiError, get, signIn } from './api.js';
import { errorBox, h } from './dom.js';
import { renderContents } from './views/contents.js';
import { renderGraph } from './views/graph.js';
import { renderHealth } from './views/health.js';
import { renderSearch } from './views/search.js';
import { renderUsage } from './views/usage.js';

/** A view draws into its panel and may return what stops it (an event stream, a chart's resize listener). */
export type View = (panel: HTMLElement) => Promise<(() => void) | void>;

const VIEWS: { id: string; title: string; render: View }[] = [
  { id: 'health', title: 'Health', render: renderHealth },
  { id: 'contents', title: 'Contents', render: renderContents },
  { id: 'graph', title: 'Graph', render: renderGraph },
  { id: 'search', title: 'Search', render: renderSearch },
  { id: 'usage', title: 'Usage', render: renderUsage },
];

const main = document.getElementById('main')!;
const tabs = document.getElementById('tabs')!;
let stopView: (() => void) | void;

function signedOut(message: string): void {
  tabs.replaceChildren();
  main.replaceChildren(
    h('section', { class: 'card signin', 'data-testid': 'signed-out' }, h('h2', {}, 'Not signed in'), h('p', {}, message), h('p', {}, 'Start it with ', h('code', {}, 'sightline dashboard'), ' and open the URL it prints (it ends in #token=…).')),
  );
}

function currentView() {
  const id = location.hash.replace(/^#/, '');
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}

async function route(): Promise<void> {
  const view = currentView();
  for (const tab of tabs.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
    const selected = tab.dataset.view === view.id;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  stopView?.();
  stopView = undefined;
  const panel = h('div', { role: 'tabpanel', id: `panel-${view.id}`, 'aria-labelledby': `tab-${view.id}`, 'data-testid': `view-${view.id}` });
  main.replaceChildren(panel);
  document.title = `${view.title} · sightline`;
  try {
    stopView = await view.render(panel);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return signedOut('The session ended (the server restarted?).');
    panel.append(errorBox(err));
  }
}

function buildTabs(): void {
  const buttons = VIEWS.map((v) =>
    h('button', { role: 'tab', id: `tab-${v.id}`, 'data-view': v.id, 'aria-controls': `panel-${v.id}`, onclick: () => (location.hash = v.id) }, v.title),
  );
  // Arrow keys move between tabs, as a tab list does.
  tabs.addEventListener('keydown', (e) => {
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0 || (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft' && e.key !== 'Home' && e.key !== 'End')) return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : (i + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length;
    buttons[next]!.focus();
    buttons[next]!.click();
  });
  tabs.replaceChildren(...buttons);
}

async function start(): Promise<void> {
  const fragment = /^#token=(.+)$/.exec(location.hash);
  if (fragment) {
    // Out of the address bar and the history before anything else happens.
    history.replaceState(null, '', `${location.pathname}#health`);
    if (!(await signIn(decodeURIComponent(fragment[1]!)))) return signedOut('The token in that URL is not this server\'s.');
  }
  let repositories: { id: string; root: string }[];
  try {
    ({ repositories } = await get<{ repositories: { id: string; root: string }[] }>('/api/repositories'));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return signedOut('This page needs the token the server printed.');
    throw err;
  }
  // One repository today; a workspace will list several here, and the views will take the chosen one.
  document.getElementById('repo')!.textContent = repositories.map((r) => r.root).join(', ');
  buildTabs();
  window.addEventListener('hashchange', () => void route());
  await route();
}

start().catch((err) => main.replaceChildren(errorBox(err)));
