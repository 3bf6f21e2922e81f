/**
 * The verbs that keep an index live and sound: `watch`, `status`, `doctor`,
 * `reset`. Exit codes: 0 ok (doctor: healthy), 2 usage, 3 doctor found
 * problems or the index is unreadable, 4 the disk refused, 1 anything else.
 */
import { Command, InvalidArgumentError } from 'commander';
import { doctor, jobStatus, keepLive, Repo, reset, type DoctorEnvelope, type IndexJobStatus, type PassResult, type ResetEnvelope } from '../engine/index.js';
import { describeError, SightlineError } from '../errors/index.js';
import { embedderFlags, embedderOptions, examples, type EmbedderFlags } from './verb.js';
import { sayWaiting } from './verb.js';

interface Flags extends EmbedderFlags {
  repo: string;
  config?: string;
  json?: boolean;
}

const say = (message: string) => process.stderr.write(`sightline: ${message}\n`);

function out(flags: Flags, value: object, text: () => string): void {
  process.stdout.write((flags.json ? JSON.stringify(value) : text()) + '\n');
}

function exitWith(err: unknown, flags: Flags): never {
  const message = describeError(err);
  if (flags.json) process.stdout.write(JSON.stringify({ status: 'error', error: message }) + '\n');
  say(message);
  process.exit(err instanceof SightlineError ? err.exitCode : 1);
}

function open(flags: Flags, overrides = {}): Repo {
  try {
    return Repo.open(flags.repo, { configPath: flags.config, flags: { ...embedderFlags(flags), ...overrides } });
  } catch (err) {
    exitWith(err, flags);
  }
}

function milliseconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of milliseconds');
  return Number(value);
}

const when = (iso: string | null) => iso?.replace('T', ' ').replace(/\.\d+Z$/, 'Z') ?? '-';

function renderStatus(s: IndexJobStatus): string {
  const c = s.counts;
  const who = s.pid === null ? '' : ` (pid ${s.pid} on ${s.host})`;
  const lines = [`status    ${s.status}${s.status === 'running' ? who : ''}`];
  if (s.status === 'none') return lines.concat('          no index pass has run; start one with `sightline index`').join('\n');
  lines.push(
    `phase     ${s.phase ?? '-'}${s.total > 0 ? ` ${s.done}/${s.total} files` : ''}`,
    `counts    scanned ${c.scanned}, added ${c.added}, updated ${c.updated}, removed ${c.removed}, unchanged ${c.unchanged}, skipped ${c.skipped}`,
    `          chunks ${c.chunks}, symbols ${c.symbols}, vectors ${c.vectors}`,
    `attempts  ${s.attempts}`,
    `started   ${when(s.started_at)}`,
    `ended     ${when(s.ended_at)}`,
  );
  if (s.error) lines.push(`error     ${s.error}`);
  return lines.join('\n');
}

function renderDoctor(d: DoctorEnvelope): string {
  const width = Math.max(...d.checks.map((c) => c.name.length));
  const rows = d.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}${c.fix ? `\n      ${' '.repeat(width)}  fix: ${c.fix}` : ''}`);
  return [`index ${d.index_path}`, ...rows, d.healthy ? 'healthy' : 'problems found; run the fixes above'].join('\n');
}

function renderReset(r: ResetEnvelope): string {
  if (!r.existed) return `no index to drop for ${r.repo}`;
  if (!r.dropped) return `deleted the unreadable index ${r.index_path}`;
  return `dropped the index of ${r.repo}: ${r.dropped.files} files, ${r.dropped.chunks} chunks, ${r.dropped.symbols} symbols; rebuild it with \`sightline index\``;
}

function renderPass(r: PassResult): string {
  const at = new Date().toISOString().slice(11, 23);
  if (!r.ok) return `${at} pass failed: ${r.error}`;
  const s = r.summary;
  return `${at} pass: ${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged in ${s.elapsedMs} ms`;
}

function common(cmd: Command): Command {
  return embedderOptions(cmd.option('--repo <path>', 'repository root', '.').option('--config <file>', 'config file (default: <repo>/sightline.config.json)')).option(
    '--json',
    'print JSON instead of text',
  );
}

export function registerLive(program: Command): void {
  common(
    program
      .command('watch [path]')
      .description('keep the index current: index on file changes (debounced), and reconcile periodically for what events miss')
      .option('--debounce <ms>', 'quiet time after a change before a pass (default 300; config watchDebounceMs)', milliseconds)
      .option('--reconcile <ms>', 'mean interval of the jittered full reconcile, 0 for none (default 600000; config reconcileIntervalMs)', milliseconds)
      .addHelpText(
        'after',
        examples('sightline watch', 'sightline watch ../service --debounce 100', 'sightline watch --json   # one JSON line per pass') +
          '\nOne line per pass on stdout; Ctrl-C stops (a pass in progress stops at its next file, and the next run resumes it).\n',
      ),
  ).action(async (path: string | undefined, o: Flags & { debounce?: number; reconcile?: number }) => {
    const flags = { ...o, repo: path ?? o.repo };
    const repo = open(flags, { watchDebounceMs: o.debounce, reconcileIntervalMs: o.reconcile });
    const live = await keepLive(repo, { onError: (err) => say(`watch: ${describeError(err)}`) }).catch((err) => exitWith(err, flags));
    live.job.onPass((r) => out(flags, { event: 'pass', ...r }, () => renderPass(r)));
    const { watchDebounceMs, reconcileIntervalMs } = repo.config;
    say(`watching ${repo.root} (debounce ${watchDebounceMs} ms, reconcile ${reconcileIntervalMs ? `every ~${Math.round(reconcileIntervalMs / 1000)} s` : 'off'}); Ctrl-C stops`);
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        live
          .close()
          .catch((err) => say(describeError(err)))
          .finally(() => {
            repo.close();
            process.exit(0);
          });
      });
    }
  });

  common(
    program
      .command('status')
      .description("the index job, from any process: status, phase, live counts, attempts, times, and why it failed")
      .addHelpText('after', examples('sightline status', 'sightline status --repo ../service --json')),
  ).action((o: Flags) => {
    const repo = open(o);
    try {
      const s = jobStatus(repo);
      out(o, { status: 'ok', job: s }, () => renderStatus(s));
    } catch (err) {
      exitWith(err, o);
    } finally {
      repo.close();
    }
  });

  common(
    program
      .command('doctor')
      .description('check the index: integrity, orphan rows, files missing chunks, chunks missing terms, schema version, the last pass; suggests a fix for each problem')
      .addHelpText('after', examples('sightline doctor', 'sightline doctor --json') + '\nExit code 0 when healthy, 3 when a problem was found.\n'),
  ).action((o: Flags) => {
    const repo = open(o);
    let report: DoctorEnvelope;
    try {
      report = doctor(repo);
    } catch (err) {
      exitWith(err, o);
    }
    out(o, report, () => renderDoctor(report));
    process.exitCode = report.healthy ? 0 : 3;
  });

  common(
    program
      .command('reset')
      .description('drop the index of a repository (waits for a running pass); `sightline index` builds it again')
      .addHelpText('after', examples('sightline reset', 'sightline reset --repo ../service --json')),
  ).action(async (o: Flags) => {
    const repo = open(o);
    try {
      const r = await reset(repo, { onWait: sayWaiting });
      out(o, r, () => renderReset(r));
    } catch (err) {
      exitWith(err, o);
    } finally {
      repo.close();
    }
  });
}
