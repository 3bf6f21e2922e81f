import { OUTLINE, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const outlineTool = defineTool({
  ...toolFace(OUTLINE),
  readsIndex: true,
  pooled: true,
  run: (a, { engine }) => engine.outline(a.path, { maxTokens: a.max_tokens }),
});
