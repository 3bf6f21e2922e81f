import { EXPLORE_RELATIONS } from '../../engine/index.js';
import { flag, maxTokens, oneOf, optionalText, positiveInt } from './args.js';
import { defineTool } from './tool.js';

export const exploreTool = defineTool({
  name: 'explore',
  title: 'Explore the code graph',
  description:
    'Structural questions answered from resolved references, without reading files: who calls a function (callers), what it calls ' +
    '(callees), what a file or symbol uses (dependencies) and what uses it (dependents), everything that transitively depends on it ' +
    '(impact: the blast radius of a change, grouped by file, each hit with the chain of edges linking it to the anchor), or an overview ' +
    'of a directory (main modules, entry points, most depended-on symbols, module dependencies). Each hit says how its edge resolved: ' +
    'exact (same scope), import (through an import) or name (by name only; ambiguous when several definitions match). ' +
    'A very large answer comes back as status "refine" with where the hits are and narrower calls.',
  readsIndex: true,
  guide: { when: 'follow the code graph: callers, callees, dependencies, dependents, blast radius, or an overview of a directory', call: '{question: "who calls parseFile"} or {relation: "overview", scope: "src"}' },
  inputSchema: {
    question: optionalText('question', '"what breaks if I change Store.putFile"').describe(
      'The question in words; with relation auto (the default) it picks the relation, and the anchor when none is given.',
    ),
    relation: oneOf('relation', EXPLORE_RELATIONS).optional().describe('callers, callees, dependencies, dependents, impact, overview or auto (the default).'),
    anchor: optionalText('anchor', '"Store.putFile" or "src/store/files.ts"').describe('The symbol ("Class.method", "parse_request") or file path the question is about; for overview, the directory.'),
    depth: positiveInt('depth', 2).describe('Levels of edges to follow: 1 (the default) to 3.'),
    scope: optionalText('scope', '"src/server"').describe('Only hits under this directory or glob; for overview, the directory to summarise.'),
    max_results: positiveInt('max_results', 20).describe('Cap on hits (default 50).'),
    max_tokens: maxTokens('the hits, by_file and unresolved', 'by_file and unresolved take at most a quarter, nearest files first, the hits the rest; what is cut is counted in omitted, by_file_omitted and unresolved_omitted'),
    force: flag('force').describe('Answer even a huge blast radius instead of asking you to refine (still trimmed to max_tokens).'),
  },
  run: (a, { engine, session }) =>
    engine.explore({
      question: a.question,
      relation: a.relation,
      anchor: a.anchor,
      depth: a.depth,
      scope: a.scope,
      maxResults: a.max_results,
      maxTokens: a.max_tokens,
      force: a.force,
      session,
    }),
});

