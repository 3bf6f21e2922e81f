/**
 * One schema for every knob. Precedence: flag > env > config file > default.
 * Environment variables are SIGHTLINE_<KEY_IN_SNAKE_CASE>; the config file is
 * `sightline.config.json` in the repository root, or the path given by --config.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SightlineError } from '../errors/index.js';
import { defaultConfig } from './defaults.js';

export { defaultConfig, NEARNESS_WEIGHT } from './defaults.js';

/** Numeric knobs with their allowed range: values outside are clamped with a warning. */
const RANGES = {
  maxFileBytes: [1_024, 64 * 1_048_576],
  toolConcurrency: [1, 64],
  readWorkers: [0, 16],
  maxClientSessions: [1, 100_000],
  clientSessionIdleMs: [1_000, 7 * 86_400_000],
  dashboardSessionIdleMs: [1_000, 7 * 86_400_000],
  dashboardSessionMaxMs: [1_000, 30 * 86_400_000],
  watchDebounceMs: [0, 60_000],
  watchSettleMs: [0, 60_000],
  reconcileIntervalMs: [0, 7 * 86_400_000],
  retryBaseMs: [100, 3_600_000],
  retryMaxMs: [1_000, 86_400_000],
  firstIndexWaitMs: [0, 600_000],
  embedderWaitMs: [0, 600_000],
  reindexWaitMs: [0, 600_000],
  maxFiles: [1, 10_000],
  maxHits: [1, 100_000],
  maxTokens: [100, 200_000],
  minRelevance: [0, 1],
  absoluteMaxTokens: [1_000, 200_000],
  compoundMargin: [0, 1],
  maxRefusals: [1, 100],
  contextBudgetTokens: [128, 200_000],
  contextTop: [1, 50],
  embedDimensions: [0, 8_192],
  embedBatchSize: [1, 2_048],
  embedConcurrency: [1, 32],
  fusionK0: [1, 1_000],
  fusionKeywordWeight: [0, 10],
  fusionSemanticWeight: [0, 10],
  nearnessWeight: [0, 10],
  cutoffRelative: [0, 1],
  cutoffFloor: [0, 1],
  cutoffOutlierRatio: [1, 100],
  cutoffSafeHarbor: [0, 100],
  queryCacheSize: [0, 10_000],
  expandImports: [0, 20],
} as const satisfies Record<string, readonly [number, number]>;

export const ConfigSchema = z.object({
  home: z.string().min(1).describe('where indexes live; default ~/.cache/sightline'),
  gitignore: z.boolean().describe('honour .gitignore and .git/info/exclude'),
  include: z.array(z.string()).describe('globs a file must match (empty: all)'),
  exclude: z.array(z.string()).describe('globs that drop a file'),
  excludeDirs: z.array(z.string()).describe('directory names skipped at any depth'),
  maxFileBytes: z.number().int().describe('files larger than this are skipped'),
  toolConcurrency: z.number().int().describe('MCP tool bodies that may run at once'),
  readWorkers: z.number().int().describe('serve: worker threads answering search, locate, read, outline and list_files for MCP sessions, each with a read-only connection; 0 answers on the main thread'),
  maxClientSessions: z.number().int().describe('serve (http, sse): client sessions held at once; past it a new one gets 503'),
  clientSessionIdleMs: z.number().int().describe('serve (http, sse): a client session idle this long is closed'),
  dashboardSessionIdleMs: z.number().int().describe('dashboard: a sign-in unused this long ends (open the printed URL again)'),
  dashboardSessionMaxMs: z.number().int().describe('dashboard: a sign-in ends this long after it began, used or not'),
  watchDebounceMs: z.number().int().describe('watch: the longest quiet time a burst of file-system events waits for before a pass'),
  watchSettleMs: z.number().int().describe('watch: the quiet time an isolated change waits for before a pass (bursts wait longer, up to watchDebounceMs)'),
  reconcileIntervalMs: z.number().int().describe('watch: mean interval of the jittered reconcile pass (0: off)'),
  retryBaseMs: z.number().int().describe('serve: delay before a failed index pass is retried; doubles on each failure in a row'),
  retryMaxMs: z.number().int().describe('serve: the longest delay between retries of a failing index pass'),
  watch: z.boolean().describe('serve: keep the index live (watch + reconcile) while serving; --no-watch turns it off'),
  firstIndexWaitMs: z.number().int().describe('serve: how long a query waits for the first index to become searchable before a `building` answer'),
  embedderWaitMs: z.number().int().describe('semantic: how long a query waits for an onnx or http query embedder to start before answering by keyword'),
  reindexWaitMs: z.number().int().describe('how long an answer that would cite a file changed since it was indexed waits for that file to be indexed again before citing it as stale'),
  maxFiles: z.number().int().describe('gate: more distinct files than this is too broad (refine)'),
  maxHits: z.number().int().describe('gate: more hits than this is too broad (refine)'),
  maxTokens: z.number().int().describe('gate: answers that pass are trimmed to this many tokens'),
  minRelevance: z.number().describe('gate: a best hit below this normalised 0-1 relevance asks to refine'),
  absoluteMaxTokens: z.number().int().describe('gate: no answer exceeds this many tokens, even with force'),
  compoundMargin: z.number().describe('gate: a single limit missed by at most this share still passes'),
  maxRefusals: z.number().int().describe('gate: consecutive refusals in one session before the gate opens'),
  contextBudgetTokens: z.number().int().describe('context: default budget_tokens of a bundle'),
  contextTop: z.number().int().describe('context: default number of files in a bundle'),
  contextDetail: z.enum(['paths', 'outline', 'slices', 'auto']).describe('context: default detail level'),
  embedder: z.enum(['builtin', 'onnx', 'http', 'none']).describe('semantic: the embedder (docs/semantic.md); none is keyword-only'),
  modelDir: z.string().describe('semantic: onnx model folder (config.json, tokenizer.json, onnx/model.onnx)'),
  embedUrl: z.string().describe('semantic: http base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1'),
  embedModel: z.string().describe('semantic: http model name'),
  embedDimensions: z.number().int().describe('semantic: http vector width to ask for (0: the model default)'),
  embedBatchSize: z.number().int().describe('semantic: texts per embedding request'),
  embedConcurrency: z.number().int().describe('semantic: http requests in flight'),
  fusionK0: z.number().describe('fusion: RRF rank constant k0'),
  fusionKeywordWeight: z.number().describe('fusion: weight of the keyword list'),
  fusionSemanticWeight: z.number().describe('fusion: weight of the vector list (chunk results)'),
  nearnessWeight: z.number().describe('fusion: weight of a file\'s nearness to the question in file rankings (content is 1)'),
  cutoffRelative: z.number().describe('cutoff: drop results under this share of the top score'),
  cutoffFloor: z.number().describe('cutoff: drop results under this normalised score, always'),
  cutoffOutlierRatio: z.number().describe('cutoff: a top score this many times the second is judged against the second'),
  cutoffSafeHarbor: z.number().int().describe('cutoff: the first N results face only the floor'),
  queryCacheSize: z.number().int().describe('cache: answers kept per repository (0: off)'),
  expandImports: z.number().int().describe('expansion: definitions from other files a hit uses, added per hit when search or context expands (0: off)'),
  databaseUrl: z.string().describe('team: postgres:// URL of the database memory and claims live in (--store; empty: the local index file); docs/team.md'),
  teamRepo: z.string().describe('team: the repository\'s name in the team database, the same on every server (empty: the folder\'s name)'),
});
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigKey = keyof Config;


