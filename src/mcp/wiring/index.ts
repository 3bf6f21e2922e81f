/**
 * `sightline init`: the MCP wiring for one repository, planned first (so
 * --dry-run can show it) and then written. It writes only the files listed in
 * the plan and says what it writes: the client configs, the agent guide in
 * CLAUDE.md and AGENTS.md, and on request the Codex config and a Claude Code
 * SessionStart hook.
 */
import fs from 'node:fs';
import path from 'node:path';
import { agentGuide, GUIDE_FILES, upsertSection } from './agents-md.js';
import { hookCommand, HOOK_FILE, mergeSessionHook } from './claude-hooks.js';
import { clientConfigs, serverEntry } from './clients.js';
import { codexConfigPath, codexTable, mergeCodexConfig } from './codex.js';
import { CLI_PATH, resolveLaunch, startable, type Launch } from './command.js';
import { mergeServerEntry } from './json-config.js';
import type { FileChange } from './jsonc.js';

export { agentGuide, BEGIN_MARKER, END_MARKER } from './agents-md.js';
export { BRIEF_VERB } from './claude-hooks.js';
export { CLI_PATH, resolveLaunch, type Launch } from './command.js';

export interface PlannedFile extends FileChange {
  /** Relative to the repository root, or absolute for a file outside it (Codex's). */
  file: string;
  /** Who reads it: a client name or "agents". */
  for: string;
}

export interface InitOptions {
  /** Merge the server into Codex's config.toml (otherwise the plan carries the snippet). */
  codex?: boolean;
  /** Install the Claude Code SessionStart hook. */
  hooks?: boolean;
  /** PATH, HOME and CODEX_HOME come from here. */
  env?: NodeJS.ProcessEnv;
  launch?: Launch;
}

export interface InitPlan {
  root: string;
  /** How clients start the server, and why that form. */
  launch: Launch;
  files: PlannedFile[];
  /** The Codex table, for the user to add by hand when --codex was not given. */
  codex: { file: string; snippet: string };
}

function readIfExists(abs: string): string | null {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export function planInit(root: string, options: InitOptions = {}): InitPlan {
  const env = options.env ?? process.env;
  const launch = options.launch ?? resolveLaunch({ path: env.PATH, node: process.execPath, cli: CLI_PATH });
  const inRepo = (file: string) => readIfExists(path.join(root, file));
  const files: PlannedFile[] = clientConfigs(launch).map((config) => ({ file: config.file, for: config.client, ...mergeServerEntry(inRepo(config.file), config, (command) => startable(command, env.PATH)) }));
  const guide = agentGuide();
  for (const g of GUIDE_FILES) files.push({ file: g.file, for: g.for, ...upsertSection(inRepo(g.file), guide) });
  if (options.hooks) files.push({ file: HOOK_FILE, for: 'Claude Code', ...mergeSessionHook(inRepo(HOOK_FILE), hookCommand(launch)) });
  const codexFile = codexConfigPath(env);
  const codexEntry = serverEntry(launch, root);
  if (options.codex) files.push({ file: codexFile, for: 'Codex', ...mergeCodexConfig(readIfExists(codexFile), codexEntry) });
  return { root, launch, files, codex: { file: codexFile, snippet: codexTable(codexEntry) } };
}

/** Writes every created or updated file of the plan; returns those it wrote. */
export function applyInit(plan: InitPlan): PlannedFile[] {
  const written = plan.files.filter((f) => f.content !== undefined && (f.action === 'create' || f.action === 'update'));
  for (const f of written) {
    const abs = path.resolve(plan.root, f.file);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, f.content!);
  }
  return written;
}
