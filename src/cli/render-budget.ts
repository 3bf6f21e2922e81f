/** Human-readable rendering of the budget layer's answers: refine, and context bundles. */
import type { RefineEnvelope, RefineReason } from '../budget/index.js';
import type { ContextEnvelope } from '../engine/index.js';
import { rememberedLines } from './render.js';

const indent = (text: string, pad = '    ') => text.split('\n').map((l) => pad + l).join('\n');

/** What a refusal says first: a question can be refused for being broad, or for having no match that covers it. */
const HEADLINE: Record<RefineReason, string> = { breadth: 'too broad', volume: 'too broad', compound: 'too broad', relevance: 'no strong match' };

export function renderRefine(e: RefineEnvelope): string {
  const s = e.summary;
  const lines = [
    `${HEADLINE[e.reason]} (${e.reason}): ${s.total_found} hits in ${s.files} files, about ${s.est_tokens} tokens, best relevance ${s.top_score}`,
    `  ${e.note}`,
  ];
  if (e.distribution.length) lines.push('where the hits are:', ...e.distribution.map((d) => `  ${String(d.hits).padStart(6)}  ${d.dir}`));
  lines.push('narrower calls:');
  for (const g of e.suggestions) lines.push(`  ${g.action}${g.arg ? ` ${g.arg}` : ''}  → ${g.would_yield} hits${g.est_tokens !== undefined ? `, ~${g.est_tokens} tokens` : ''}  (${g.hint})`);
  return lines.join('\n');
}

export function renderContext(e: ContextEnvelope): string {
  const lines: string[] = [];
  for (const entry of e.entries) {
    const cite = entry.citation_status === 'verified' ? '' : `  [${entry.citation_status}: ${entry.citation_note}]`;
    lines.push(`${entry.path}  ${entry.tokens}/${entry.full_read_tokens} tokens${entry.whole ? ' (whole file)' : ''}  ${entry.reasons.join(' ')}${cite}`);
    for (const u of entry.units ?? []) if (u.reasons) lines.push(`  + ${u.lines[0]}-${u.lines[1]}${u.symbol ? ` ${u.symbol}` : ''}  ${u.reasons.join(' ')}`);
    if (entry.content !== undefined) lines.push(indent(entry.content));
  }
  for (const r of e.reused) lines.push(`reused: ${r.path} (${r.whole ? 'whole file' : `${r.units} units`})`);
  lines.push(...rememberedLines(e.memory));
  const tail = [`${e.response_tokens} of ${e.budget_tokens} tokens, detail ${e.detail}`];
  if (e.omitted) tail.push(`${e.omitted} more files did not fit`);
  if (e.retry_budget_tokens !== undefined) tail.push(`retry with --budget ${e.retry_budget_tokens}`);
  if (e.note) tail.push(e.note);
  lines.push(tail.join('; '));
  return lines.join('\n');
}
