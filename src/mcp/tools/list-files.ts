import { LIST_FILES, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const listFilesTool = defineTool({
  ...toolFace(LIST_FILES),
  readsIndex: true,
  pooled: true,
  run: (a, { engine }) => engine.listFiles({ glob: a.glob, language: a.language, maxResults: a.max_results, maxTokens: a.max_tokens, cursor: a.cursor }),
});
