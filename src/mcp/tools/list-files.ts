import { maxTokens, optionalText, positiveInt } from './args.js';
import { defineTool } from './tool.js';

export const listFilesTool = defineTool({
  name: 'list_files',
  title: 'List indexed files',
  description:
    'The indexed files with their language, kind (code, test, doc, config, generated), lines and tokens, filtered by glob or language, in path order, ' +
    'a page at a time: when more match, next_cursor is set; pass it as cursor (with the same glob and language) for the next page. ' +
    'Use it to find files by name or path; use search to find them by content.',
  readsIndex: true,
  guide: { when: 'find files by path or language', call: '{glob: "src/**/*.ts", language: "typescript"}' },
  inputSchema: {
    glob: optionalText('glob', '"src/**/*.ts"').describe('Only paths matching this glob, e.g. "src/**/*.ts" or "**/*test*".'),
    language: optionalText('language', '"python"').describe('Only this language: typescript, javascript, python, go, rust, java, markdown, …'),
    max_results: positiveInt('max_results', 100).describe('Most files on a page (default 200).'),
    max_tokens: maxTokens('the page', 'the page ends where it would pass it'),
    cursor: optionalText('cursor', 'the next_cursor of the previous page').describe("The previous page's next_cursor, to list the files after it."),
  },
  run: (a, { engine }) => engine.listFiles({ glob: a.glob, language: a.language, maxResults: a.max_results, maxTokens: a.max_tokens, cursor: a.cursor }),
});
