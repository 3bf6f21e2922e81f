import { locate } from '../../engine/index.js';
import { oneOf, optionalText, positiveInt, text } from './args.js';
import { defineTool } from './tool.js';

export const locateTool = defineTool({
  name: 'locate',
  title: 'Locate a symbol',
  description:
    'Where a symbol (class, function, method, variable) is defined and where it is mentioned: paths and line spans, no bodies. ' +
    'Use it first when you know a name, e.g. "SessionManager" or "Store.open"; then read the hit you need. ' +
    'Use search instead for concepts, phrases or partial words.',
  readsIndex: true,
  inputSchema: {
    query: text('query', '"SessionManager" or "Store.open"').describe('A symbol name, optionally qualified: "Class.method", "module::fn".'),
    kind: oneOf('kind', ['definition', 'reference', 'any'] as const)
      .optional()
      .describe('definition (where it is declared), reference (where it is used) or any (both, definitions first; the default).'),
    scope: optionalText('scope', '"src/server"').describe('Only results under this directory or glob.'),
    max_results: positiveInt('max_results', 20).describe('Cap on results (default 50).'),
  },
  run: (a, { repo }) => locate(repo, { query: a.query, kind: a.kind, scope: a.scope, maxResults: a.max_results }),
});
