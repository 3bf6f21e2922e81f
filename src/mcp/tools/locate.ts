import { flag, maxTokens, oneOf, optionalText, positiveInt, text } from './args.js';
import { defineTool } from './tool.js';

export const locateTool = defineTool({
  name: 'locate',
  title: 'Locate a symbol',
  description:
    'Where a symbol (class, function, method, variable) is defined and where it is mentioned: paths and line spans, no bodies. ' +
    'Use it first when you know a name, e.g. "SessionManager" or "Store.open"; then read the hit you need. ' +
    'Use search instead for concepts, phrases or partial words. Each result carries tokens and citation_status; a name used all over ' +
    'the repository comes back as status "refine" with where it is used and narrower calls.',
  readsIndex: true,
  guide: { when: 'find where a class, function or method is defined or used', call: '{query: "Store.open", kind: "definition"}' },
  inputSchema: {
    query: text('query', '"SessionManager" or "Store.open"').describe('A symbol name, optionally qualified: "Class.method", "module::fn".'),
    kind: oneOf('kind', ['definition', 'reference', 'any'] as const)
      .optional()
      .describe('definition (where it is declared), reference (where it is used) or any (both, definitions first; the default).'),
    scope: optionalText('scope', '"src/server"').describe('Only results under this directory or glob.'),
    max_results: positiveInt('max_results', 20).describe('Cap on results (default 50).'),
    max_tokens: maxTokens('the results', 'results past it are left out and counted in omitted'),
    force: flag('force').describe('Answer even when the name is everywhere instead of asking you to refine (still trimmed to max_tokens).'),
  },
  run: (a, { engine, session }) =>
    engine.locate({ query: a.query, kind: a.kind, scope: a.scope, maxResults: a.max_results, maxTokens: a.max_tokens, force: a.force, session }),
});
