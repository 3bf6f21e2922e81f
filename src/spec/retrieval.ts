/** The retrieval verbs: search, locate, read, outline, list_files, stats. */
import { DEFAULT_K } from '../engine/limits.js';
import { arg, verb } from './define.js';

const FILE_KINDS = ['code', 'test', 'doc', 'config', 'generated'] as const;
const SEARCH_MODES = ['hybrid', 'keyword', 'semantic'] as const;
const LOCATE_KINDS = ['definition', 'reference', 'any'] as const;

/** The gate's session: over MCP it is the client's connection, so only the CLI names one. */
export const gateSession = () =>
  arg.text('session', {
    face: 'cli',
    only: 'over MCP the gate counts refusals per client session, which the connection names',
    doc: 'count refusals under this name (default: $SIGHTLINE_SESSION, else one session for all CLI calls): after 3 in a row the gate opens',
    metavar: 'id',
  });

/** The file a per-file verb is about, its positional named `label` in the CLI's usage. */
export const repoFile = (label: string) =>
  arg.text('path', { required: true, positional: { label }, doc: 'A file path relative to the repository root', example: '"src/auth/session.ts"' });

const scope = (example: string, doc = 'Only results under this directory or glob') =>
  arg.text('scope', { doc, cli: 'only under this directory or glob', example, metavar: 'dir-or-glob' });

const CUT = 'results past it are left out and counted in omitted';

export const SEARCH = verb({
  tool: 'search',
  command: 'search',
  title: 'Search code',
  description:
    'Ranked code for words, an identifier or a regular expression: use it instead of grep when you know what the code does or a word in it, but not where it is. ' +
    'Use locate instead when you have an exact symbol name, and read to get the full text around a hit. ' +
    'Each result has path, start_line, end_line (1-based, inclusive), symbol, kind, score, reasons, a snippet, tokens and citation_status ' +
    '(verified; stale: the file changed since indexing, find the symbol by name; unverifiable). ' +
    'A question too broad to answer well comes back as status "refine" with where the hits are and narrower calls (with what each would yield): follow one. ' +
    "memory lists the notes and decisions agents remembered that hold the query's words (see recall).",
  summary: 'ranked code for words, identifiers or a regular expression (indexes on first use)',
  guide: { when: 'find code by what it does or by a word in it, when you do not know where it is', call: '{query: "parse config file", scope: "src", files: true}' },
  args: [
    arg.text('query', {
      required: true,
      positional: { label: 'query', variadic: true },
      doc: 'Words, an identifier, or (with regex: true) a JavaScript regular expression',
      example: '"parse config file" or "getUserName"',
    }),
    scope('"src/auth"', 'Only results under this directory or glob, e.g. "src/auth" or "src/**/*.ts"'),
    arg.list('exclude', { doc: 'Drop results under these directories or globs', cli: 'drop results under these globs', example: '["test/**", "docs"]', metavar: 'glob' }),
    arg.choices('kind', FILE_KINDS, { doc: 'Only these file kinds: code, test, doc, config, generated', cli: 'only these file kinds' }),
    arg.flag('regex', {
      doc: 'Treat query as a regular expression matched line by line (for exact syntax such as "TODO|FIXME")',
      cli: 'treat the query as a regular expression (RE2 syntax: no backreferences or lookaround), matched line by line',
    }),
    arg.int('k', { short: 'k', doc: 'How many results', cli: 'how many results', example: 10, default: DEFAULT_K }),
    arg.flag('files', { doc: 'One result per file, best first: use it to find which files to look at', cli: 'distinct files, best first, each with its best chunk' }),
    arg.choice('mode', SEARCH_MODES, {
      doc: 'Retrieval: hybrid (keyword and semantic fused), keyword, or semantic. The answer says which ran',
      cli: 'retrieval: keyword and semantic fused, or one alone',
      default: 'hybrid',
    }),
    arg.maxTokens('the results', CUT),
    arg.flag('force', {
      doc: 'Answer even a very broad query instead of asking you to refine it (still trimmed to max_tokens); use sparingly',
      cli: 'answer even a very broad query instead of asking to refine it (still trimmed to --max-tokens)',
    }),
    arg.flag('expand', {
      doc:
        'Also return, in expansions, the chunks around each result: its neighbours, the other members of its class or module, and the definitions it uses from other files; ' +
        'each names the result it was added for (neighbor-of:, sibling-of:, imported-by:<path>:<line>) and counts against max_tokens after the results',
      cli: 'also show the chunks around each result: neighbours, class or module siblings, imported definitions',
    }),
    gateSession(),
  ],
  examples: [
    'sightline search "parse config file"',
    'sightline search getUserName --files -k 5',
    'sightline search "TODO|FIXME" --regex --scope src',
    'sightline search "retry backoff" --json --session task-42',
    'sightline search "dates shift by an hour" --mode semantic',
  ],
});

