/**
 * What the dashboard's browser tests and its benchmark share: Debian's
 * Chromium driven by playwright-core (never a downloaded browser), with a
 * fresh profile in a temp folder, and `sightline dashboard` from dist/ as a
 * child process whose printed URL (stdout) is read back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';

/** dist/src/cli/main.js, whether this file runs from bench/ (vitest) or dist/bench/ (the benchmark). */
export function cliPath(): string {
  const fromDist = path.resolve(import.meta.dirname, '../src/cli/main.js');
  return fs.existsSync(fromDist) ? fromDist : path.resolve(import.meta.dirname, '../dist/src/cli/main.js');
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** One browser with a profile of its own, removed on close. */
export async function launchChromium(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport, offline: false });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Dashboard {
  proc: ChildProcess;
  /** The URL it printed, token fragment included. */
  url: URL;
  token: string;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `sightline dashboard` (or `serve --transport http` with `verb: 'serve'`) on a free port and waits for its URL. */
export async function startDashboard(args: string[], env: NodeJS.ProcessEnv, verb: 'dashboard' | 'serve' = 'dashboard'): Promise<Dashboard> {
  const verbArgs = verb === 'dashboard' ? ['dashboard', '--port', '0'] : ['serve', '--transport', 'http', '--port', '0'];
  const proc = spawn(process.execPath, [cliPath(), ...verbArgs, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  const printed = () => (verb === 'dashboard' ? out : err).match(/(http:\/\/\S+\/#token=([A-Za-z0-9_-]+))/);
  while (!printed()) {
    if (proc.exitCode !== null) throw new Error(`${verb} exited ${proc.exitCode}:\n${err}`);
    if (Date.now() > deadline) throw new Error(`${verb} printed no URL in 30 s:\n${err}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const [, url, token] = printed()!;
  return {
    proc,
    url: new URL(url!),
    token: token!,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
