import { CHANGED, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const changedTool = defineTool({
  ...toolFace(CHANGED),
  readsIndex: true,
  run: (a, { engine }) => engine.changed(a.path, { maxTokens: a.max_tokens }),
});
