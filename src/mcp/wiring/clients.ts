/**
 * How each MCP client is told to start sightline over stdio. Project files
 * (Claude Code, Cursor, VS Code) name the repository relative to the
 * workspace, so they can be committed; Codex reads only the user's own
 * ~/.codex/config.toml, so it gets a snippet with the absolute path.
 */
export const SERVER_KEY = 'sightline';
export const COMMAND = 'sightline';

export interface ClientConfig {
  client: string;
  /** Relative to the repository root. */
  file: string;
  /** The object in that file that maps server names to servers. */
  container: 'mcpServers' | 'servers';
  entry: Record<string, unknown>;
}

export const CLIENT_CONFIGS: ClientConfig[] = [
  // Claude Code starts project servers in the project directory.
  { client: 'Claude Code', file: '.mcp.json', container: 'mcpServers', entry: { type: 'stdio', command: COMMAND, args: ['serve', '--repo', '.'] } },
  { client: 'Cursor', file: '.cursor/mcp.json', container: 'mcpServers', entry: { command: COMMAND, args: ['serve', '--repo', '${workspaceFolder}'] } },
  { client: 'VS Code', file: '.vscode/mcp.json', container: 'servers', entry: { type: 'stdio', command: COMMAND, args: ['serve', '--repo', '${workspaceFolder}'] } },
];

export function codexSnippet(root: string): string {
  return [`[mcp_servers.${SERVER_KEY}]`, `command = "${COMMAND}"`, `args = ["serve", "--repo", ${JSON.stringify(root)}]`, ''].join('\n');
}
