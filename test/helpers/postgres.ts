/**
 * A real, throw-away PostgreSQL server for tests and the team benchmark:
 * Debian's `initdb` into a temp folder, `pg_ctl start` on a free loopback
 * port, removed by `stop()`. initdb refuses root, so as root the cluster
 * belongs to `nobody` and the server runs as that user. No vitest here, so
 * bench/team-bench.ts can start one too (use-postgres.ts adds the hooks).
 */
import { execFileSync, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PostgresServer {
  /** postgres://… for the `sightline` database, as the server's superuser. */
  url: string;
  port: number;
  stop(): void;
}

const NOBODY = { uid: 65534, gid: 65534 };

/** The folder holding initdb and pg_ctl: PATH first, else Debian's versioned folder. */
function postgresBin(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return path.dirname(fs.realpathSync(onPath));
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb'))) : [];
  if (!versions.length) throw new Error('PostgreSQL is not installed: apt-get install postgresql (the team backend tests need initdb and pg_ctl)');
  return path.join(base, versions.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function run(bin: string, args: string[], as: SpawnSyncOptions): void {
  const r = spawnSync(bin, args, { encoding: 'utf8', timeout: 120_000, ...as });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-pg-'));
  const as: SpawnSyncOptions = process.getuid?.() === 0 ? NOBODY : {};
  if (as.uid !== undefined) fs.chownSync(dir, NOBODY.uid, NOBODY.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], as);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start'], as);
  const stop = () => {
    spawnSync(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { timeout: 60_000, ...as });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'sightline'], { stdio: 'pipe', timeout: 60_000 });
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/sightline`, port, stop };
}
