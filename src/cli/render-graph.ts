/** Human-readable rendering of the code graph's answers: explore, related, changed. */
import type { ChangedEnvelope, ExploreEnvelope, ExploreOverviewEnvelope, GraphPendingField, RelatedEnvelope } from '../engine/index.js';
import type { Citation } from '../cite/index.js';
import { citeMark as cite, omittedNote } from './render.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function renderExplore(e: ExploreEnvelope | ExploreOverviewEnvelope): string {
  if (e.relation === 'overview') return renderOverview(e);
  const anchor = e.anchor.matches.map((m) => `${m.symbol ?? m.path} (${m.path}:${m.start_line})`).join(', ');
  const head = [`${e.relation} of ${anchor}, depth ${e.depth}: ${plural(e.total, 'hit')} in ${plural(e.files, 'file')}${e.chosen_by ? `  (${e.chosen_by})` : ''}`];
  const lines = [...head];
  let lastPath = '';
  for (const r of e.results as (ExploreEnvelope['results'][number] & Partial<Citation>)[]) {
    if (r.path !== lastPath) lines.push(r.path);
    lastPath = r.path;
    const who = r.symbol ?? '(top level)';
    const how = `${r.kind}${r.confidence ? `/${r.confidence}` : ''}${r.resolution === 'ambiguous' ? ` ambiguous:${r.candidates}` : ''}`;
    lines.push(`  ${String(r.start_line).padStart(5)}  ${who}  [${how}, depth ${r.depth}]${cite(r)}`);
    if (r.snippet) lines.push(`         ${r.snippet}`);
    if (r.depth > 1) lines.push(`         via ${r.via.map((h) => `${h.from} -${h.kind}-> ${h.to}`).join(' ; ')}`);
  }
  if (e.omitted) lines.push(`${e.omitted} more did not fit the token budget`);
  if (e.total > e.results.length + (e.omitted ?? 0)) lines.push(`${e.total - e.results.length - (e.omitted ?? 0)} more past --max-results`);
  if (e.by_file_omitted) lines.push(`${e.by_file_omitted} more files in by_file (--json) did not fit the token budget`);
  if (e.unresolved?.length) lines.push(`unresolved (external or not indexed): ${e.unresolved.map((u) => u.name).slice(0, 30).join(', ')}${e.unresolved_omitted ? ` and ${e.unresolved_omitted} more` : ''}`);
  if (e.truncated) lines.push('the walk stopped at its node limit: the answer is partial');
  lines.push(...pendingNote(e));
  return lines.join('\n');
}

function renderOverview(e: ExploreOverviewEnvelope): string {
  const lines = [`overview of ${e.scope || 'the repository'}: ${plural(e.files, 'file')} (${Object.entries(e.by_kind).map(([k, n]) => `${n} ${k}`).join(', ')})`];
  lines.push('main modules (files, dependents, dependencies):');
  for (const m of e.modules) lines.push(`  ${m.path}  ${m.files} files, ${m.dependents} dependents, ${m.dependencies} dependencies`);
  lines.push('entry points:', ...e.entry_points.map((p) => `  ${p.path}  (${p.reason})`));
  lines.push('most depended on:', ...e.most_depended_on.map((s) => `  ${s.symbol} ${s.kind}  ${s.path}:${s.start_line}  (${plural(s.dependent_files, 'file')})`));
  lines.push('module dependencies:', ...e.module_dependencies.map((d) => `  ${d.from} -> ${d.to}  (${plural(d.references, 'reference')})`));
  return lines.join('\n');
}

function files(title: string, list: RelatedEnvelope['imports']): string[] {
  if (list.length === 0) return [`${title}: none`];
  return [`${title}:`, ...list.map((f) => `  ${f.path}  ${f.kinds.join(',')} lines ${f.lines.slice(0, 8).join(',')}${f.lines.length > 8 ? ',…' : ''}${f.symbols.length ? `  ${f.symbols.slice(0, 5).join(', ')}${f.symbols.length > 5 ? ', …' : ''}` : ''}${cite(f)}`)];
}

export function renderRelated(e: RelatedEnvelope): string {
  const lines = [`${e.path}${e.language ? ` (${e.language})` : ''}${cite(e)}`, ...files('uses', e.imports)];
  if (e.external.length) lines.push(`external: ${e.external.map((x) => x.module).join(', ')}`);
  lines.push(...files('used by', e.dependents));
  lines.push(e.tests.length ? 'tests:' : 'tests: none found', ...e.tests.map((t) => `  ${t.path}  (${t.reasons.join(', ')})${cite(t)}`));
  return [...lines, ...pendingNote(e), ...omittedNote(e)].join('\n');
}

/** A graph answer read while an index pass had references unresolved may lack them. */
function pendingNote(e: GraphPendingField): string[] {
  return e.graph_pending ? [`${plural(e.graph_pending, 'reference')} not resolved yet (an index pass is writing or was stopped): this answer may lack them; ask again once \`sightline status\` says completed`] : [];
}

export function renderChanged(e: ChangedEnvelope): string {
  const lines = [`since the index${e.scope ? ` (under ${e.scope})` : ''}: ${e.added.length} added, ${e.modified.length} modified, ${e.removed.length} removed, ${e.unchanged} unchanged`];
  for (const [mark, list] of [['A', e.added], ['M', e.modified], ['D', e.removed]] as const) for (const p of list) lines.push(`  ${mark} ${p}`);
  if (e.impact.length) {
    lines.push('indexed files that depend on them:');
    for (const i of e.impact) lines.push(`  ${i.path}  → ${i.depends_on.join(', ')}  (lines ${i.lines.slice(0, 8).join(',')})${cite(i)}`);
  }
  return [...lines, ...omittedNote(e, 'raise --max-tokens, or pass a path')].join('\n');
}
