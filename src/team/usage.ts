/**
 * Usage summed over every server of a team (budget/usage.ts `UsageLedger`):
 * each answer adds itself to its minute's row for its tool, by the
 * database's clock; a report sums the minutes of the last hour. Rows older
 * than the window are dropped at most once a minute per process.
 */
import { usageTotals, USAGE_WINDOW_MS, type UsageLedger, type UsageReport } from '../budget/index.js';
import { byCodeUnit } from '../order.js';
import { componentQuery } from './migrate.js';
import { NOW_MS } from './pool.js';
import { USAGE_COMPONENT } from './usage-schema.js';

const MINUTE_MS = 60_000;
const MINUTE = `(floor(${NOW_MS} / ${MINUTE_MS}) * ${MINUTE_MS})::bigint`;
/** The first minute inside the window: the hour's minutes, this one included. */
const SINCE = `(floor((${NOW_MS} - ${USAGE_WINDOW_MS}) / ${MINUTE_MS}) * ${MINUTE_MS} + ${MINUTE_MS})::bigint`;

const ADD = `INSERT INTO usage_minutes(minute_ms, tool, calls, response_tokens, reads_replaced_tokens) VALUES (${MINUTE}, $1, 1, $2, $3)
  ON CONFLICT (minute_ms, tool) DO UPDATE SET calls = usage_minutes.calls + 1,
    response_tokens = usage_minutes.response_tokens + EXCLUDED.response_tokens,
    reads_replaced_tokens = usage_minutes.reads_replaced_tokens + EXCLUDED.reads_replaced_tokens`;

const REPORT = `SELECT tool, sum(calls) AS calls, sum(response_tokens) AS response, sum(reads_replaced_tokens) AS replaced
  FROM usage_minutes WHERE minute_ms >= ${SINCE} GROUP BY tool`;

interface ToolSums {
  tool: string;
  calls: string;
  response: string;
  replaced: string;
}

export class PostgresUsage implements UsageLedger {
  private lastPruneMs = 0;

  constructor(private readonly url: string) {}

  async record(tool: string, responseTokens: number, readsReplacedTokens = 0): Promise<void> {
    await componentQuery(this.url, USAGE_COMPONENT, ADD, [tool, responseTokens, readsReplacedTokens]);
    if (Date.now() - this.lastPruneMs >= MINUTE_MS) {
      this.lastPruneMs = Date.now();
      await componentQuery(this.url, USAGE_COMPONENT, `DELETE FROM usage_minutes WHERE minute_ms < ${SINCE}`, []);
    }
  }

  async report(): Promise<UsageReport> {
    const rows = await componentQuery<ToolSums & { [k: string]: unknown }>(this.url, USAGE_COMPONENT, REPORT, []);
    const tools = Object.fromEntries(rows.sort((a, b) => byCodeUnit(a.tool, b.tool)).map((r) => [r.tool, usageTotals(Number(r.calls), Number(r.response), Number(r.replaced))]));
    const sum = (pick: (r: ToolSums) => string) => rows.reduce((s, r) => s + Number(pick(r)), 0);
    return { window_seconds: USAGE_WINDOW_MS / 1000, ...usageTotals(sum((r) => r.calls), sum((r) => r.response), sum((r) => r.replaced)), tools };
  }
}
