/**
 * Token budgets: exact counting, the gate (ok or refine), trimming, context
 * packing with receipts, and usage over the last hour.
 */
export { countTokens, setPieceCacheLimit } from './tokens.js';
export { adoptRankTable, sharedRankTable } from './ranks.js';
export { jsonTokens, selfCountedJson, selfCountedTokens } from './count.js';
export { budgetDefaults, gateLimits, trimBudget, type GateLimits } from './limits.js';
export {
  assess,
  gate,
  memoryLedger,
  relevantHits,
  summarize,
  type GateDecision,
  type GateHit,
  type GateInput,
  type GateSummary,
  type RefineEnvelope,
  type RefineReason,
  type RefusalLedger,
  type Suggestion,
} from './gate.js';
export { commonDirectory, distribution, type DirectoryHits } from './distribution.js';
export { dropSuggestions, scopeSuggestions, termSuggestions, type QueryWord, type Rephrased, type Yield } from './suggest.js';
export { trimToBudget, type Trimmed } from './trim.js';
export { fitLists, prefixWithin, type FitFields } from './fit.js';
export { pack, type PackCandidate, type Packed, type PackOptions } from './pack.js';
export { parseKnown, receiptFor, wholeFileReceipt, type ReceiptBook } from './receipts.js';
export { UsageMeter, usageTotals, USAGE_WINDOW_MS, type UsageLedger, type UsageReport, type UsageTotals } from './usage.js';
export { inSession, type BudgetSessions } from './sessions.js';
