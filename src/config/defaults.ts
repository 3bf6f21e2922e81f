/**
 * Every knob's default, apart from the table that checks them (index.ts), so
 * a verb's help can state defaults without loading the checks (the CLI's
 * start path, see ARCHITECTURE.md). A knob added to the table gets its
 * default here.
 */
import os from 'node:os';
import path from 'node:path';
import type { Config } from './index.js';

const DEFAULT_EXCLUDE_DIRS = ['.git', 'node_modules', 'dist', 'build', 'target', '.venv', 'vendor', '__pycache__'];


export function defaultConfig(): Config {
  return {
    home: path.join(os.homedir(), '.cache', 'sightline'),
    gitignore: true,
    include: [],
    exclude: [],
    excludeDirs: [...DEFAULT_EXCLUDE_DIRS],
    maxFileBytes: 1_048_576,
    // The ceiling at which memoryPlan gives the batch sizes tuned on small repositories (config/memory.ts),
    // under issue #20's 600 MB with room for what no knob sizes.
    maxMemoryMB: 512,
    toolConcurrency: 2,
    readWorkers: 2,
    maxClientSessions: 1_000,
    clientSessionIdleMs: 1_800_000,
    dashboardSessionIdleMs: 3_600_000,
    dashboardSessionMaxMs: 43_200_000,
    watchDebounceMs: 300,
    watchSettleMs: 30,
    reconcileIntervalMs: 600_000,
    retryBaseMs: 5_000,
    retryMaxMs: 600_000,
    watch: true,
    firstIndexWaitMs: 5_000,
    embedderWaitMs: 10_000,
    reindexWaitMs: 5_000,
    maxFiles: 25,
    maxHits: 120,
    maxTokens: 6_000,
    minRelevance: 0.35,
    absoluteMaxTokens: 24_000,
    compoundMargin: 0.15,
    maxRefusals: 3,
    contextBudgetTokens: 8_192,
    // Past the first files' code, the rest are named (engine/context-draft.ts): 15 names hold every gold file of 84 % of the dev issues at 8,192 tokens, 10 of 79 %.
    contextTop: 15,
    contextDetail: 'auto',
    // Semantic retrieval: defaults and their reasons are in src/search/fusion.ts and cutoff.ts.
    embedder: 'builtin',
    modelDir: '',
    embedUrl: '',
    embedModel: '',
    embedDimensions: 0,
    embedBatchSize: 64,
    embedConcurrency: 2,
    fusionK0: 10,
    fusionKeywordWeight: 1,
    fusionSemanticWeight: 0.25,
    nearnessWeight: 1, // the shipped ranker's own weight for nearness (search/learned.ts)
    cutoffRelative: 0.3,
    cutoffFloor: 0.05,
    cutoffOutlierRatio: 3,
    cutoffSafeHarbor: 3,
    queryCacheSize: 50,
    expandImports: 2,
    databaseUrl: '',
    teamRepo: '',
  };
}
