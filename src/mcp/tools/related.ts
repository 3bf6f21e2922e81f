import { RELATED, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const relatedTool = defineTool({
  ...toolFace(RELATED),
  readsIndex: true,
  run: (a, { engine }) => engine.related(a.path, { maxTokens: a.max_tokens }),
});
