/** Human-readable rendering of engine answers. JSON output bypasses this. */
import type { FitFields } from '../budget/index.js';
import type { Citation } from '../cite/index.js';
import type { MemoryHit } from '../memory/index.js';
import type {
  DryRunReport,
  IndexSummary,
  ListFilesEnvelope,
  LocateEnvelope,
  OutlineEnvelope,
  ReadEnvelope,
  SearchEnvelope,
  StatsEnvelope,
} from '../engine/index.js';
import { describeSkips } from '../walk/skips.js'; // a leaf: rendering stays on the CLI's start path without the walker

const indent = (text: string, pad = '    ') => text.split('\n').map((l) => pad + l).join('\n');

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

/** A mark after a cited location that is not verified: `  [stale]`. */
export function citeMark(c: Partial<Citation>): string {
  return c.citation_status && c.citation_status !== 'verified' ? `  [${c.citation_status}]` : '';
}

/** The why under a mark: the note, on its own line. */
function citeNote(c: Partial<Citation>, pad = '    '): string[] {
  return c.citation_status && c.citation_status !== 'verified' && c.citation_note ? [`${pad}${c.citation_status}: ${c.citation_note}`] : [];
}

/** What a fitted answer left out, per list, and the flag that gets more. */
export function omittedNote(e: FitFields, how = 'raise --max-tokens for more'): string[] {
  const parts = Object.entries(e.omitted ?? {}).map(([list, n]) => `${n} ${list.replace(/_/g, ' ')}`);
  return parts.length ? [`… left out to fit the token budget: ${parts.join(', ')} (${how})`] : [];
}

export function renderIndexSummary(s: IndexSummary): string {
  return [
    `indexed in ${(s.elapsedMs / 1000).toFixed(2)}s: ${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged`,
    `  ${s.chunks} chunks, ${s.symbols} symbols written; ${describeSkips(s.skipped)}`,
  ].join('\n');
}

type Cited<T> = T & Partial<Citation>;

function renderItems(items: Cited<SearchEnvelope['results'][number]>[], score: boolean): string[] {
  return items.map((r) => {
    const where = `${r.path}:${r.start_line}-${r.end_line}`;
    const head = `${where}${r.symbol ? `  ${r.symbol}` : ''}  ${score ? `[${r.score}] ` : ''}${r.reasons.join(' ')}${citeMark(r)}`;
    return [head, ...citeNote(r), ...(r.snippet ? [indent(r.snippet)] : [])].join('\n');
  });
}

export function renderSearch(e: Omit<SearchEnvelope, 'results'> & { results: Cited<SearchEnvelope['results'][number]>[]; expansions?: Cited<SearchEnvelope['results'][number]>[]; memory?: MemoryHit[] }): string {
  if (e.results.length === 0) return `no results for "${e.query}"`;
  const lines = renderItems(e.results, true);
  if (e.expansions?.length) lines.push('expanded:', ...renderItems(e.expansions, false));
  lines.push(...rememberedLines(e.memory));
  return lines.join('\n');
}

/** What agents remembered, under a search or a context bundle: one line per entry, `recall` its key for the rest. */
export function rememberedLines(memory: MemoryHit[] | undefined): string[] {
  if (!memory?.length) return [];
  return ['remembered:', ...memory.map((m) => `  ${m.key}  ${m.title ?? m.snippet.split('\n')[0]}  (${m.kind})`)];
}

export function renderLocate(e: LocateEnvelope): string {
  if (e.results.length === 0) return `nothing named "${e.query}"`;
  const unread = e.unread_files
    ? [`${e.unread_files} more file${e.unread_files === 1 ? ' says' : 's say'} the word, not checked for further mentions: raise --max-results or narrow --scope`]
    : [];
  return (e.results as Cited<LocateEnvelope['results'][number]>[])
    .flatMap((r) => [`${r.kind.padEnd(10)} ${r.path}:${r.start_line}  ${r.snippet ?? ''}`.trimEnd() + citeMark(r), ...citeNote(r, '           ')])
    .concat(unread)
    .join('\n');
}

export function renderOutline(e: OutlineEnvelope): string {
  const head = `${e.path} (${e.language ?? 'text'}, ${e.lines} lines)`;
  const rows = e.symbols.map((s) => `${'  '.repeat(s.depth + 1)}${s.kind} ${s.name}  ${s.start_line}-${s.end_line}`);
  return [head, ...(rows.length ? rows : ['  (no definitions)']), ...omittedNote(e)].join('\n');
}

export function renderRead(e: ReadEnvelope): string {
  const head = [`${e.path}:${e.start_line}-${e.end_line}${e.symbol ? `  ${e.symbol}` : ''}${citeMark(e)}`, ...citeNote(e, '  ')].join('\n');
  const width = String(e.end_line).length;
  const body = e.content
    .split('\n')
    .map((l, i) => `${String(e.start_line + i).padStart(width)}  ${l}`)
    .join('\n');
  const tail = e.truncated ? `\n… cut at ${e.tokens} tokens; continue with ${e.path}:${e.next_start_line}` : '';
  return `${head}\n${body}${tail}`;
}

export function renderListFiles(e: ListFilesEnvelope): string {
  const rows = e.files.map((f) => `${f.path}  ${f.language ?? 'text'}  ${f.lines} lines`);
  if (e.next_cursor) rows.push(`… ${e.omitted?.files ?? 0} more: continue with --cursor ${e.next_cursor}`);
  return rows.join('\n') || 'no files';
}

export function renderStats(e: StatsEnvelope): string {
  const langs = Object.entries(e.languages).map(([l, n]) => `${l} ${n}`).join(', ');
  return [
    `repository   ${e.repo}`,
    `index        ${e.index_path} (schema ${e.schema_version})`,
    `last indexed ${e.last_indexed_at ?? 'never'}`,
    `files        ${e.files} (${bytes(e.source_bytes)} of source)`,
    `chunks       ${e.chunks}`,
    `symbols      ${e.symbols}`,
    `index size   ${bytes(e.index_bytes)}`,
    `languages    ${langs || 'none'}`,
    `skipped      ${describeSkips(e.skipped)}`,
  ].join('\n');
}

export function renderDryRun(r: DryRunReport): string {
  const lines = [`would index ${r.files} files (${bytes(r.bytes)}) under ${r.root}`];
  lines.push('languages:    ' + (Object.entries(r.languages).map(([l, n]) => `${l} ${n}`).join(', ') || 'none'));
  lines.push('directories:  ' + r.top_directories.map((d) => `${d.dir} ${d.files}`).join(', '));
  lines.push('largest:');
  for (const f of r.largest_files) lines.push(`  ${bytes(f.bytes).padStart(10)}  ${f.path}`);
  lines.push('encodings:    ' + (Object.entries(r.encodings).map(([e, n]) => `${e} ${n}`).join(', ') || 'none'));
  lines.push('skipped:      ' + describeSkips(r.skipped));
  if (r.ignored_by_rule.length) {
    lines.push('ignored by rule:');
    for (const g of r.ignored_by_rule) lines.push(`  ${String(g.entries).padStart(6)}  ${g.rule}`);
  }
  return lines.join('\n');
}
