/**
 * `health`: can this repository be served, and from what. Unlike `stats` it
 * never throws: a missing or unreadable index is reported, with the fix.
 */
import fs from 'node:fs';
import { describeError, isCorruption } from '../errors/index.js';
import { indexSource, type IndexSource } from '../index/index.js';
import { SCHEMA_VERSION } from '../store/index.js';
import { redactUrl } from '../team/index.js';
import type { IndexJob, IndexJobState, Recovery } from './jobs.js';
import { recoveredSentence, type Repo } from './repo.js';

/** `damaged`: the file cannot be read as an index; `rebuilding`: it was moved aside and a new one is being built. */
export type IndexHealth = 'ready' | 'missing' | 'building' | 'rebuilding' | 'damaged' | 'unreadable';

export interface HealthEnvelope {
  status: 'ok';
  repo: string;
  repo_readable: boolean;
  index: IndexHealth;
  index_path: string;
  schema_version: number;
  last_indexed_at: string | null;
  files: number | null;
  /** What the local index was built from, so answers of two servers can be compared. */
  index_source: IndexSource;
  /** Where memory and claims live: `sqlite` (the index file) or the team database's URL, password hidden. */
  memory_store: string;
  /** The repository's name in the team database (null on sqlite). */
  team_repo: string | null;
  job: IndexJobState;
  /** A damaged index this server found and rebuilt (or is rebuilding): why, where it went, what became of memory. */
  recovered: Recovery | null;
  /** What is wrong and what to do, when something is. */
  problems: string[];
}

function readable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

export function health(repo: Repo, job: IndexJob): HealthEnvelope {
  const problems: string[] = [];
  const repoReadable = readable(repo.root);
  if (!repoReadable) problems.push(`the repository ${repo.root} cannot be read; check that it exists and its permissions`);
  const jobState = job.snapshot();
  let index: IndexHealth = 'missing';
  let lastIndexedAt: string | null = null;
  let files: number | null = null;
  let source: IndexSource = { commit: null, digest: null };
  try {
    if (fs.existsSync(repo.dbPath)) {
      lastIndexedAt = repo.store.getMeta('last_indexed_at') ?? null;
      files = repo.store.counts().files;
      source = indexSource(repo.store);
      index = lastIndexedAt ? 'ready' : jobState.status === 'running' ? 'building' : 'missing';
    } else if (jobState.status === 'running') {
      index = 'building';
    }
  } catch (err) {
    index = isCorruption(err) ? 'damaged' : 'unreadable';
    problems.push(describeError(err));
  }
  const recovery = job.recovery;
  if (recovery && !recovery.rebuilt) {
    if (index !== 'damaged') index = 'rebuilding';
    problems.push(`${recoveredSentence(recovery)}; the new one is being built in the background`);
  }
  if (jobState.status === 'failed' && jobState.error) problems.push(`the last index pass failed: ${jobState.error}`);
  return {
    status: 'ok',
    repo: repo.root,
    repo_readable: repoReadable,
    index,
    index_path: repo.dbPath,
    schema_version: SCHEMA_VERSION,
    last_indexed_at: lastIndexedAt,
    files,
    index_source: source,
    memory_store: repo.config.databaseUrl ? redactUrl(repo.config.databaseUrl) : 'sqlite',
    team_repo: repo.config.databaseUrl ? repo.teamName : null,
    job: jobState.status,
    recovered: recovery,
    problems,
  };
}
