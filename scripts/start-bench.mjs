#!/usr/bin/env node
/**
 * Process start of CLI builds side by side (docs/benchmarks.md, Process start): each command is
 * run by every build in turn, round after round, so a change of machine load falls on all of
 * them alike; prints the median wall / CPU ms of each (CPU from /usr/bin/time, when present).
 *
 *   npm run bench:start -- [--runs N] <tree> NAME=<dist/src/cli/main.js>:<SIGHTLINE_HOME>...
 *
 * Each build needs its own SIGHTLINE_HOME with <tree> indexed by that build (`index` once), so
 * every answer comes from a warm index; commands run with <tree> as the working directory. A
 * search that is refused (`refine`) counts its refusals, and every third one answers: keep N a
 * multiple of 3 so each build sees the same mix.
 *
 * A stdio server is timed too, with the MCP SDK's client: from spawning `serve` to its answer to
 * `initialize`, and from there to its first `search` (keyword), the one that starts a read-pool
 * worker. Those rows give wall ms only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const USAGE = 'usage: npm run bench:start -- [--runs N] <tree> NAME=<dist/src/cli/main.js>:<SIGHTLINE_HOME>...';
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
let runs = 12;
if (args[0] === '--runs') {
  runs = Number(args[1]);
  args.splice(0, 2);
}
const [tree, ...specs] = args;
const builds = specs.map((spec) => {
  const m = /^([^=]+)=(.+):([^:]+)$/.exec(spec);
  if (!m || !fs.existsSync(m[2])) throw new Error(`${spec}: not NAME=<existing cli>:<home>\n${USAGE}`);
  return { name: m[1], cli: m[2], home: m[3] };
});
if (!tree || builds.length === 0 || !Number.isInteger(runs) || runs < 1) throw new Error(USAGE);

const COMMANDS = [
  ['node -e 0', null],
  ['sightline --version', ['--version']],
  ['sightline search "where are files walked" --mode keyword --json', ['search', 'where are files walked', '--mode', 'keyword', '--json']],
  ['sightline search "where are files walked" --json (hybrid)', ['search', 'where are files walked', '--json']],
  ['sightline locate Flask --json', ['locate', 'Flask', '--json']],
  ['sightline index --json (nothing changed)', ['index', '--json']],
];
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** One run: wall ms, and CPU ms (user + system) when /usr/bin/time can tell. */
function once(argv, home) {
  const command = TIME ? [TIME, '-f', '%U %S', process.execPath, ...argv] : [process.execPath, ...argv];
  const started = process.hrtime.bigint();
  const r = spawnSync(command[0], command.slice(1), { cwd: tree, env: { ...process.env, SIGHTLINE_HOME: home }, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`);
  const [user, system] = TIME ? r.stderr.trim().split('\n').pop().split(' ').map(Number) : [NaN, NaN];
  return { wall, cpu: (user + system) * 1000 };
}

/** A stdio server's start, wall ms: spawn → initialized, and initialized → its first search answered. */
async function served(cli, home) {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--no-watch'], cwd: tree, env: { ...process.env, SIGHTLINE_HOME: home }, stderr: 'ignore' });
  const client = new Client({ name: 'start-bench', version: '1' });
  await client.connect(transport);
  const initialized = performance.now();
  const answer = await client.callTool({ name: 'search', arguments: { query: 'where are files walked', mode: 'keyword' } });
  const answered = performance.now();
  await client.close();
  if (answer.isError) throw new Error(`serve's first search failed: ${JSON.stringify(answer.content).slice(0, 300)}`);
  return [{ wall: initialized - started }, { wall: answered - initialized }];
}
const SERVED = ['sightline serve (stdio): spawn → initialize answered', 'sightline serve: then its first search, at once (its read worker still loading)'];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const samples = new Map(); // command → build → runs
function add(label, build, sample) {
  const by = samples.get(label) ?? samples.set(label, new Map()).get(label);
  (by.get(build) ?? by.set(build, []).get(build)).push(sample);
}
for (let round = 0; round < runs; round++) {
  for (const [label, argv] of COMMANDS) {
    for (const build of argv ? builds : [{ name: 'node', cli: null, home: builds[0].home }]) {
      add(label, build.name, once(argv ? [build.cli, ...argv] : ['-e', '0'], build.home));
    }
  }
  for (const build of builds) {
    const times = await served(build.cli, build.home);
    SERVED.forEach((label, i) => add(label, build.name, times[i]));
  }
}
const cell = (xs) => `${median(xs.map((x) => x.wall)).toFixed(0)} / ${TIME && xs[0].cpu !== undefined ? median(xs.map((x) => x.cpu)).toFixed(0) : '–'}`;
console.log(`| command | ${builds.map((b) => b.name).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---').join('|')}|`);
for (const [label, by] of samples) {
  console.log(`| \`${label}\` | ${builds.map((b) => (by.has(b.name) ? cell(by.get(b.name)) : label === 'node -e 0' && b === builds[0] ? cell(by.get('node')) : '')).join(' | ')} |`);
}
