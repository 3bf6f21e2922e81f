/**
 * `sightline init`: writes the MCP wiring for one repository (.mcp.json,
 * .cursor/mcp.json, .vscode/mcp.json, the agent guide in CLAUDE.md and
 * AGENTS.md; with --codex Codex's config.toml, with --hooks a Claude Code
 * SessionStart hook). It says what it writes; --dry-run shows it and writes
 * nothing; --json prints the plan as one object.
 */
import type { Command } from 'commander';
import type { InitPlan } from '../mcp/wiring/index.js';
import { examples, fail, repoOption } from './verb.js';

interface InitFlags {
  repo: string;
  dryRun?: boolean;
  codex?: boolean;
  hooks?: boolean;
  json?: boolean;
}

const isWrite = (action: string) => action === 'create' || action === 'update';

function renderPlan(plan: InitPlan, flags: InitFlags): string {
  const dryRun = Boolean(flags.dryRun);
  const width = Math.max(...plan.files.map((f) => f.file.length));
  const verb = (action: string) => (dryRun && isWrite(action) ? `would ${action}` : action);
  const lines = [
    `${dryRun ? 'dry run, nothing written: ' : ''}MCP wiring for ${plan.root}`,
    `server command: ${[plan.launch.command, ...plan.launch.args].join(' ')} (${plan.launch.reason})`,
    ...plan.files.map((f) => `  ${verb(f.action).padEnd(14)} ${f.file.padEnd(width)}  (${f.for}) ${f.note}`),
  ];
  if (dryRun) {
    for (const f of plan.files) if (f.content !== undefined) lines.push('', `--- ${f.file} (${verb(f.action)}) ---`, f.content.trimEnd());
  }
  if (!flags.codex) lines.push('', `Codex reads ${plan.codex.file}; run init --codex to add this, or add it yourself:`, '', plan.codex.snippet.trimEnd());
  return lines.join('\n') + '\n';
}

function planJson(plan: InitPlan, flags: InitFlags): object {
  return {
    status: 'ok',
    root: plan.root,
    dry_run: Boolean(flags.dryRun),
    launch: plan.launch,
    // The new text only when nothing was written: after a write it is on disk.
    files: plan.files.map(({ content, ...f }) => ({ ...f, written: !flags.dryRun && isWrite(f.action), ...(flags.dryRun && content !== undefined ? { content } : {}) })),
    codex: { file: plan.codex.file, merged: Boolean(flags.codex), snippet: plan.codex.snippet },
  };
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('wire this repository into Claude Code, Cursor, VS Code and Codex, and tell agents which tool to use when (CLAUDE.md, AGENTS.md)')
    .addOption(repoOption())
    .option('--dry-run', 'show the changes, write nothing')
    .option('--codex', 'also add the server to Codex\'s config.toml ($CODEX_HOME, else ~/.codex), merged, never clobbered')
    .option('--hooks', 'also add a Claude Code SessionStart hook (.claude/settings.json) that briefs the agent: index health and a repository overview')
    .option('--json', 'print one JSON object instead of text')
    .addHelpText(
      'after',
      examples('sightline init', 'sightline init --dry-run', 'sightline init --codex --hooks', 'sightline init --repo ../service --json') +
        '\nThe server command is `sightline` when that is a global install of this CLI (npm link, npm install -g .), else this Node and CLI by absolute path.\n',
    )
    .action(async (o: InitFlags) => {
      try {
        // wiring/'s own door: the server, its transports and the MCP SDK are not needed to write configs.
        const [{ resolveRepoRoot }, { applyInit, planInit }] = await Promise.all([import('../engine/index.js'), import('../mcp/wiring/index.js')]);
        const plan = planInit(resolveRepoRoot(o.repo), { codex: o.codex, hooks: o.hooks });
        if (!o.dryRun) applyInit(plan);
        process.stdout.write(o.json ? JSON.stringify(planJson(plan, o)) + '\n' : renderPlan(plan, o));
      } catch (err) {
        fail(err, o.json);
      }
    });
}
