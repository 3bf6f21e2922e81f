/**
 * What mining reads from a bare mirror: the first-parent history of HEAD with
 * each commit's changed files (a merge against its first parent), the head of
 * files' text at a commit, and the file list of HEAD. Long commands run at nice 10.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { FileChange } from './gold.js';

export interface LoggedCommit {
  sha: string;
  parents: string[];
  author: string;
  message: string;
  changes: FileChange[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';

function gitArgs(gitDir: string, args: string[]): string[] {
  return ['-n', '10', 'git', '-c', 'core.quotePath=false', `--git-dir=${gitDir}`, ...args];
}

export function git(gitDir: string, args: string[], input?: string): Buffer {
  const r = spawnSync('nice', gitArgs(gitDir, args), { input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${gitDir} failed: ${r.stderr.toString().trim()}`);
  return r.stdout;
}

/** One `git log` record: sha, parents, author, message, then the name-status lines. */
export function parseLogRecord(record: string): LoggedCommit | null {
  const fields = record.split(FIELD);
  if (fields.length < 5) return null;
  const [sha, parents, author, message, files] = fields as [string, string, string, string, string];
  const changes: FileChange[] = [];
  for (const line of files.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    changes.push({ status: line.slice(0, tab), path: line.slice(tab + 1) });
  }
  return { sha: sha.trim(), parents: parents.split(' ').filter(Boolean), author, message, changes };
}

/** HEAD's first-parent history, newest first, streamed so a large history never sits in memory whole. */
export async function* firstParentHistory(gitDir: string, rev = 'HEAD'): AsyncGenerator<LoggedCommit> {
  const format = `${RECORD}%H${FIELD}%P${FIELD}%an <%ae>${FIELD}%B${FIELD}`;
  const args = ['log', '--first-parent', '--diff-merges=first-parent', '--no-renames', '--name-status', `--format=${format}`, rev];
  const child = spawn('nice', gitArgs(gitDir, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let pending = '';
  child.stdout.setEncoding('utf8');
  for await (const piece of child.stdout as AsyncIterable<string>) {
    pending += piece;
    const records = pending.split(RECORD);
    pending = records.pop() ?? '';
    for (const r of records) {
      const commit = r ? parseLogRecord(r) : null;
      if (commit) yield commit;
    }
  }
  const last = pending ? parseLogRecord(pending) : null;
  if (last) yield last;
  const code = await closed;
  if (code !== 0) throw new Error(`git log in ${gitDir} failed: ${stderr.trim()}`);
}

/** Enough of a file to classify it (fileKindOf reads five lines and the average line length). */
const TEXT_HEAD_BYTES = 64 * 1024;

/** The first bytes of each `commit:path` blob (missing ones read as ''), in one `git cat-file --batch`. */
export function textHeads(gitDir: string, specs: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (specs.length === 0) return out;
  const buf = git(gitDir, ['cat-file', '--batch'], specs.join('\n') + '\n');
  let pos = 0;
  for (const spec of specs) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const header = buf.subarray(pos, nl).toString();
    pos = nl + 1;
    const found = /^\S+ (\w+) (\d+)$/.exec(header);
    if (!found) {
      out.set(spec, ''); // "missing": no content follows
      continue;
    }
    const n = Number(found[2]);
    out.set(spec, found[1] === 'blob' ? buf.subarray(pos, pos + Math.min(n, TEXT_HEAD_BYTES)).toString('utf8') : '');
    pos += n + 1;
  }
  return out;
}

export function headCommit(gitDir: string): string {
  return git(gitDir, ['rev-parse', 'HEAD']).toString().trim();
}

export function filesAtHead(gitDir: string): string[] {
  return git(gitDir, ['ls-tree', '-r', '--name-only', 'HEAD']).toString().split('\n').filter(Boolean);
}