export const LOCATE = verb({
  tool: 'locate',
  command: 'locate',
  title: 'Locate a symbol',
  description:
    'Where a symbol (class, function, method, variable) is defined and where it is mentioned: paths and line spans, no bodies. ' +
    'Use it first when you know a name, e.g. "SessionManager" or "Store.open"; then read the hit you need. ' +
    'Use search instead for concepts, phrases or partial words. Each result carries tokens and citation_status; a name used all over ' +
    'the repository comes back as status "refine" with where it is used and narrower calls; a defined name is answered, and ' +
      'unread_files counts the files that say the name and were not checked for further mentions once max_results were found.',
  summary: 'where a symbol is defined and where it is referenced (indexes on first use)',
  guide: { when: 'find where a class, function or method is defined or used', call: '{query: "Store.open", kind: "definition"}' },
  args: [
    arg.text('query', { required: true, positional: { label: 'name' }, doc: 'A symbol name, optionally qualified: "Class.method", "module::fn". Definitions spelled exactly so, where any is ("Transport" is not "transport"), else those of any case', example: '"SessionManager" or "Store.open"' }),
    arg.choice('kind', LOCATE_KINDS, {
      doc: 'definition (where it is declared), reference (where it is used) or any (both, definitions first; {limits})',
      cli: 'definition, reference or any',
      default: 'any',
    }),
    scope('"src/server"'),
    arg.int('max_results', { doc: 'Cap on results', cli: 'cap on results', example: 20, default: 50 }),
    arg.maxTokens('the results', CUT),
    arg.flag('force', {
      doc: 'Answer even when the name is everywhere instead of asking you to refine (still trimmed to max_tokens)',
      cli: 'answer even for a name used everywhere instead of asking to refine',
    }),
    gateSession(),
  ],
  examples: ['sightline locate Repo', 'sightline locate Store.open --kind definition', 'sightline locate search --kind reference --scope src/cli --session task-42'],
});

export const READ = verb({
  tool: 'read',
  command: 'read',
  title: 'Read code',
  description:
    'The current text of a symbol or of a file range. target is a symbol name ("SessionManager.getUserName") or path[:start[-end]] ("src/auth/session.ts:7-11"). ' +
    'A range is widened to its enclosing function or class unless expand is false; the text is cut to max_tokens, and next_start_line says where to continue. ' +
    'Use it after search or locate instead of reading whole files; paths are relative to the repository root and cannot leave it. ' +
    'citation_status says whether the file changed since it was indexed; a span too big to answer comes back as status "refine" with narrower spans.',
  summary: 'the current text of a symbol or path[:start[-end]], widened to the enclosing block',
  guide: { when: 'read a symbol or a line range (widened to the enclosing block)', call: '{target: "SessionManager"} or {target: "src/a.ts:10-40"}' },
  args: [
    arg.text('target', {
      required: true,
      positional: { label: 'target' },
      doc: 'A symbol name, a file path, or path:start-end (1-based, inclusive)',
      example: '"src/auth/session.ts:7-11" or "SessionManager"',
    }),
    arg.flag('expand', { doc: 'Widen a line range to the enclosing function or class; false keeps the exact lines', cli: 'keep the exact line range', default: true }),
    arg.maxTokens('the text', 'the text is cut there, and next_start_line says where to continue'),
    arg.flag('force', { doc: 'Read even a span too big to answer whole, cut to max_tokens, instead of asking you to narrow it', cli: 'read even a span too big to answer whole, cut to --max-tokens' }),
    gateSession(),
  ],
  examples: ['sightline read src/cli/main.ts:10-20', 'sightline read Repo', 'sightline read README.md --max-tokens 500', 'sightline read src/big.ts --force --json'],
});

