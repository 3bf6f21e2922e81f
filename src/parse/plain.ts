/** Chunking without a grammar: line windows, and heading sections for Markdown. */
import { labelChunk } from './chunker.js';
import {
  type LineTable,
  MAX_CHUNK_LINES,
  MAX_CHUNK_NWS,
  WINDOW_BLANK_LOOKBACK,
  WINDOW_LINES,
  WINDOW_NWS,
  WINDOW_OVERLAP,
  fits,
  lineAt,
  lineWindows,
} from './lines.js';
import type { ParsedChunk } from './types.js';

/** Windows of up to WINDOW_LINES lines / WINDOW_NWS characters, preferring blank-line boundaries. */
export function windowChunks(t: LineTable, path: string, s = 0, e = t.count - 1, breadcrumb = path): ParsedChunk[] {
  const out: ParsedChunk[] = [];
  for (const w of lineWindows(t, s, e, WINDOW_LINES, WINDOW_NWS, WINDOW_OVERLAP, WINDOW_BLANK_LOOKBACK)) {
    const c = labelChunk(t, w.s, w.e, path, null);
    c.breadcrumb = breadcrumb;
    out.push(c);
  }
  return out;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
  s: number;
  e: number;
  breadcrumb: string;
}

/**
 * Markdown: one section per ATX heading (ignoring headings inside fenced code), breadcrumb
 * "path > # Title > ## Sub". Neighbouring sections merge while they fit the code chunk limits;
 * a section that is too big is cut into windows that keep its breadcrumb.
 */
export function markdownChunks(t: LineTable, path: string): ParsedChunk[] {
  const sections: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let fence: string | null = null;
  let curStart = 0;
  let curCrumb = path;
  for (let r = 0; r < t.count; r++) {
    const line = lineAt(t, r);
    const f = FENCE.exec(line);
    if (f) {
      const marker = f[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = HEADING.exec(line);
    if (!h) continue;
    if (r > curStart) sections.push({ s: curStart, e: r - 1, breadcrumb: curCrumb });
    const level = h[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text: `${h[1]} ${h[2]}`.trim() });
    curStart = r;
    curCrumb = [path, ...stack.map((x) => x.text)].join(' > ');
  }
  if (t.count > curStart) sections.push({ s: curStart, e: t.count - 1, breadcrumb: curCrumb });

  const merged: Section[] = [];
  for (const sec of sections) {
    const last = merged[merged.length - 1];
    if (last && fits(t, last.s, sec.e, MAX_CHUNK_NWS, MAX_CHUNK_LINES)) last.e = sec.e;
    else merged.push({ ...sec });
  }
  const out: ParsedChunk[] = [];
  for (const sec of merged) out.push(...windowChunks(t, path, sec.s, sec.e, sec.breadcrumb));
  return out;
}
