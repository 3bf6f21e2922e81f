/**
 * `sightline init`: the MCP wiring for one repository, planned first (so
 * --dry-run can show it) and then written. It writes only the files listed in
 * the plan and says what it writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { upsertSection } from './agents-md.js';
import { CLIENT_CONFIGS, codexSnippet } from './clients.js';
import { mergeServerEntry } from './json-config.js';

export { AGENTS_SECTION, BEGIN_MARKER, END_MARKER } from './agents-md.js';

export interface PlannedFile {
  /** Relative to the repository root. */
  file: string;
  /** Who reads it: a client name or "agents". */
  for: string;
  action: 'create' | 'update' | 'keep' | 'skip';
  content?: string;
  note: string;
}

export interface InitPlan {
  root: string;
  files: PlannedFile[];
  /** For the user's ~/.codex/config.toml, which init never edits. */
  codex: string;
}

function readIfExists(abs: string): string | null {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export function planInit(root: string): InitPlan {
  const files: PlannedFile[] = CLIENT_CONFIGS.map((config) => ({
    file: config.file,
    for: config.client,
    ...mergeServerEntry(readIfExists(path.join(root, config.file)), config),
  }));
  files.push({ file: 'AGENTS.md', for: 'agents', ...upsertSection(readIfExists(path.join(root, 'AGENTS.md'))) });
  return { root, files, codex: codexSnippet(root) };
}

/** Writes every created or updated file of the plan; returns those it wrote. */
export function applyInit(plan: InitPlan): PlannedFile[] {
  const written = plan.files.filter((f) => f.content !== undefined && (f.action === 'create' || f.action === 'update'));
  for (const f of written) {
    const abs = path.join(plan.root, f.file);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, f.content!);
  }
  return written;
}
