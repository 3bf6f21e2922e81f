/** Small repositories built inside temp folders, and an isolated SIGHTLINE_HOME for each test. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { Repo } from '../../src/engine/index.js';

export function tempDir(prefix = 'sightline-test-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes `files` (path → content) under a fresh directory and returns its path. */
export function makeRepo(files: Record<string, string | Buffer>): string {
  const root = tempDir('sightline-repo-');
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** Sets an mtime in the past so the stat fast-path can trust it (mtime strictly older than the last read). */
export function age(root: string, rel: string, secondsAgo = 60): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(path.join(root, rel), t, t);
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface FixtureRepo {
  readonly root: string;
  readonly home: string;
}

/**
 * A test file's shared repository of `files` and its index home: made before
 * its tests (then `setup` runs), removed after them. Read the fields inside tests.
 */
export function useRepo(files: Record<string, string | Buffer> = SAMPLE_FILES, setup?: (fixture: FixtureRepo) => unknown): FixtureRepo {
  const fixture = { root: '', home: '' };
  beforeAll(async () => {
    fixture.root = makeRepo(files);
    fixture.home = tempDir('sightline-home-');
    await setup?.(fixture);
  });
  afterAll(() => {
    removeDir(fixture.root);
    removeDir(fixture.home);
  });
  return fixture;
}

export interface IndexedRepo {
  root: string;
  home: string;
  repo: Repo;
  /** Opens the same repository and index again, as a second process would (with other knobs, if given). */
  reopen: (more?: Partial<Config>) => Repo;
  /** Closes every handle opened and removes the repository and its home. */
  cleanup: () => void;
}

/**
 * The one way a test gets an indexed repository of its own: `files` written
 * to a fresh folder, indexed into a fresh home, with `flags` and `env` (by
 * default the environment is ignored and the builtin embedder runs).
 */
export async function indexedRepo(options: { files?: Record<string, string | Buffer>; flags?: Partial<Config>; env?: NodeJS.ProcessEnv } = {}): Promise<IndexedRepo> {
  const root = makeRepo(options.files ?? SAMPLE_FILES);
  const home = tempDir('sightline-home-');
  const open = (more: Partial<Config> = {}) => Repo.open(root, { flags: { home, ...options.flags, ...more }, env: options.env ?? {} });
  const repo = open();
  const opened: Repo[] = [repo];
  const cleanup = () => {
    for (const r of opened) r.close();
    removeDir(root);
    removeDir(home);
  };
  try {
    await repo.index();
  } catch (err) {
    cleanup();
    throw err;
  }
  return {
    root,
    home,
    repo,
    reopen: (more = {}) => {
      const again = open(more);
      opened.push(again);
      return again;
    },
    cleanup,
  };
}

/** useRepo, plus the repository opened (environment ignored; `flags()` read when it opens) and indexed before the tests. */
export function useIndexedRepo(files: Record<string, string | Buffer> = SAMPLE_FILES, flags: () => Partial<Config> = () => ({})): FixtureRepo & { readonly repo: Repo } {
  const fixture = Object.assign(
    useRepo(files, async ({ root, home }) => {
      fixture.repo = Repo.open(root, { flags: { home, ...flags() }, env: {} });
      await fixture.repo.index();
    }),
    { repo: undefined as unknown as Repo },
  );
  afterAll(() => fixture.repo?.close());
  return fixture;
}

/** A sample repository with code, tests, docs and a few languages. */
export const SAMPLE_FILES: Record<string, string> = {
  'src/auth/session.ts': [
    'import { hashToken } from "../util/crypto";',
    '',
    '/** A logged-in user session. */',
    'export class SessionManager {',
    '  private sessions = new Map<string, string>();',
    '',
    '  createSession(userName: string): string {',
    '    const token = hashToken(userName + Date.now());',
    '    this.sessions.set(token, userName);',
    '    return token;',
    '  }',
    '',
    '  getUserName(token: string): string | undefined {',
    '    return this.sessions.get(token);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/util/crypto.ts': [
    'import { createHash } from "node:crypto";',
    '',
    'export function hashToken(input: string): string {',
    '  return createHash("sha256").update(input).digest("hex");',
    '}',
    '',
  ].join('\n'),
  'src/server/http_server.py': [
    'import socket',
    '',
    '',
    'class HTTPServer:',
    '    """Serves requests over plain sockets."""',
    '',
    '    def __init__(self, port):',
    '        self.port = port',
    '',
    '    def serve_forever(self):',
    '        sock = socket.socket()',
    '        sock.bind(("127.0.0.1", self.port))',
    '        return sock',
    '',
    '',
    'def parse_request_line(line):',
    '    method, target, version = line.split(" ")',
    '    return method, target, version',
    '',
  ].join('\n'),
  'test/session.test.ts': [
    'import { SessionManager } from "../src/auth/session";',
    '',
    'test("getUserName returns the user", () => {',
    '  const m = new SessionManager();',
    '  const t = m.createSession("ada");',
    '  expect(m.getUserName(t)).toBe("ada");',
    '});',
    '',
  ].join('\n'),
  'docs/sessions.md': '# Sessions\n\nThe SessionManager keeps a token for each user name.\nCall getUserName to look one up.\n',
  'README.md': '# sample\n\nA tiny repository used by the tests.\n',
};
