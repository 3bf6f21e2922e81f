/**
 * Codex reads MCP servers from the user's own config.toml ($CODEX_HOME, else
 * ~/.codex), not from the project, so its entry names the repository by
 * absolute path. The file is merged as text, never re-serialised: the table
 * is appended, so the user's comments and formatting survive; the file is
 * checked as TOML before (invalid TOML is left alone) and after.
 */
import os from 'node:os';
import path from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import { SERVER_KEY } from './clients.js';
import { isObject, type FileChange } from './jsonc.js';

export function codexConfigPath(env: NodeJS.ProcessEnv): string {
  const home = env.CODEX_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), '.codex');
  return path.join(home, 'config.toml');
}

/** The `[mcp_servers.sightline]` table as TOML text. */
export function codexTable(entry: { command: string; args: string[] }): string {
  return stringify({ mcp_servers: { [SERVER_KEY]: entry } }).trim() + '\n';
}

function tomlProblem(text: string): string | null {
  try {
    parse(text);
    return null;
  } catch (err) {
    const where = err instanceof TomlError ? ` at line ${err.line}, column ${err.column}` : '';
    return `not valid TOML${where}`;
  }
}

function sightlineServer(text: string): unknown {
  const servers = (parse(text) as Record<string, unknown>).mcp_servers;
  return isObject(servers) ? servers[SERVER_KEY] : undefined;
}

export function mergeCodexConfig(existing: string | null, entry: { command: string; args: string[] }): FileChange {
  const table = codexTable(entry);
  if (existing === null || existing.trim() === '') return { action: 'create', content: table, note: `adds [mcp_servers.${SERVER_KEY}]` };
  const byHand = `add by hand:\n${table}`;
  const before = tomlProblem(existing);
  if (before) return { action: 'skip', note: `${before}, left untouched; fix it, then run init --codex again, or ${byHand}` };
  const current = sightlineServer(existing);
  if (current !== undefined) {
    const args: unknown[] = isObject(current) && Array.isArray(current.args) ? current.args : [];
    const repo = args.includes('--repo') ? args[args.indexOf('--repo') + 1] : undefined;
    return { action: 'keep', note: `already has [mcp_servers.${SERVER_KEY}]${typeof repo === 'string' ? ` (for ${repo})` : ''}, kept as it is` };
  }
  const separator = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  const content = existing + separator + table;
  // Appending can still clash (an inline `mcp_servers = {…}` cannot be extended): check the result says what was meant.
  const after = tomlProblem(content);
  if (after || JSON.stringify(sightlineServer(content)) !== JSON.stringify(entry)) {
    return { action: 'skip', note: `appending the table would not give valid TOML (${after ?? 'the table did not take'}), left untouched; ${byHand}` };
  }
  return { action: 'update', content, note: `appends [mcp_servers.${SERVER_KEY}]; the rest of the file is unchanged` };
}
