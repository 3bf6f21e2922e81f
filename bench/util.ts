/**
 * Shared pieces of the benchmarks: timing, percentiles, tables. Benchmarks print; they never assert.
 *
 * Every benchmark imports this module before it reads its arguments, so `--help` (or `-h`) is
 * answered here for all of them: the doc comment that opens the script being run, which says how
 * to run it, is printed, and the process exits 0.
 */
import fs from 'node:fs';

function answerHelp(): void {
  const args = process.argv.slice(2);
  if (!args.includes('--help') && !args.includes('-h')) return;
  const script = process.argv[1];
  const doc = script && fs.existsSync(script) ? /^\/\*\*([\s\S]*?)\*\//.exec(fs.readFileSync(script, 'utf8')) : null;
  const text = doc ? doc[1]!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n').trim() : 'no usage found: read the script\'s opening comment';
  process.stdout.write(`${text}\n`);
  process.exit(0);
}
answerHelp();

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => '| ' + r.map((c, i) => String(c).padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(cells[0]!), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...cells.slice(1).map(line)].join('\n');
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '-';
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function usage(text: string): never {
  process.stderr.write(text.trim() + '\n');
  process.exit(2);
}

/** Everyday phrase queries, shared by the query and budget benchmarks so their numbers describe the same questions. */
export const PHRASE_QUERIES = [
  'parse config file',
  'read file contents',
  'error handling retry',
  'open database connection',
  'convert string to number',
  'walk directory tree',
  'format date time',
  'http request headers',
  'cache invalidation',
  'command line arguments',
];