export const OUTLINE = verb({
  tool: 'outline',
  command: 'outline',
  title: 'Outline a file',
  description:
    "A file's definitions (classes, functions, methods), nested, with line spans and signatures, and no bodies. " +
    'Use it to see the shape of a file before reading parts of it with read.',
  summary: "a file's definitions, nested, with line spans",
  guide: { when: "see a file's definitions before reading it", call: '{path: "src/auth/session.ts"}' },
  args: [
    repoFile('file'),
    arg.maxTokens('the whole answer', 'definitions past it are counted in omitted', 'the answer'),
  ],
  examples: ['sightline outline src/engine/search.ts', 'sightline outline src/big.ts --max-tokens 500 --json'],
});

export const LIST_FILES = verb({
  tool: 'list_files',
  command: 'list-files',
  title: 'List indexed files',
  description:
    'The indexed files with their language, kind (code, test, doc, config, generated), lines and tokens, filtered by glob or language, in path order, ' +
    'a page at a time: when more match, next_cursor is set; pass it as cursor (with the same glob and language) for the next page. ' +
    'Use it to find files by name or path; use search to find them by content.',
  summary: 'the indexed files, by glob and language',
  guide: { when: 'find files by path or language', call: '{glob: "src/**/*.ts", language: "typescript"}' },
  args: [
    arg.text('glob', { doc: 'Only paths matching this glob, e.g. "src/**/*.ts" or "**/*test*"', cli: 'only paths matching this glob', example: '"src/**/*.ts"' }),
    arg.text('language', {
      doc: 'Only this language: typescript, javascript, python, go, rust, java, markdown, …',
      cli: 'only this language (typescript, python, go, …)',
      example: '"python"',
      metavar: 'lang',
    }),
    arg.int('max_results', { doc: 'Most files on a page', cli: 'most files on a page', example: 100, default: 200 }),
    arg.maxTokens('the page', 'the page ends where it would pass it'),
    arg.text('cursor', {
      doc: "The previous page's next_cursor, to list the files after it",
      cli: "continue after the previous page: its next_cursor, with the same --glob and --language",
      example: 'the next_cursor of the previous page',
    }),
  ],
  examples: ['sightline list-files --glob "src/**/*.ts"', 'sightline list-files --language python --json', 'sightline list-files --max-results 50 --cursor <next_cursor>'],
});

export const STATS = verb({
  tool: 'stats',
  command: 'stats',
  title: 'Index statistics',
  description:
    'What the index holds: files, chunks, symbols, languages, file kinds, files skipped by reason, size on disk and when it was last indexed. ' +
    "Use it to judge how big the repository is before broad searches. usage sums this server's answers (with a team database, every server's) over the last hour, per tool: calls, " +
    'response_tokens spent, reads_replaced_tokens (whole files delivered by context) and net_saved_tokens (their difference); answer_cache counts searches answered again from the cache.',
  summary: 'what the index holds: files, chunks, symbols, languages, size on disk',
  guide: { when: 'see what the index holds and what answering has cost and saved', call: '{}' },
  args: [],
  examples: ['sightline stats', 'sightline stats --json'],
});
