/**
 * npm run bench:mcp-query -- [--build NAME=CLI]... [--rounds N] [--cpu-prof DIR] <tree>...
 * Query latency over MCP stdio only, with builds side by side: each build
 * (this one as "this", and any other `dist/src/cli/main.js` named with
 * --build, say the commit before a change) indexes each tree in its own home,
 * serves it (`serve --no-watch`, answer cache off), and every call goes to
 * every build in turn, so load on a shared machine falls on all alike. The
 * queries are bench:peer's (bench/peer-tree.ts): 15 identifiers the tree
 * defines and 15 word queries; keyword and hybrid `search` over all 30,
 * `locate` over the identifiers. --cpu-prof writes each server's CPU profile
 * under DIR. Run `npm run build` first. It prints tables and asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { definedNames, pickQueries, sourceFiles } from './peer-tree.js';
import { CLI, runTimed, sightlineAnswer } from './peer-systems.js';
import { percentile, table, usage } from './util.js';

const USAGE = 'usage: npm run bench:mcp-query -- [--build NAME=path/to/dist/src/cli/main.js]... [--rounds N] [--cpu-prof DIR] <tree>...';

interface Build {
  name: string;
  cli: string;
}

interface Args {
  builds: Build[];
  rounds: number;
  cpuProf?: string;
  trees: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { builds: [{ name: 'this', cli: CLI }], rounds: 3, trees: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--build') {
      const m = /^([^=]+)=(.+)$/.exec(argv[++i] ?? '');
      if (!m || !fs.existsSync(m[2]!)) usage(`--build takes NAME=CLI, an existing dist/src/cli/main.js\n${USAGE}`);
      args.builds.push({ name: m[1]!, cli: path.resolve(m[2]!) });
    } else if (a === '--rounds') {
      args.rounds = Number(argv[++i]);
      if (!Number.isInteger(args.rounds) || args.rounds < 1) usage(`--rounds takes a whole number of at least 1\n${USAGE}`);
    } else if (a === '--cpu-prof') {
      args.cpuProf = path.resolve(argv[++i] ?? usage(USAGE));
    } else args.trees.push(a);
  }
  if (args.trees.length === 0) usage(USAGE);
  return args;
}

interface Probe {
  label: string;
  tool: 'search' | 'locate';
  over: 'identifiers' | 'all';
  args: (query: string) => Record<string, unknown>;
}

const PROBES: Probe[] = [
  { label: 'search keyword', tool: 'search', over: 'all', args: (query) => ({ query, mode: 'keyword' }) },
  { label: 'search hybrid', tool: 'search', over: 'all', args: (query) => ({ query, mode: 'hybrid' }) },
  { label: 'locate', tool: 'locate', over: 'identifiers', args: (query) => ({ query }) },
];

interface Served {
  build: Build;
  client: Client;
  home: string;
}

async function serve(build: Build, tree: string, home: string, cpuProf: string | undefined): Promise<Served> {
  const env = { PATH: process.env.PATH ?? '', SIGHTLINE_HOME: home, SIGHTLINE_QUERY_CACHE_SIZE: '0' };
  await runTimed({ cmd: process.execPath, args: [build.cli, 'index', '--repo', tree] }, env);
  const prof = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', path.join(cpuProf, `${path.basename(tree)}-${build.name}`)] : [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [...prof, build.cli, 'serve', '--no-watch', '--repo', tree], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench-mcp-query', version: '1' });
  await client.connect(transport);
  return { build, client, home };
}

async function call(s: Served, probe: Probe, query: string): Promise<{ ms: number; refine: boolean }> {
  const t0 = performance.now();
  const r = (await s.client.callTool({ name: probe.tool, arguments: probe.args(query) })) as CallToolResult;
  const ms = performance.now() - t0;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (r.isError) throw new Error(`${s.build.name} ${probe.tool} ${query}: ${text.slice(0, 300)}`);
  return { ms, refine: sightlineAnswer(text).refine };
}

async function benchTree(tree: string, args: Args): Promise<(string | number)[][]> {
  const files = sourceFiles(tree);
  const queries = pickQueries(files.flatMap((f) => definedNames(fs.readFileSync(path.join(tree, f.rel), 'utf8'))));
  const servers: Served[] = [];
  try {
    for (const build of args.builds) servers.push(await serve(build, tree, fs.mkdtempSync(path.join(os.tmpdir(), `mcp-query-${build.name}-`)), args.cpuProf));
    const rows: (string | number)[][] = [];
    for (const probe of PROBES) {
      const asked = probe.over === 'identifiers' ? queries.identifiers : [...queries.identifiers, ...queries.words];
      for (const s of servers) await call(s, probe, asked[0]!); // warm: page cache, statements, JIT
      const ms = new Map(servers.map((s) => [s, [] as number[]]));
      const refined = new Map(servers.map((s) => [s, new Set<string>()]));
      for (let round = 0; round < args.rounds; round++) {
        for (const q of asked) {
          for (const s of servers) {
            const answer = await call(s, probe, q);
            ms.get(s)!.push(answer.ms);
            if (answer.refine) refined.get(s)!.add(q);
          }
        }
      }
      for (const s of servers) {
        const m = ms.get(s)!;
        const r = [...refined.get(s)!];
        rows.push([path.basename(tree), s.build.name, probe.label, String(m.length), percentile(m, 50), percentile(m, 95), r.length ? `${r.length} of ${asked.length}: ${r.join(', ')}` : '0']);
      }
    }
    return rows;
  } finally {
    for (const s of servers) {
      await s.client.close();
      fs.rmSync(s.home, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const before = load();
  const rows: (string | number)[][] = [];
  for (const tree of args.trees) rows.push(...(await benchTree(path.resolve(tree), args)));
  process.stdout.write(
    `bench:mcp-query, ${args.rounds} round(s), builds interleaved call by call (${args.builds.map((b) => `${b.name}: ${b.cli}`).join('; ')}); ` +
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${before} before, ${load()} after\n\n` +
      table(['tree', 'build', 'tool', 'calls', 'p50 ms', 'p95 ms', 'queries answered refine'], rows) +
      '\n',
  );
}

await main();
