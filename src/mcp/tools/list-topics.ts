import { listTopics } from '../../memory/index.js';
import { LIST_TOPICS, toolFace } from '../../spec/index.js';
import { defineTool } from './tool.js';

export const listTopicsTool = defineTool({
  ...toolFace(LIST_TOPICS),
  run: (_a, { engine }) => listTopics(engine.memory),
});
