import { maxTokens, text } from './args.js';
import { defineTool } from './tool.js';

export const relatedTool = defineTool({
  name: 'related',
  title: 'Related files',
  description:
    "One file's neighbourhood in the code graph: the indexed files it uses (with the definitions and lines), the imports that resolve " +
    'to nothing indexed (external packages), the files that use its definitions, and the tests that cover it (test files that import it, ' +
    'or that are named after it: foo.test.ts, test_foo.py, FooTest.java, foo_test.go). The file and every file listed carry citation_status. ' +
    'Use it before editing a file to see what else to read.',
  readsIndex: true,
  guide: { when: "see a file's neighbourhood: the files it uses, the files that use it, and its tests", call: '{path: "src/store/files.ts"}' },
  inputSchema: {
    path: text('path', '"src/auth/session.ts"').describe('A file path relative to the repository root.'),
    max_tokens: maxTokens('the whole answer', 'lists are filled imports, tests, external, dependents, and what is cut is counted in omitted'),
  },
  run: (a, { engine }) => engine.related(a.path, { maxTokens: a.max_tokens }),
});
