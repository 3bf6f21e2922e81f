/**
 * How each MCP client is told to start sightline over stdio. Project files
 * (Claude Code, Cursor, VS Code) name the repository relative to the
 * workspace; Codex reads only the user's own config.toml (see codex.ts), so
 * its entry names the repository by absolute path.
 */
import type { Launch } from './command.js';

export const SERVER_KEY = 'sightline';

export interface ClientConfig {
  client: string;
  /** Relative to the repository root. */
  file: string;
  /** The object in that file that maps server names to servers. */
  container: 'mcpServers' | 'servers';
  entry: Record<string, unknown>;
}

/** The stdio server entry: the launch command, then `serve --repo <repo>`. */
export function serverEntry(launch: Launch, repo: string): { command: string; args: string[] } {
  return { command: launch.command, args: [...launch.args, 'serve', '--repo', repo] };
}

export function clientConfigs(launch: Launch): ClientConfig[] {
  return [
    // Claude Code starts project servers in the project directory.
    { client: 'Claude Code', file: '.mcp.json', container: 'mcpServers', entry: { type: 'stdio', ...serverEntry(launch, '.') } },
    { client: 'Cursor', file: '.cursor/mcp.json', container: 'mcpServers', entry: serverEntry(launch, '${workspaceFolder}') },
    { client: 'VS Code', file: '.vscode/mcp.json', container: 'servers', entry: { type: 'stdio', ...serverEntry(launch, '${workspaceFolder}') } },
  ];
}
