/** The gate's limits, taken from the configuration (see config/index.ts for the knobs). */
import type { Config } from '../config/index.js';
import { defaultConfig } from '../config/defaults.js';

export interface GateLimits {
  /** More distinct files than this is too broad. */
  maxFiles: number;
  /** More hits than this is too broad. */
  maxHits: number;
  /** Answers that pass are trimmed to this many tokens (a call may ask for another budget). */
  maxTokens: number;
  /** A best hit below this normalised relevance (0-1) is too weak to answer with. */
  minRelevance: number;
  /** No answer is larger than this, forced or not. */
  absoluteMaxTokens: number;
  /** A single limit missed by at most this share still passes. */
  compoundMargin: number;
  /** Consecutive refusals in one session after which the gate opens. */
  maxRefusals: number;
}

export function gateLimits(config: Config): GateLimits {
  const { maxFiles, maxHits, maxTokens, minRelevance, absoluteMaxTokens, compoundMargin, maxRefusals } = config;
  return { maxFiles, maxHits, maxTokens, minRelevance, absoluteMaxTokens, compoundMargin, maxRefusals };
}

/** The token budget an answer is trimmed to: the call's own, else the configured one, never above the ceiling. */
export function trimBudget(limits: GateLimits, requested?: number): number {
  return Math.min(requested ?? limits.maxTokens, limits.absoluteMaxTokens);
}

/** The default budget and its ceiling as help and tool descriptions state them (a repository's config may change both). */
export function budgetDefaults(): string {
  const { maxTokens, absoluteMaxTokens } = gateLimits(defaultConfig());
  return `default ${maxTokens}, never above ${absoluteMaxTokens}`;
}
