/**
 * `sightline workspace list|add|remove|reset`: the workspace tools of
 * `serve --workspace`, from the command line. They edit the same registry
 * (a running server follows it) and index in the foreground. Exit codes:
 * 0 ok, 2 usage (a path outside the root, an id registered elsewhere),
 * 3 an unreadable index, 4 the disk refused, 1 anything else.
 */
import { Option, type Command } from 'commander';
import type { AddRequest, RepoRow, Workspace } from '../workspace/index.js';
import { ADD_REPO, addVerb, LIST_REPOS, REMOVE_REPO, RESET_INDEX, wireArgs } from '../spec/cli.js';
import { embedderFlags, embedderOptions, emit, examples, fail, storeOption, walkFilters, type EmbedderFlags, type WalkFilterFlags } from './verb.js';

const WORKSPACE_ENV = 'SIGHTLINE_WORKSPACE';

interface WorkspaceFlags extends EmbedderFlags {
  workspace: string;
  json?: boolean;
  store?: string;
}

function workspaceOptions(cmd: Command): Command {
  return storeOption(embedderOptions(cmd))
    .addOption(new Option('--workspace <root>', 'the workspace root').env(WORKSPACE_ENV).default('.'))
    .option('--json', 'one JSON object on stdout');
}

async function withWorkspace(o: WorkspaceFlags, body: (workspace: Workspace) => Promise<void>): Promise<void> {
  let workspace: Workspace | undefined;
  try {
    const { Workspace } = await import('../workspace/index.js');
    workspace = await Workspace.open({ root: o.workspace, flags: { ...embedderFlags(o), databaseUrl: o.store }, live: false, warn: (m) => process.stderr.write(`sightline: warning: ${m}\n`) });
    await body(workspace);
    await workspace.close();
  } catch (err) {
    await workspace?.close().catch(() => {});
    fail(err, o.json);
  }
}

const dash = (v: unknown) => (v === null || v === undefined ? '-' : String(v));

function renderList(answer: { workspace: string; repos: RepoRow[] }): string {
  if (answer.repos.length === 0) return `no repository is registered in ${answer.workspace}; add one with \`sightline workspace add <path>\``;
  const rows = answer.repos.map((r) => [r.id, r.source, dash(r.file_count), dash(r.vector_count), dash(r.last_verified), dash(r.indexed_commit?.slice(0, 12)), dash(r.indexed_root)]);
  const table = [['id', 'source', 'files', 'vectors', 'last verified', 'commit', 'indexed root'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function registerWorkspace(program: Command): void {
  program
    .command('workspace')
    .description('the repositories of a workspace (serve --workspace): list, add, remove, reset')
    .addHelpText('after', examples('sightline workspace list --workspace ~/src', 'sightline workspace add services/api --workspace ~/src', 'sightline workspace add --git https://example.com/team/web.git --ref main --refresh 10m'));

  workspaceOptions(addVerb(program, LIST_REPOS)).action(async (o: WorkspaceFlags) => {
    await withWorkspace(o, async (workspace) => {
      const repos = await workspace.list();
      emit(o, { status: 'ok', workspace: workspace.root, count: repos.length, repos }, renderList);
    });
  });

  workspaceOptions(addVerb(program, ADD_REPO)).action(async (dir: string | undefined, o: WorkspaceFlags & WalkFilterFlags) => {
    // A re-add without --no-gitignore keeps what the repository was registered with: the default is not sent.
    const request: AddRequest = { ...wireArgs(ADD_REPO, [dir], o), gitignore: walkFilters(o).gitignore };
    await withWorkspace(o, async (workspace) => {
      const added = await workspace.add(request, { wait: true });
      emit(o, added, (a) => `${a.created ? 'added' : 'updated'} ${a.repo} (${a.indexed_root})`);
    });
  });

  workspaceOptions(addVerb(program, REMOVE_REPO)).action(async (id: string, o: WorkspaceFlags) => {
    await withWorkspace(o, async (workspace) => emit(o, await workspace.remove(id), (a) => (a.removed ? `removed ${id}` : `no repository ${id}; nothing to remove`)));
  });

  workspaceOptions(addVerb(program, RESET_INDEX)).action(async (id: string, o: WorkspaceFlags) => {
    await withWorkspace(o, async (workspace) => emit(o, await workspace.reset(id, { wait: true }), (a) => (a.existed ? `reset ${id}; its memory was kept` : `no index for ${id}; nothing to reset`)));
  });
}
