import { READ, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const readTool = defineTool({
  ...toolFace(READ),
  readsIndex: true,
  pooled: true,
  run: (a, { engine, session }) => engine.read({ target: a.target, expand: a.expand ?? true, maxTokens: a.max_tokens, force: a.force, session }),
});
