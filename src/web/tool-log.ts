/**
 * The usage view's history: the ndjson tool log `serve --log-file` appends
 * (mcp/log.ts), read back and summed: calls, errors, tokens sent and whole
 * reads replaced per time bucket, per tool, and the slowest calls. Only the
 * file's tail is read, so a log grown large costs a bounded read.
 */
import fs from 'node:fs';

/** The most of the log read, from its end. */
export const MAX_LOG_BYTES = 8 * 1024 * 1024;
/** Buckets in the timeline at most; their width grows with the span. */
const MAX_BUCKETS = 120;
const SLOWEST = 10;

export interface Bucket {
  /** The bucket's start, in Unix seconds. */
  t: number;
  calls: number;
  errors: number;
  tokens_sent: number;
  reads_replaced_tokens: number;
}

export interface LoggedCall {
  ts: string;
  tool: string;
  ms: number;
  outcome: 'ok' | 'error';
  tokens_sent: number;
  error?: string;
}

export interface ToolLogSummary {
  file: string | null;
  /** Why there is nothing to show, when there is not. */
  note?: string;
  calls: number;
  errors: number;
  tokens_sent: number;
  reads_replaced_tokens: number;
  net_saved_tokens: number;
  bucket_seconds: number;
  buckets: Bucket[];
  by_tool: Record<string, { calls: number; errors: number; tokens_sent: number; reads_replaced_tokens: number }>;
  slowest: LoggedCall[];
  /** Lines that were not a log event (a torn last line, another program's output). */
  unreadable_lines: number;
}

interface Event {
  at: number;
  call: LoggedCall;
  replaced: number;
}

function tail(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - MAX_LOG_BYTES);
    const buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text; // drop the line the cut went through
  } finally {
    fs.closeSync(fd);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** An event with numbers, 'call' for a tool_call line (it only announces), null for a line that is no event. */
function parse(line: string): Event | 'call' | null {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  const at = Date.parse(String(o.ts));
  if (!Number.isFinite(at) || typeof o.tool !== 'string') return null;
  if (o.event === 'tool_result') {
    return { at, replaced: num(o.reads_replaced_tokens), call: { ts: String(o.ts), tool: o.tool, ms: num(o.ms), outcome: 'ok', tokens_sent: num(o.est_tokens) } };
  }
  if (o.event === 'tool_error') {
    return { at, replaced: 0, call: { ts: String(o.ts), tool: o.tool, ms: num(o.ms), outcome: 'error', tokens_sent: 0, error: String(o.error) } };
  }
  return o.event === 'tool_call' ? 'call' : null;
}

const EMPTY = { calls: 0, errors: 0, tokens_sent: 0, reads_replaced_tokens: 0, net_saved_tokens: 0, bucket_seconds: 60, buckets: [], by_tool: {}, slowest: [], unreadable_lines: 0 };

export function summarizeToolLog(file: string | undefined): ToolLogSummary {
  if (!file) return { file: null, note: 'no tool log: start `sightline serve --log-file FILE`, and the dashboard with --tool-log FILE (serve --transport http reads its own)', ...EMPTY };
  let text: string;
  try {
    text = tail(file);
  } catch (err) {
    return { file, note: `cannot read the tool log: ${(err as Error).message}`, ...EMPTY };
  }
  const events: Event[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const e = parse(line);
    if (!e) unreadable++;
    else if (e !== 'call') events.push(e);
  }
  return { file, ...sum(events), unreadable_lines: unreadable };
}

function sum(events: Event[]): Omit<ToolLogSummary, 'file' | 'note' | 'unreadable_lines'> {
  if (events.length === 0) return { ...EMPTY };
  const first = Math.min(...events.map((e) => e.at));
  const last = Math.max(...events.map((e) => e.at));
  const bucketSeconds = Math.max(60, Math.ceil((last - first) / 1000 / MAX_BUCKETS / 60) * 60);
  const origin = Math.floor(first / 1000 / bucketSeconds) * bucketSeconds;
  const buckets: Bucket[] = [];
  for (let t = origin; t <= last / 1000; t += bucketSeconds) buckets.push({ t, calls: 0, errors: 0, tokens_sent: 0, reads_replaced_tokens: 0 });
  const byTool: ToolLogSummary['by_tool'] = {};
  for (const e of events) {
    const b = buckets[Math.floor((e.at / 1000 - origin) / bucketSeconds)]!;
    const t = (byTool[e.call.tool] ??= { calls: 0, errors: 0, tokens_sent: 0, reads_replaced_tokens: 0 });
    for (const into of [b, t]) {
      into.calls++;
      if (e.call.outcome === 'error') into.errors++;
      into.tokens_sent += e.call.tokens_sent;
      into.reads_replaced_tokens += e.replaced;
    }
  }
  const sent = events.reduce((s, e) => s + e.call.tokens_sent, 0);
  const replaced = events.reduce((s, e) => s + e.replaced, 0);
  return {
    calls: events.length,
    errors: events.filter((e) => e.call.outcome === 'error').length,
    tokens_sent: sent,
    reads_replaced_tokens: replaced,
    net_saved_tokens: replaced - sent,
    bucket_seconds: bucketSeconds,
    buckets,
    by_tool: byTool,
    slowest: [...events].sort((a, b) => b.call.ms - a.call.ms).slice(0, SLOWEST).map((e) => e.call),
  };
}