export interface LoadConfigOptions {
  repoRoot?: string;
  configPath?: string;
  flags?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
}

export function envName(key: ConfigKey): string {
  return 'SIGHTLINE_' + key.replace(/[A-Z]/g, (c) => '_' + c).toUpperCase();
}

/** Reads one environment value as the field's schema wants it; a value the schema refuses is ignored with a warning. */
function fromEnv(key: ConfigKey, raw: string, warn: (m: string) => void): unknown {
  const sample = defaultConfig()[key];
  const value = raw.trim();
  if (value === '') return undefined; // blank means unset
  let parsed: unknown = value;
  if (typeof sample === 'number') parsed = Number(value);
  else if (typeof sample === 'boolean') parsed = /^(1|true|yes|on)$/i.test(value) ? true : /^(0|false|no|off)$/i.test(value) ? false : value;
  else if (Array.isArray(sample)) parsed = value.split(',').map((s) => s.trim()).filter(Boolean);
  const checked = ConfigSchema.shape[key].safeParse(parsed);
  if (checked.success) return checked.data;
  warn(`${envName(key)}=${JSON.stringify(raw)} is not valid (${checked.error.issues[0]!.message}); ignored`);
  return undefined;
}

function readConfigFile(file: string, required: boolean): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SightlineError('usage', `cannot read config file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SightlineError('usage', `config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SightlineError('usage', `config file ${file} must hold a JSON object`);
  }
  const unknownKeys = Object.keys(parsed).filter((k) => !(k in ConfigSchema.shape));
  if (unknownKeys.length > 0) {
    throw new SightlineError('usage', `config file ${file}: unknown field "${unknownKeys[0]}" (known: ${Object.keys(ConfigSchema.shape).join(', ')})`);
  }
  const result = ConfigSchema.partial().safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new SightlineError('usage', `config file ${file}: field "${issue.path.join('.')}" ${issue.message}`);
  }
  return result.data;
}

function clampRanges(config: Config, warn: (m: string) => void): Config {
  const out = { ...config };
  for (const [key, [lo, hi]] of Object.entries(RANGES) as [keyof typeof RANGES, readonly [number, number]][]) {
    const v = out[key];
    if (v < lo || v > hi) {
      const clamped = Math.min(hi, Math.max(lo, v));
      warn(`${key}=${v} is outside ${lo}..${hi}; using ${clamped}`);
      out[key] = clamped;
    }
  }
  if (out.maxTokens > out.absoluteMaxTokens) {
    warn(`maxTokens=${out.maxTokens} is above absoluteMaxTokens=${out.absoluteMaxTokens}; using ${out.absoluteMaxTokens}`);
    out.maxTokens = out.absoluteMaxTokens;
  }
  return out;
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const warn = options.warn ?? ((m: string) => process.stderr.write(`sightline: warning: ${m}\n`));
  const env = options.env ?? process.env;
  const file = options.configPath
    ? readConfigFile(path.resolve(options.configPath), true)
    : options.repoRoot
      ? readConfigFile(path.join(options.repoRoot, 'sightline.config.json'), false)
      : {};
  const fromEnvironment: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.shape) as ConfigKey[]) {
    const raw = env[envName(key)];
    if (raw !== undefined) {
      const v = fromEnv(key, raw, warn);
      if (v !== undefined) fromEnvironment[key] = v;
    }
  }
  const flags = Object.fromEntries(Object.entries(options.flags ?? {}).filter(([, v]) => v !== undefined));
  const merged = { ...defaultConfig(), ...file, ...fromEnvironment, ...flags };
  const result = ConfigSchema.safeParse(merged);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new SightlineError('usage', `configuration field "${issue.path.join('.')}": ${issue.message}`);
  }
  return clampRanges(result.data, warn);
}
