/** `list_files`: the indexed files, filtered by glob and language. */
import picomatch from 'picomatch';
import { usageError } from '../errors/index.js';
import type { Repo } from './repo.js';

export interface ListFilesOptions {
  glob?: string;
  language?: string;
  maxResults?: number;
}

export interface ListedFile {
  path: string;
  language: string | null;
  kind: string;
  lines: number;
  /** Tokens to read the whole file, estimated from its chunks. */
  est_tokens: number;
  bytes: number;
}

export interface ListFilesEnvelope {
  status: 'ok';
  total: number;
  truncated: boolean;
  files: ListedFile[];
}

const DEFAULT_MAX = 200;

export function listFiles(repo: Repo, options: ListFilesOptions = {}): ListFilesEnvelope {
  const max = options.maxResults ?? DEFAULT_MAX;
  if (!Number.isInteger(max) || max < 1) throw usageError(`max_results must be a positive integer (got ${max})`);
  const matches = options.glob ? picomatch(options.glob, { dot: true }) : () => true;
  const language = options.language?.toLowerCase();
  const files = repo.store.files
    .list()
    .filter((f) => matches(f.path) && (!language || f.language === language))
    .map((f) => ({ path: f.path, language: f.language, kind: f.kind, lines: f.lineCount, est_tokens: f.tokens, bytes: f.size }));
  return { status: 'ok', total: files.length, truncated: files.length > max, files: files.slice(0, max) };
}
