import { z } from 'zod';
import { flag, maxTokens, oneOf, optionalText, positiveInt, stringList, text } from './args.js';
import { defineTool } from './tool.js';

const FILE_KINDS = ['code', 'test', 'doc', 'config', 'generated'] as const;
const SEARCH_MODES = ['hybrid', 'keyword', 'semantic'] as const;

export const searchTool = defineTool({
  name: 'search',
  title: 'Search code',
  description:
    'Ranked code for words, an identifier or a regular expression: use it instead of grep when you know what the code does or a word in it, but not where it is. ' +
    'Use locate instead when you have an exact symbol name, and read to get the full text around a hit. ' +
    'Each result has path, start_line, end_line (1-based, inclusive), symbol, kind, score, reasons, a snippet, tokens and citation_status ' +
    '(verified; stale: the file changed since indexing, find the symbol by name; unverifiable). ' +
    'A question too broad to answer well comes back as status "refine" with where the hits are and narrower calls (with what each would yield): follow one. ' +
    'memory lists the notes and decisions agents remembered that hold the query\'s words (see recall).',
  readsIndex: true,
  guide: { when: 'find code by what it does or by a word in it, when you do not know where it is', call: '{query: "parse config file", scope: "src", files: true}' },
  inputSchema: {
    query: text('query', '"parse config file" or "getUserName"').describe('Words, an identifier, or (with regex: true) a JavaScript regular expression.'),
    scope: optionalText('scope', '"src/auth"').describe('Only results under this directory or glob, e.g. "src/auth" or "src/**/*.ts".'),
    exclude: stringList('exclude', '["test/**", "docs"]').describe('Drop results under these directories or globs.'),
    kind: z.array(oneOf('kind', FILE_KINDS)).optional().describe('Only these file kinds: code, test, doc, config, generated.'),
    regex: flag('regex').describe('Treat query as a regular expression matched line by line (for exact syntax such as "TODO|FIXME").'),
    k: positiveInt('k', 10).describe('How many results (default 10).'),
    files: flag('files').describe('One result per file, best first: use it to find which files to look at.'),
    mode: oneOf('mode', SEARCH_MODES).optional().describe('Retrieval: hybrid (default; keyword and semantic fused), keyword, or semantic. The answer says which ran.'),
    max_tokens: maxTokens('the results', 'results past it are left out and counted in omitted'),
    force: flag('force').describe('Answer even a very broad query instead of asking you to refine it (still trimmed to max_tokens); use sparingly.'),
    expand: flag('expand').describe(
      'Also return, in expansions, the chunks around each result: its neighbours, the other members of its class or module, and the definitions it uses from other files; ' +
        'each names the result it was added for (neighbor-of:, sibling-of:, imported-by:<path>:<line>) and counts against max_tokens after the results.',
    ),
  },
  run: (a, { engine, session }) =>
    engine.search({
      query: a.query,
      scope: a.scope,
      exclude: a.exclude,
      kind: a.kind,
      regex: a.regex,
      k: a.k,
      files: a.files,
      mode: a.mode,
      force: a.force,
      maxTokens: a.max_tokens,
      expand: a.expand,
      session,
    }),
});
