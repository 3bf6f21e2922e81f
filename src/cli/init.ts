/**
 * `sightline init`: writes the MCP wiring for one repository (.mcp.json,
 * .cursor/mcp.json, .vscode/mcp.json, an AGENTS.md section) and prints the
 * Codex snippet. It says what it writes; --dry-run shows it and writes nothing.
 */
import type { Command } from 'commander';
import { resolveRepoRoot } from '../engine/index.js';
import { describeError, SightlineError } from '../errors/index.js';
import { applyInit, planInit, type InitPlan } from '../mcp/index.js';

function renderPlan(plan: InitPlan, dryRun: boolean): string {
  const width = Math.max(...plan.files.map((f) => f.file.length));
  const verb = (action: string) => (dryRun && (action === 'create' || action === 'update') ? `would ${action}` : action);
  const lines = [
    `${dryRun ? 'dry run, nothing written: ' : ''}MCP wiring for ${plan.root}`,
    ...plan.files.map((f) => `  ${verb(f.action).padEnd(14)} ${f.file.padEnd(width)}  (${f.for}) ${f.note}`),
  ];
  if (dryRun) {
    for (const f of plan.files) if (f.content !== undefined) lines.push('', `--- ${f.file} (${verb(f.action)}) ---`, f.content.trimEnd());
  }
  lines.push('', 'Codex reads ~/.codex/config.toml, which init leaves to you; add:', '', plan.codex.trimEnd());
  return lines.join('\n') + '\n';
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('wire this repository into Claude Code, Cursor, VS Code and Codex, and tell agents which tool to use when (AGENTS.md)')
    .option('--repo <path>', 'repository root', '.')
    .option('--dry-run', 'show the changes, write nothing')
    .addHelpText('after', '\nExamples:\n  $ sightline init --dry-run\n  $ sightline init --repo ../service\n')
    .action((o: { repo: string; dryRun?: boolean }) => {
      try {
        const plan = planInit(resolveRepoRoot(o.repo));
        if (!o.dryRun) applyInit(plan);
        process.stdout.write(renderPlan(plan, Boolean(o.dryRun)));
      } catch (err) {
        process.stderr.write(`sightline: ${describeError(err)}\n`);
        process.exit(err instanceof SightlineError ? err.exitCode : 1);
      }
    });
}
