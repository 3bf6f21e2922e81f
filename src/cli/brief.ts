/**
 * `sightline brief`: the index's health and a one-screen overview of the
 * repository, for an agent starting a session (init --hooks runs it from
 * Claude Code's SessionStart hook, whose stdout becomes the agent's context).
 * So it always exits 0 and says any problem on stdout, where the agent sees it.
 */
import type { Command } from 'commander';
import type { BriefEnvelope, Engine } from '../engine/index.js';
import { describeError } from '../errors/index.js';
import { common, embedderFlags, emit, examples, type CommonOptions } from './verb.js';

const TOP = 6;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const counts = (r: Record<string, number>) => Object.entries(r).map(([k, n]) => `${k} ${n}`).join(', ');

function renderBrief(b: BriefEnvelope): string {
  const h = b.health;
  const indexed = h.last_indexed_at ? `, indexed ${h.last_indexed_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}` : '';
  const lines = [`sightline index for ${h.repo}: ${h.index}${h.files !== null ? ` (${plural(h.files, 'file')}${indexed})` : ''}`];
  if (b.next) lines.push(`  ${b.next}`);
  for (const p of h.problems) lines.push(`  problem: ${p}`);
  const o = b.overview;
  if (o) {
    lines.push(`repository${o.scope ? ` (mostly ${o.scope}/)` : ''}: ${plural(o.files, 'file')} (${counts(o.by_kind)}); code in ${counts(o.languages) || 'no language'}`);
    if (o.modules.length) lines.push(`main modules: ${o.modules.slice(0, TOP).map((m) => `${m.path} (${m.files} files, ${m.dependents} dependents)`).join(', ')}`);
    if (o.entry_points.length) lines.push(`entry points: ${o.entry_points.slice(0, TOP).map((e) => e.path).join(', ')}`);
    if (o.most_depended_on.length) lines.push(`most used: ${o.most_depended_on.slice(0, TOP).map((s) => `${s.symbol} (${s.path}:${s.start_line}, ${plural(s.dependent_files, 'file')})`).join(', ')}`);
  }
  lines.push('Ask the sightline MCP tools (locate, search, context, explore, read) before grep or cat; CLAUDE.md says which to use when.');
  return lines.join('\n');
}

export function registerBrief(program: Command): void {
  common(
    program
      .command('brief')
      .description("for an agent starting a session: the index's health and the repository at a glance; never indexes, always exits 0")
      .addHelpText('after', examples('sightline brief', 'sightline brief --repo ../service --json') + '\n`sightline init --hooks` runs it when a Claude Code session starts.\n'),
  ).action(async (o: CommonOptions) => {
    let engine: Engine | undefined;
    try {
      const { openEngine } = await import('../engine/index.js');
      engine = openEngine(o.repo, { configPath: o.config, flags: embedderFlags(o) });
      emit(o, await engine.brief(), renderBrief);
    } catch (err) {
      // Still stdout and exit 0: the session goes on, and the agent learns why there is no brief.
      const message = describeError(err);
      emit(o, { status: 'error', error: message }, () => `sightline brief: ${message}`);
    } finally {
      await engine?.close();
    }
  });
}
