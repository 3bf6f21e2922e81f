/** The code graph's verbs: explore, related, changed. */
import { EXPLORE_RELATIONS, MAX_DEPTH } from '../engine/limits.js';
import { arg, verb } from './define.js';
import { gateSession, repoFile } from './retrieval.js';

export const EXPLORE = verb({
  tool: 'explore',
  command: 'explore',
  title: 'Explore the code graph',
  description:
    'Structural questions answered from resolved references, without reading files: who calls a function (callers), what it calls ' +
    '(callees), what a file or symbol uses (dependencies) and what uses it (dependents), everything that transitively depends on it ' +
    '(impact: the blast radius of a change, grouped by file, each hit with the chain of edges linking it to the anchor), or an overview ' +
    'of a directory (main modules, entry points, most depended-on symbols, module dependencies). Each hit says how its edge resolved: ' +
    'exact (same scope), import (through an import) or name (by name only; ambiguous when several definitions match). ' +
    'A very large answer comes back as status "refine" with where the hits are and narrower calls.',
  summary: 'structure from the code graph: callers, callees, dependencies, dependents, impact (blast radius) or an overview (indexes on first use)',
  guide: {
    when: 'follow the code graph: callers, callees, dependencies, dependents, blast radius, or an overview of a directory',
    call: '{question: "who calls parseFile"} or {relation: "overview", scope: "src"}',
  },
  args: [
    arg.text('question', {
      positional: { label: 'question', variadic: true },
      doc: 'The question in words; with relation auto it picks the relation, and the anchor when none is given',
      example: '"what breaks if I change Store.putFile"',
    }),
    arg.choice('relation', EXPLORE_RELATIONS, {
      doc: 'callers, callees, dependencies, dependents, impact, overview or auto',
      cli: 'what to follow; auto reads it from the question',
      default: 'auto',
    }),
    arg.text('anchor', {
      doc: 'The symbol ("Class.method", "parse_request") or file path the question is about; for overview, the directory',
      cli: 'the symbol ("Store.open") or file the question is about; read from the question when left out',
      example: '"Store.putFile" or "src/store/files.ts"',
      metavar: 'symbol-or-path',
    }),
    arg.int('depth', { doc: 'Levels of edges to follow', cli: 'levels of edges to follow', example: 2, default: 1, atMost: MAX_DEPTH }),
    arg.text('scope', {
      doc: 'Only hits under this directory or glob; for overview, the directory to summarise',
      cli: 'only hits under this directory or glob (overview: the directory to summarise)',
      example: '"src/server"',
      metavar: 'dir-or-glob',
    }),
    arg.int('max_results', { doc: 'Cap on hits', cli: 'cap on hits', example: 20, default: 50 }),
    arg.maxTokens(
      'the hits, by_file and unresolved',
      'by_file and unresolved take at most a quarter, nearest files first, the hits the rest; what is cut is counted in omitted, by_file_omitted and unresolved_omitted',
      'the hits, with by_file and unresolved (at most a quarter)',
    ),
    arg.flag('force', {
      doc: 'Answer even a huge blast radius instead of asking you to refine (still trimmed to max_tokens)',
      cli: 'answer even a huge blast radius instead of asking to refine it',
    }),
    gateSession(),
  ],
  examples: [
    'sightline explore "who calls parseFile"',
    'sightline explore --relation callees --anchor Store.putFile',
    'sightline explore --relation impact --anchor src/store/files.ts --depth 3',
    'sightline explore --relation overview --scope src/engine --json',
  ],
});

export const RELATED = verb({
  tool: 'related',
  command: 'related',
  title: 'Related files',
  description:
    "One file's neighbourhood in the code graph: the indexed files it uses (with the definitions and lines), the imports that resolve " +
    'to nothing indexed (external packages), the files that use its definitions, and the tests that cover it (test files that import it, ' +
    'or that are named after it: foo.test.ts, test_foo.py, FooTest.java, foo_test.go). The file and every file listed carry citation_status. ' +
    'Use it before editing a file to see what else to read.',
  summary: "a file's neighbourhood: the files it uses, the files that use it, and the tests that cover it (indexes on first use)",
  guide: { when: "see a file's neighbourhood: the files it uses, the files that use it, and its tests", call: '{path: "src/store/files.ts"}' },
  args: [
    repoFile('path'),
    arg.maxTokens('the whole answer', 'lists are filled imports, tests, external, dependents, and what is cut is counted in omitted', 'the answer'),
  ],
  examples: ['sightline related src/store/files.ts', 'sightline related app/models/user.py --json --max-tokens 2000'],
});

export const CHANGED = verb({
  tool: 'changed',
  command: 'changed',
  title: 'Changed since the index',
  description:
    'Files added, modified and removed since the repository was indexed (content digests, no git needed; untouched files are settled ' +
    'by a stat), plus the indexed files that depend on the modified or removed ones: the blast radius of the edits before re-indexing, ' +
    'each with citation_status. ' +
    'A path restricts the report to that directory; a path outside the repository is refused.',
  summary: 'files added, modified and removed since the index (no git needed), and the indexed files that depend on them',
  guide: { when: 'see which files changed since the index, and which indexed files depend on them', call: '{path: "src/auth"}' },
  args: [
    arg.text('path', {
      positional: { label: 'path' },
      doc: 'A directory or file inside the repository to restrict the report to (default: the whole repository)',
      example: '"src/auth"',
    }),
    arg.maxTokens('the whole answer', 'lists are filled added, modified, removed, impact, and what is cut is counted in omitted', 'the answer'),
  ],
  examples: ['sightline changed', 'sightline changed src/auth --json --max-tokens 2000'],
});
