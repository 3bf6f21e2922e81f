/**
 * The tool registry: every tool the server can offer, one file each. A new
 * tool joins by adding its file and one line here.
 */
import { changedTool } from './changed.js';
import { claimStatusTool } from './claim-status.js';
import { claimTool } from './claim.js';
import { forgetTool } from './forget.js';
import { listTopicsTool } from './list-topics.js';
import { neighborsTool } from './neighbors.js';
import { recallTool } from './recall.js';
import { releaseClaimTool } from './release-claim.js';
import { rememberTool } from './remember.js';
import { renewClaimTool } from './renew-claim.js';
import { scanTool } from './scan.js';
import { updateTool } from './update.js';
import { contextTool } from './context.js';
import { exploreTool } from './explore.js';
import { healthTool } from './health.js';
import { indexStatusTool } from './index-status.js';
import { listFilesTool } from './list-files.js';
import { locateTool } from './locate.js';
import { outlineTool } from './outline.js';
import { readTool } from './read.js';
import { relatedTool } from './related.js';
import { searchTool } from './search.js';
import { startIndexTool } from './start-index.js';
import { statsTool } from './stats.js';
import { addRepoTool } from './add-repo.js';
import { listReposTool } from './list-repos.js';
import { removeRepoTool } from './remove-repo.js';
import { resetIndexTool } from './reset-index.js';
import { workspaceHealthTool } from './workspace-health.js';
import type { ToolDefinition, WorkspaceToolDefinition } from './tool.js';

export const TOOLS: ToolDefinition[] = [
  searchTool,
  contextTool,
  locateTool,
  exploreTool,
  relatedTool,
  changedTool,
  readTool,
  outlineTool,
  listFilesTool,
  healthTool,
  indexStatusTool,
  statsTool,
  recallTool,
  listTopicsTool,
  neighborsTool,
  scanTool,
  claimStatusTool,
  startIndexTool,
  rememberTool,
  updateTool,
  forgetTool,
  claimTool,
  renewClaimTool,
  releaseClaimTool,
];

/** The tools of workspace mode that work on the workspace; one named like a repository tool (health) replaces it there. */
export const WORKSPACE_TOOLS: WorkspaceToolDefinition[] = [listReposTool, workspaceHealthTool, addRepoTool, removeRepoTool, resetIndexTool];

export { defineTool, defineWorkspaceTool, strictInput, type ServerFacts, type ToolContext, type ToolDefinition, type WorkspaceContext, type WorkspaceToolDefinition } from './tool.js';
export { REPO_ARG, repoArg } from './repo-arg.js';
