/**
 * Indexes the history of a git work tree: the newest commits reachable from
 * HEAD, their messages and the files each touched. Incremental: each pass lists
 * the commits HEAD now reaches, reads only those not stored yet, and forgets
 * stored ones HEAD no longer reaches (after a reset or a checkout of an older
 * commit), so nothing past HEAD is ever kept. Outside a work tree it keeps
 * nothing; a repository without git ranks without this signal.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexText } from '../terms/index.js';
import { MAX_TERM_STATS_DRIFT, type CommitRecord, type Store } from '../store/index.js';
import { readGitHead, type GitHead } from './git-head.js';

/** Newest commits kept: enough to cover years of a busy project, cheap to list again. */
const MAX_COMMITS = 5000;
/** A commit touching more files is a sweep (formatting, renames, licence headers): its paths say nothing. */
const MAX_FILES_PER_COMMIT = 100;
const HEAD_KEY = 'history_head';
const RECORD = '\x1e';
const FIELD = '\x1f';

export interface HistorySummary {
  added: number;
  removed: number;
}

function git(root: string, args: string[], input?: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['-c', 'core.quotePath=false', ...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (err, stdout) => resolve(err ? null : stdout),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

type ReadCommit = { commit: CommitRecord; message: string };

const LOG = ['log', '--relative', '--name-only', `--format=${RECORD}%H${FIELD}%ct${FIELD}%B${FIELD}`];

/** The commits' files and messages, read in one `git log` over the given hashes; null when git failed. */
function readCommits(root: string, hashes: string[]): Promise<ReadCommit[] | null> {
  if (hashes.length === 0) return Promise.resolve([]);
  return readLog(root, ['--no-walk=unsorted', '--stdin'], hashes.join('\n') + '\n');
}

/**
 * What `git log` with these arguments lists, newest first; null when git failed. Written to a file,
 * not a pipe: a pipe holds 64 KiB, and git would wait on this thread (resolving the graph
 * meanwhile) to drain it. The file lies in a folder of its own that only this user can read.
 */
async function readLog(root: string, args: string[], input?: string): Promise<ReadCommit[] | null> {
  let out: string | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-log-'));
  try {
    const file = path.join(dir, 'log');
    if ((await git(root, [...LOG, `--output=${file}`, ...args], input)) !== null) out = fs.readFileSync(file, 'utf8');
  } catch {
    // git wrote no file
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (out === null) return null;
  const commits: ReadCommit[] = [];
  for (const entry of out.split(RECORD)) {
    const [hash, time, message, names] = entry.split(FIELD);
    if (!hash || names === undefined) continue;
    const files = names.split('\n').filter(Boolean);
    commits.push({
      commit: { hash, time: Number(time), fileCount: files.length, files: files.length > MAX_FILES_PER_COMMIT ? [] : files },
      message: message ?? '',
    });
  }
  return commits;
}

/**
 * Where `root` stands in git: its prefix in the work tree and HEAD (null: not a work tree, or no commit yet).
 * Read from git's files when their layout is the usual one (git-head.ts), else asked of git. Never touches the index.
 */
export async function gitHead(root: string): Promise<GitHead | null> {
  const reading = readGitHead(root);
  if (reading !== 'ask-git') return reading;
  const prefix = await git(root, ['rev-parse', '--show-prefix']);
  const head = prefix === null ? null : (await git(root, ['rev-parse', '--verify', '-q', 'HEAD']))?.trim() || null;
  return head === null ? null : { prefix: prefix!, head };
}

/**
 * Brings the stored history in line with HEAD; null when `root` is not inside a git work tree.
 * `at` may be started early (gitHead), so its processes run while the caller works.
 */
export async function indexHistory(root: string, store: Store, at = gitHead(root)): Promise<HistorySummary | null> {
  const where = await at;
  if (where === null) {
    // Not a work tree (or no commit yet): whatever was stored no longer describes it.
    if (store.history.stored().size > 0) store.transaction(() => store.history.clear());
    store.setMeta(HEAD_KEY, '');
    return null;
  }
  const { prefix, head } = where;
  if (store.getMeta(HEAD_KEY) === head) return { added: 0, removed: 0 };
  // Below the top level, only commits that touched this directory.
  const scope = prefix.trim() ? ['--', '.'] : [];
  const range = ['--no-merges', `--max-count=${MAX_COMMITS}`, 'HEAD', ...scope];
  const stored = store.history.stored();
  // Nothing stored: one `git log` lists and reads the commits, with no list to compare first.
  let wanted: Set<string> | null = null;
  if (stored.size > 0) {
    const listed = await git(root, ['rev-list', ...range]);
    if (listed === null) return null;
    wanted = new Set(listed.split('\n').filter(Boolean));
  }
  const gone = wanted ? [...stored].filter(([hash]) => !wanted.has(hash)) : [];
  const fresh = wanted ? await readCommits(root, [...wanted].filter((h) => !stored.has(h))) : await readLog(root, range);
  if (fresh === null) return null; // nothing recorded: the next pass asks again
  store.transaction(() => {
    for (const [, id] of gone) store.history.delete(id);
    for (const { commit, message } of fresh) store.history.add(commit, indexText(message));
    store.setMeta(HEAD_KEY, head);
  });
  // Each forgotten commit (a reset, or the window sliding) leaves BM25's row count high. The message
  // terms are not kept, so past the drift every commit is read again, which resets it.
  if (gone.length > 0 && store.history.statsDrift() > MAX_TERM_STATS_DRIFT) {
    const all = await readCommits(root, [...wanted!]);
    if (all === null) return { added: fresh.length, removed: gone.length };
    store.transaction(() => {
      store.history.clear();
      for (const { commit, message } of all) store.history.add(commit, indexText(message));
    });
  }
  return { added: fresh.length, removed: gone.length };
}
