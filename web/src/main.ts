/**
 * The dashboard page: signs in with the token from the URL's fragment, then
 * shows one view at a time (#health, #contents, #graph, #search, #usage),
 * each drawn from the server's JSON API for the repository picked (a
 * workspace lists several). Sign-out, or a session the server ended, brings
 * back the page that says how to sign in again.
 */
import './style.css';
import { ApiError, pickRepository, repositories, signIn, signOut, SIGNED_OUT, type Repositories } from './api.js';
import { errorBox, h, section } from './dom.js';
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
const repoSlot = document.getElementById('repo')!;
const signOutButton = document.getElementById('sign-out') as HTMLButtonElement;
let stopView: (() => void) | void;
/** Whether the page holds a session: views are drawn only then. */
let live = false;
const TOKEN_FRAGMENT = /^#token=(.+)$/;
/** The picked repository survives a reload of this tab. */
const PICKED = 'sightline-repo';

function signedOut(title: string, message: string): void {
  live = false;
  stopView?.();
  stopView = undefined;
  tabs.replaceChildren();
  repoSlot.replaceChildren();
  signOutButton.hidden = true;
  main.replaceChildren(
    h(
      'section',
      { class: 'card signin', 'data-testid': 'signed-out' },
      h('h2', {}, title),
      h('p', {}, message),
      h('p', {}, 'To sign in, open the URL that ', h('code', {}, 'sightline dashboard'), ' (or ', h('code', {}, 'serve --transport http'), ') printed when it started: it ends in #token=…'),
    ),
  );
}

/** The header's repository: its root when there is one, else a picker; the views follow the pick. */
function showRepositories(r: Repositories): void {
  const rows = r.repositories;
  const saved = sessionStorage.getItem(PICKED);
  const first = rows.find((x) => x.id === saved) ?? rows[0]!;
  pickRepository(first.id);
  if (r.workspace === null) {
    repoSlot.textContent = first.root ?? first.id;
    return;
  }
  const root = h('span', { 'data-testid': 'repo-root' }, first.root ?? '');
  const picker = h(
    'select',
    { 'data-testid': 'repo-picker' }, // labelled by the <label> around it
    ...rows.map((x) => h('option', { value: x.id, selected: x.id === first.id }, x.problem ? `${x.id} (cannot open)` : x.id)),
  );
  picker.addEventListener('change', () => {
    const picked = rows.find((x) => x.id === picker.value)!;
    pickRepository(picked.id);
    sessionStorage.setItem(PICKED, picked.id);
    root.textContent = picked.root ?? '';
    void route();
  });
  repoSlot.replaceChildren(h('label', { class: 'inline' }, 'Repository ', picker), ' ', root);
}

function nothingRegistered(r: Repositories): void {
  repoSlot.textContent = r.workspace ?? '';
  main.replaceChildren(
    section('Nothing to show yet', h('p', { 'data-testid': 'nothing-registered' }, `The workspace ${r.workspace} has no repository you may see: ${r.note ?? ''}.`)),
  );
}

function currentView() {
  const id = location.hash.replace(/^#/, '');
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}

async function route(): Promise<void> {
  if (!live) return;
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
    if (!(err instanceof ApiError && err.status === 401)) panel.append(errorBox(err)); // a 401 signed the page out already
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
  const fragment = TOKEN_FRAGMENT.exec(location.hash);
  if (fragment) {
    // Out of the address bar and the history before anything else happens.
    history.replaceState(null, '', `${location.pathname}#health`);
    if (!(await signIn(decodeURIComponent(fragment[1]!)))) return signedOut('Not signed in', 'The token in that URL is not this server\'s.');
  }
  let listed: Repositories;
  try {
    listed = await repositories();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return;
    throw err;
  }
  signOutButton.hidden = false;
  signOutButton.addEventListener('click', () => {
    signOut().then(
      () => signedOut('Signed out', 'This browser\'s session has ended, on the server too.'),
      (err) => main.prepend(errorBox(err)),
    );
  });
  if (listed.repositories.length === 0) return nothingRegistered(listed);
  showRepositories(listed);
  live = true;
  buildTabs();
  await route();
}

// A printed URL pasted into this tab again is only a change of fragment: sign in with it as on a fresh load.
window.addEventListener('hashchange', () => (TOKEN_FRAGMENT.test(location.hash) ? location.reload() : void route()));
// Any call answered 401 (the session expired or ended): say so, and how to sign in again.
window.addEventListener(SIGNED_OUT, (e) => signedOut('Not signed in', (e as CustomEvent<string>).detail));
start().catch((err) => main.replaceChildren(errorBox(err)));
