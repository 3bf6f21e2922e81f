/** A few DOM helpers: elements from a tag, attributes and children; tables; numbers as people read them. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(el: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
}

/** A table with a caption; cells may be nodes. `numeric` columns are right-aligned. */
export function table(caption: string, headers: string[], rows: Child[][], options: { numeric?: number[]; testid?: string } = {}): HTMLTableElement {
  const numeric = new Set(options.numeric ?? []);
  const cell = (tag: 'td' | 'th', c: Child, i: number) => h(tag, { class: numeric.has(i) ? 'num' : undefined, scope: tag === 'th' ? 'col' : undefined }, c);
  return h(
    'table',
    { 'data-testid': options.testid },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headers.map((x, i) => cell('th', x, i)))),
    h('tbody', {}, ...(rows.length ? rows.map((r) => h('tr', {}, ...r.map((c, i) => cell('td', c, i)))) : [h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, 'none'))])),
  );
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card', 'aria-label': title }, h('h2', {}, title), ...children);
}

export function tiles(items: [string, Child][]): HTMLElement {
  return h('dl', { class: 'tiles' }, ...items.map(([label, value]) => h('div', { class: 'tile' }, h('dt', {}, label), h('dd', {}, value))));
}

export const fmt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

export function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const span = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.round(s / 60)} min` : s < 86400 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} d`);

export function ago(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  return s < 0 ? `${new Date(iso).toLocaleString()} (in ${span(-s)})` : `${new Date(iso).toLocaleString()} (${span(s)} ago)`;
}

/** A status word as a badge: verified, stale, ok, failed… */
export function badge(word: string): HTMLElement {
  return h('span', { class: `badge badge-${word.replace(/[^a-z_]/gi, '')}` }, word);
}

export function errorBox(err: unknown): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err));
}

/** A placeholder that says what is loading, replaced by what `load` brings (or its error) when it comes. */
export function later<T>(waiting: string, load: Promise<T>, render: (value: T) => Node, attrs: Attrs = {}): HTMLElement {
  const slot = h('div', attrs, h('p', { class: 'muted' }, waiting));
  load.then(
    (value) => slot.replaceChildren(render(value)),
    (err) => slot.replaceChildren(errorBox(err)),
  );
  return slot;
}
