import { maxTokens, text } from './args.js';
import { defineTool } from './tool.js';

export const outlineTool = defineTool({
  name: 'outline',
  title: 'Outline a file',
  description:
    "A file's definitions (classes, functions, methods), nested, with line spans and signatures, and no bodies. " +
    'Use it to see the shape of a file before reading parts of it with read.',
  readsIndex: true,
  guide: { when: "see a file's definitions before reading it", call: '{path: "src/auth/session.ts"}' },
  inputSchema: {
    path: text('path', '"src/auth/session.ts"').describe('A file path relative to the repository root.'),
    max_tokens: maxTokens('the whole answer', 'definitions past it are counted in omitted'),
  },
  run: (a, { engine }) => engine.outline(a.path, { maxTokens: a.max_tokens }),
});
