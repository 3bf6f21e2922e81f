/**
 * What answering has cost and saved over the last hour, per tool: in this
 * process's memory (`UsageMeter`), or with a team database summed over every
 * server (team/usage.ts), behind `UsageLedger`. Only sums are kept: no
 * query, path or content is ever recorded.
 */
import { byCodeUnit } from '../order.js';

export const USAGE_WINDOW_MS = 3_600_000;

export interface UsageTotals {
  calls: number;
  response_tokens: number;
  /** Whole-file tokens of content delivered whole (never discovery, never what the caller held). */
  reads_replaced_tokens: number;
  /** reads_replaced_tokens - response_tokens: negative when answers cost more than the reads they replaced. */
  net_saved_tokens: number;
}

export interface UsageReport extends UsageTotals {
  window_seconds: number;
  tools: Record<string, UsageTotals>;
}

interface Sample {
  at: number;
  tool: string;
  responseTokens: number;
  readsReplacedTokens: number;
}

/** Where answers' costs are summed; the team backend answers asynchronously. */
export interface UsageLedger {
  record(tool: string, responseTokens: number, readsReplacedTokens?: number): void | Promise<void>;
  report(): UsageReport | Promise<UsageReport>;
}

/** Totals with the derived net, from raw sums. */
export function usageTotals(calls: number, responseTokens: number, readsReplacedTokens: number): UsageTotals {
  return { calls, response_tokens: responseTokens, reads_replaced_tokens: readsReplacedTokens, net_saved_tokens: readsReplacedTokens - responseTokens };
}

function totals(samples: Sample[]): UsageTotals {
  const response = samples.reduce((s, x) => s + x.responseTokens, 0);
  const replaced = samples.reduce((s, x) => s + x.readsReplacedTokens, 0);
  return usageTotals(samples.length, response, replaced);
}

export class UsageMeter implements UsageLedger {
  private samples: Sample[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  record(tool: string, responseTokens: number, readsReplacedTokens = 0): void {
    this.prune();
    this.samples.push({ at: this.now(), tool, responseTokens, readsReplacedTokens });
  }

  report(): UsageReport {
    this.prune();
    const byTool = new Map<string, Sample[]>();
    for (const s of this.samples) {
      const list = byTool.get(s.tool);
      if (list) list.push(s);
      else byTool.set(s.tool, [s]);
    }
    const tools = Object.fromEntries([...byTool.entries()].sort(([a], [b]) => byCodeUnit(a, b)).map(([t, list]) => [t, totals(list)]));
    return { window_seconds: USAGE_WINDOW_MS / 1000, ...totals(this.samples), tools };
  }

  private prune(): void {
    const cutoff = this.now() - USAGE_WINDOW_MS;
    let i = 0;
    while (i < this.samples.length && this.samples[i]!.at <= cutoff) i++;
    if (i > 0) this.samples.splice(0, i);
  }
}
