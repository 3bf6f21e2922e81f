/**
 * One table of every knob (its kind and description) and the ranges of the
 * numeric ones. Precedence:
 * flag > env > config file > default. Environment variables are
 * SIGHTLINE_<KEY_IN_SNAKE_CASE>; the config file is `sightline.config.json` in
 * the repository root, or the path given by --config.
 *
 * Checked by hand rather than by a zod schema: every verb loads its
 * configuration, and zod's ~100 modules were a sixth of a CLI search's start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SightlineError } from '../errors/index.js';
import { defaultConfig } from './defaults.js';

export { defaultConfig } from './defaults.js';
export { memoryPlan, type MemoryPlan } from './memory.js';

/** Numeric knobs with their allowed range: values outside are clamped with a warning. */
const RANGES = {
  maxFileBytes: [1_024, 64 * 1_048_576],
  maxMemoryMB: [128, 65_536],
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

/** A knob's kind and what it is for (docs/config.md's rows); `nonEmpty` refuses an empty string. */
type Field =
  | { kind: 'string'; description: string; nonEmpty?: boolean }
  | { kind: 'int' | 'number' | 'boolean' | 'list'; description: string }
  | { kind: 'enum'; values: readonly string[]; description: string };

const text = (description: string, { nonEmpty = false } = {}) => ({ kind: 'string', description, nonEmpty }) as const;
const flag = (description: string) => ({ kind: 'boolean', description }) as const;
const list = (description: string) => ({ kind: 'list', description }) as const;
const int = (description: string) => ({ kind: 'int', description }) as const;
const num = (description: string) => ({ kind: 'number', description }) as const;
const oneOf = <const V extends readonly string[]>(values: V, description: string) => ({ kind: 'enum', values, description }) as const;

export const CONFIG_FIELDS = {
  home: text('where indexes live; default ~/.cache/sightline', { nonEmpty: true }),
  gitignore: flag('honour .gitignore and .git/info/exclude (a file git tracks is indexed whatever they say, as git does)'),
  include: list('globs a file must match (empty: all)'),
  exclude: list('globs that drop a file'),
  excludeDirs: list('directory names skipped at any depth (dist, build and target only at the root or beside a project file: elsewhere they are source packages)'),
  maxFileBytes: int('files larger than this are skipped'),
  maxMemoryMB: int('index: the memory ceiling, in MB, that an index pass\'s batch sizes and caches, and what a connection keeps between questions, are derived from (config/memory.ts)'),
  toolConcurrency: int('MCP tool bodies that may run at once'),
  readWorkers: int('serve: worker threads answering search, locate, read, outline and list_files for MCP sessions, each with a read-only connection; 0 answers on the main thread'),
  maxClientSessions: int('serve (http, sse): client sessions held at once; past it a new one gets 503'),
  clientSessionIdleMs: int('serve (http, sse): a client session idle this long is closed'),
  dashboardSessionIdleMs: int('dashboard: a sign-in unused this long ends (open the printed URL again)'),
  dashboardSessionMaxMs: int('dashboard: a sign-in ends this long after it began, used or not'),
  watchDebounceMs: int('watch: the longest quiet time a burst of file-system events waits for before a pass'),
  watchSettleMs: int('watch: the quiet time an isolated change waits for before a pass (bursts wait longer, up to watchDebounceMs)'),
  reconcileIntervalMs: int('watch: mean interval of the jittered reconcile pass (0: off)'),
  retryBaseMs: int('serve: delay before a failed index pass is retried; doubles on each failure in a row'),
  retryMaxMs: int('serve: the longest delay between retries of a failing index pass'),
  watch: flag('serve: keep the index live (watch + reconcile) while serving; --no-watch turns it off'),
  firstIndexWaitMs: int('serve: how long a query waits for the first index to become searchable before a `building` answer'),
  embedderWaitMs: int('semantic: how long a query waits for an onnx or http query embedder to start before answering by keyword'),
  reindexWaitMs: int('how long an answer that would cite a file changed since it was indexed waits for that file to be indexed again before citing it as stale'),
  maxFiles: int('gate: more distinct files than this is too broad (refine)'),
  maxHits: int('gate: more hits than this is too broad (refine)'),
  maxTokens: int('gate: answers that pass are trimmed to this many tokens'),
  minRelevance: num('gate: a best hit below this normalised 0-1 relevance asks to refine'),
  absoluteMaxTokens: int('gate: no answer exceeds this many tokens, even with force'),
  compoundMargin: num('gate: a single limit missed by at most this share still passes'),
  maxRefusals: int('gate: consecutive refusals in one session before the gate opens'),
  contextBudgetTokens: int('context: default budget_tokens of a bundle'),
  contextTop: int('context: default number of files in a bundle'),
  contextDetail: oneOf(['paths', 'outline', 'slices', 'auto'] as const, 'context: default detail level'),
  embedder: oneOf(['builtin', 'onnx', 'http', 'none'] as const, 'semantic: the embedder (docs/semantic.md); none is keyword-only'),
  modelDir: text('semantic: onnx model folder (config.json, tokenizer.json, onnx/model.onnx)'),
  embedUrl: text('semantic: http base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1'),
  embedModel: text('semantic: http model name'),
  embedDimensions: int('semantic: http vector width to ask for (0: the model default)'),
  embedBatchSize: int('semantic: texts per embedding request'),
  embedConcurrency: int('semantic: http requests in flight'),
  fusionK0: num('fusion: RRF rank constant k0'),
  fusionKeywordWeight: num('fusion: weight of the keyword list'),
  fusionSemanticWeight: num('fusion: weight of the vector list (chunk results)'),
  nearnessWeight: num('file rankings: a multiple of the shipped ranker\'s weight for a file\'s nearness to the question (1 as trained, 0 ignores nearness)'),
  cutoffRelative: num('cutoff: drop results under this share of the top score'),
  cutoffFloor: num('cutoff: drop results under this normalised score, always'),
  cutoffOutlierRatio: num('cutoff: a top score this many times the second is judged against the second'),
  cutoffSafeHarbor: int('cutoff: the first N results face only the floor'),
  queryCacheSize: int('cache: answers kept per repository (0: off)'),
  expandImports: int('expansion: definitions from other files a hit uses, added per hit when search or context expands (0: off)'),
  databaseUrl: text('team: postgres:// URL of the database memory and claims live in (--store; empty: the local index file); docs/team.md'),
  teamRepo: text('team: the repository\'s name in the team database, the same on every server (empty: the folder\'s name)'),
} satisfies Record<string, Field>;

/** The value a field of this kind holds. */
type ValueOf<F> = F extends { kind: 'int' | 'number' }
  ? number
  : F extends { kind: 'boolean' }
    ? boolean
    : F extends { kind: 'list' }
      ? string[]
      : F extends { kind: 'enum'; values: readonly (infer V)[] }
        ? V
        : string;
export type Config = { [K in keyof typeof CONFIG_FIELDS]: ValueOf<(typeof CONFIG_FIELDS)[K]> };
export type ConfigKey = keyof Config;
const KEYS = Object.keys(CONFIG_FIELDS) as ConfigKey[];

/** Why `value` is not a valid `key`, or null when it is. */
function refusal(key: ConfigKey, value: unknown): string | null {
  const field: Field = CONFIG_FIELDS[key];
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return `must be a string, not ${describe(value)}`;
      return field.nonEmpty && value === '' ? 'must not be empty' : null;
    case 'boolean':
      return typeof value === 'boolean' ? null : `must be true or false, not ${describe(value)}`;
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : `must be a list of strings, not ${describe(value)}`;
    case 'int':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number, not ${describe(value)}`;
      return field.kind === 'int' && !Number.isInteger(value) ? `must be a whole number, not ${value}` : null;
    case 'enum':
      return field.values.includes(value as string) ? null : `must be one of ${field.values.join(', ')}, not ${describe(value)}`;
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? 'an object' : String(value);
}

export interface LoadConfigOptions {
  repoRoot?: string;
  configPath?: string;
  flags?: Partial<Config>;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
}

/** A run of capitals is one word: maxMemoryMB is SIGHTLINE_MAX_MEMORY_MB. */
export function envName(key: ConfigKey): string {
  return 'SIGHTLINE_' + key.replace(/[A-Z]+/g, (c) => '_' + c).toUpperCase();
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
  const why = refusal(key, parsed);
  if (why === null) return parsed;
  warn(`${envName(key)}=${JSON.stringify(raw)} is not valid (${why}); ignored`);
  return undefined;
}

function readConfigFile(file: string, required: boolean): Partial<Config> {
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
  const unknownKeys = Object.keys(parsed).filter((k) => !(k in CONFIG_FIELDS));
  if (unknownKeys.length > 0) {
    throw new SightlineError('usage', `config file ${file}: unknown field "${unknownKeys[0]}" (known: ${KEYS.join(', ')})`);
  }
  for (const [key, value] of Object.entries(parsed) as [ConfigKey, unknown][]) {
    const why = refusal(key, value);
    if (why !== null) throw new SightlineError('usage', `config file ${file}: field "${key}" ${why}`);
  }
  return parsed as Partial<Config>;
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
  for (const key of KEYS) {
    const raw = env[envName(key)];
    if (raw !== undefined) {
      const v = fromEnv(key, raw, warn);
      if (v !== undefined) fromEnvironment[key] = v;
    }
  }
  const flags = Object.fromEntries(Object.entries(options.flags ?? {}).filter(([, v]) => v !== undefined));
  const merged: Config = { ...defaultConfig(), ...file, ...(fromEnvironment as Partial<Config>), ...(flags as Partial<Config>) };
  for (const key of KEYS) {
    const why = refusal(key, merged[key]);
    if (why !== null) throw new SightlineError('usage', `configuration field "${key}": ${why}`);
  }
  return clampRanges(merged, warn);
}
