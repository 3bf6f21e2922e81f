/**
 * The graph: modules (directories) and their dependencies from `explore
 * overview`, drawn by cytoscape (pan, zoom, click). A module's button (the
 * list beside the picture is the keyboard's way in) or node lists its most
 * depended-on files and the files that use them; a file opens its outline,
 * imports, dependents and tests (`related`).
 */
import { get } from '../api.js';
import { badge, fmt, h, later, section, table } from '../dom.js';

interface Overview {
  status: string;
  scope: string;
  files: number;
  modules: { path: string; files: number; dependents: number; dependencies: number }[];
  module_dependencies: { from: string; to: string; references: number }[];
  entry_points: { path: string; reason: string }[];
}

interface Hit {
  path: string;
  start_line: number;
  symbol: string | null;
  citation_status?: string;
}

interface ModuleView {
  files: { path: string; symbols: string[]; dependent_files: number; dependents: { status: string; results?: Hit[]; by_file?: { path: string; hits: number }[] } }[];
}

interface Linked {
  path: string;
  symbols?: string[];
  reasons?: string[];
  citation_status: string;
}

interface FileView {
  outline: { symbols?: { qualified: string; kind: string; start_line: number; end_line: number; depth: number }[]; lines?: number };
  related: { imports?: Linked[]; dependents?: Linked[]; tests?: Linked[]; external?: { module: string }[]; citation_status?: string };
}

function fileButton(path: string, open: (path: string) => void): HTMLElement {
  return h('button', { class: 'link', type: 'button', onclick: () => open(path) }, path);
}

/** Shows a file's outline and neighbourhood in `slot`; its links open other files there. */
function openFile(slot: HTMLElement, path: string): void {
  const open = (p: string) => openFile(slot, p);
  const linked = (title: string, list: Linked[] | undefined) =>
    table(title, ['file', 'why', 'citation'], (list ?? []).map((l) => [fileButton(l.path, open), (l.symbols ?? l.reasons ?? []).slice(0, 4).join(', '), badge(l.citation_status)]));
  slot.replaceChildren(
    later(`Reading ${path}…`, get<FileView>('/api/file', { path }), (f) => {
      requestAnimationFrame(() => slot.scrollIntoView({ block: 'nearest' }));
      return section(
        `File: ${path}`,
        f.related.citation_status ? h('p', {}, 'citation: ', badge(f.related.citation_status), ` · ${fmt(f.outline.lines)} lines`) : null,
        table('Outline', ['definition', 'kind', 'lines'], (f.outline.symbols ?? []).map((s) => [h('span', { style: `padding-left:${s.depth}em` }, s.qualified), s.kind, `${s.start_line}–${s.end_line}`]), { testid: 'outline' }),
        h('div', { class: 'grid2' }, linked('Imports', f.related.imports), linked('Dependents', f.related.dependents)),
        linked('Tests', f.related.tests),
        f.related.external?.length ? h('p', {}, 'External: ', h('code', {}, f.related.external.map((e) => e.module).join(', '))) : null,
      );
    }),
  );
}

/** Shows a module's most depended-on files and their callers in `slot`; files open in `fileSlot`. */
function openModule(slot: HTMLElement, fileSlot: HTMLElement, path: string): void {
  const open = (p: string) => openFile(fileSlot, p);
  slot.replaceChildren(
    later(`Looking into ${path}…`, get<ModuleView>('/api/module', { path }), (m) =>
      section(
        `Module: ${path}`,
        m.files.length === 0 ? h('p', {}, 'No file here is used from elsewhere.') : null,
        ...m.files.map((f) =>
          h(
            'div',
            { class: 'module-file', 'data-testid': 'module-file' },
            h('h3', {}, fileButton(f.path, open), ` · used by ${fmt(f.dependent_files)} file${f.dependent_files === 1 ? '' : 's'}`),
            h('p', { class: 'muted' }, 'defines ', f.symbols.join(', ')),
            table('Callers', ['file', 'line', 'from'], (f.dependents.results ?? []).map((r) => [fileButton(r.path, open), String(r.start_line), r.symbol ?? 'top level']), { numeric: [1] }),
          ),
        ),
      ),
    ),
  );
}

export async function renderGraph(panel: HTMLElement): Promise<() => void> {
  // cytoscape is most of the page's weight: fetched when the graph is first opened, not before.
  const [o, { default: cytoscape }] = await Promise.all([get<Overview>('/api/overview'), import('cytoscape')]);
  const picture = h('div', { class: 'graph', 'data-testid': 'graph', role: 'img', 'aria-label': `module dependency graph of ${o.scope || 'the repository'}: ${o.modules.length} modules` });
  const moduleSlot = h('div', {});
  const fileSlot = h('div', {});
  const pick = (path: string) => openModule(moduleSlot, fileSlot, path);
  const fileInput = h('input', { type: 'text', name: 'path', placeholder: 'src/index.ts', 'aria-label': 'file path' });
  const fileForm = h('form', { class: 'inline', onsubmit: (e: Event) => (e.preventDefault(), openFile(fileSlot, fileInput.value.trim())) }, 'Open a file: ', fileInput, h('button', { type: 'submit' }, 'Open'));
  panel.append(
    h(
      'div',
      { class: 'graph-layout' },
      section(`Modules of ${o.scope || 'the repository'} (${fmt(o.files)} files)`, picture, h('p', { class: 'muted' }, 'Drag to pan, scroll to zoom, click a module. Edges point from a module to the one it uses; wider means more references.')),
      section(
        'Modules',
        h('ul', { class: 'modules', 'data-testid': 'module-list' }, ...o.modules.map((m) => h('li', {}, h('button', { type: 'button', onclick: () => pick(m.path) }, m.path), ` ${fmt(m.files)} file${m.files === 1 ? '' : 's'} · used by ${fmt(m.dependents)}`))),
        fileForm,
      ),
    ),
    moduleSlot,
    fileSlot,
  );
  const ids = new Set(o.modules.map((m) => m.path));
  const maxRefs = Math.max(1, ...o.module_dependencies.map((d) => d.references));
  const cy = cytoscape({
    container: picture,
    elements: [
      ...o.modules.map((m) => ({ data: { id: m.path, label: m.path.split('/').pop() ?? m.path, size: 20 + Math.sqrt(m.files) * 8 } })),
      ...o.module_dependencies.filter((d) => ids.has(d.from) && ids.has(d.to) && d.from !== d.to).map((d) => ({ data: { id: `${d.from}->${d.to}`, source: d.from, target: d.to, width: 1 + (5 * d.references) / maxRefs } })),
    ],
    style: [
      { selector: 'node', style: { label: 'data(label)', width: 'data(size)', height: 'data(size)', 'background-color': '#2563eb', color: '#111827', 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 4 } },
      { selector: 'node:selected', style: { 'background-color': '#f59e0b' } },
      { selector: 'edge', style: { width: 'data(width)', 'line-color': '#94a3b8', 'target-arrow-color': '#94a3b8', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', 'arrow-scale': 0.8 } },
    ],
    layout: { name: 'cose', animate: false, padding: 20, nodeRepulsion: () => 8000 },
    wheelSensitivity: 0.3,
    minZoom: 0.1,
    maxZoom: 2, // a graph of a few modules is not blown up to fill the box
  });
  cy.on('tap', 'node', (e) => pick(e.target.id()));
  picture.dataset.nodes = cy.nodes().map((n) => n.id()).join(' '); // what was drawn, for a reader of the DOM (and the tests)
  return () => cy.destroy();
}
