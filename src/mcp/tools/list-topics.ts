import { listTopics } from '../../memory/index.js';
import { defineTool } from './tool.js';

export const listTopicsTool = defineTool({
  name: 'list_topics',
  title: 'List memory topics',
  description: 'The memory topics of this repository, each with its count of live records: what notes and decisions exist before recalling them.',
  guide: { when: 'see what memory exists for this repository', call: '{}' },
  inputSchema: {},
  run: (_a, { engine }) => listTopics(engine.memory),
});
