import { LIST_FILES, toolFace } from '../../spec/index.js';
import { POOLED_BODIES } from './pooled.js';
import { defineTool } from './tool.js';

export const listFilesTool = defineTool({
  ...toolFace(LIST_FILES),
  readsIndex: true,
  pooled: true,
  run: POOLED_BODIES.list_files,
});
