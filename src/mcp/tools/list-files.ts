import { listFiles } from '../../engine/index.js';
import { optionalText, positiveInt } from './args.js';
import { defineTool } from './tool.js';

export const listFilesTool = defineTool({
  name: 'list_files',
  title: 'List indexed files',
  description:
    'The indexed files with their language, kind (code, test, doc, config, generated), lines and tokens, filtered by glob or language. ' +
    'Use it to find files by name or path; use search to find them by content.',
  readsIndex: true,
  guide: { when: 'find files by path or language', call: '{glob: "src/**/*.ts", language: "typescript"}' },
  inputSchema: {
    glob: optionalText('glob', '"src/**/*.ts"').describe('Only paths matching this glob, e.g. "src/**/*.ts" or "**/*test*".'),
    language: optionalText('language', '"python"').describe('Only this language: typescript, javascript, python, go, rust, java, markdown, …'),
    max_results: positiveInt('max_results', 100).describe('Cap on files listed (default 200); truncated says whether more matched.'),
  },
  run: (a, { repo }) => listFiles(repo, { glob: a.glob, language: a.language, maxResults: a.max_results }),
});
