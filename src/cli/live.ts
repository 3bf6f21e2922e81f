/**
 * The verbs that keep an index live and sound: `watch`, `status`, `doctor`,
 * `reset`. Exit codes: 0 ok (doctor: healthy), 2 usage, 3 doctor found
 * problems or the index is unreadable, 4 the disk refused, 1 anything else.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Engine, DoctorEnvelope, IndexJobStatus, PassResult, Recovered, ResetEnvelope } from '../engine/index.js';
import { describeError } from '../errors/index.js';
import { addVerb, INDEX_STATUS } from '../spec/cli.js';
import { common, embedderFlags, emit, examples, fail, sayWaiting, withEngine, type CommonOptions } from './verb.js';

const say = (message: string) => process.stderr.write(`sightline: ${message}\n`);

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

function renderReset(r: ResetEnvelope, recoveredSentence: (r: Recovered) => string): string {
  if (!r.existed) return `no index to drop for ${r.repo}`;
  if (!r.dropped) return `${recoveredSentence(r.recovered!)}; rebuild it with \`sightline index\``;
  return `dropped the index of ${r.repo}: ${r.dropped.files} files, ${r.dropped.chunks} chunks, ${r.dropped.symbols} symbols; rebuild it with \`sightline index\``;
}

function renderPass(r: PassResult): string {
  const at = new Date().toISOString().slice(11, 23);
  if (!r.ok) return `${at} pass failed: ${r.error}`;
  const s = r.summary;
  return `${at} pass: ${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged in ${s.elapsedMs} ms`;
}

export function registerLive(program: Command): void {
  common(
    program
      .command('watch [path]')
      .description('keep the index current: index on file changes (debounced), and reconcile periodically for what events miss')
      .option('--debounce <ms>', 'the longest quiet time a burst of changes waits for before a pass (default 300; config watchDebounceMs; a lone change waits watchSettleMs, 30)', milliseconds)
      .option('--reconcile <ms>', 'mean interval of the jittered full reconcile, 0 for none (default 600000; config reconcileIntervalMs)', milliseconds)
      .addHelpText(
        'after',
        examples('sightline watch', 'sightline watch ../service --debounce 100', 'sightline watch --json   # one JSON line per pass') +
          '\nOne line per pass on stdout; Ctrl-C stops (a pass in progress stops at its next file, and the next run resumes it).\n',
      ),
  ).action(async (path: string | undefined, o: CommonOptions & { debounce?: number; reconcile?: number }) => {
    const flags = { ...o, repo: path ?? o.repo };
    // Held open until a signal stops the watch, so not withEngine (which closes when its body returns).
    let engine: Engine;
    try {
      const { openEngine } = await import('../engine/index.js');
      engine = openEngine(flags.repo, { configPath: flags.config, flags: { ...embedderFlags(flags), watchDebounceMs: o.debounce, reconcileIntervalMs: o.reconcile } });
    } catch (err) {
      fail(err, flags.json);
    }
    const { repo } = engine;
    const live = await engine.keepLive({ onError: (err) => say(`watch: ${describeError(err)}`) }).catch((err) => fail(err, flags.json));
    live.job.onPass((r) => emit(flags, { event: 'pass', ...r }, () => renderPass(r)));
    const { watchDebounceMs, reconcileIntervalMs } = repo.config;
    say(`watching ${repo.root} (debounce ${watchDebounceMs} ms, reconcile ${reconcileIntervalMs ? `every ~${Math.round(reconcileIntervalMs / 1000)} s` : 'off'}); Ctrl-C stops`);
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        engine
          .close()
          .catch((err) => say(describeError(err)))
          .finally(() => process.exit(0));
      });
    }
  });

  common(addVerb(program, INDEX_STATUS)).action((o: CommonOptions) =>
    withEngine(o, async ({ repo }) => {
      const { jobStatus } = await import('../engine/index.js');
      const s = jobStatus(repo);
      emit(o, { status: 'ok', job: s }, () => renderStatus(s));
    }),
  );

  common(
    program
      .command('doctor')
      .description('check the index: integrity, orphan rows, files missing chunks, chunks missing terms, schema version, the last pass; suggests a fix for each problem')
      .addHelpText('after', examples('sightline doctor', 'sightline doctor --json') + '\nExit code 0 when healthy, 3 when a problem was found.\n'),
  ).action((o: CommonOptions) =>
    withEngine(o, async ({ repo }) => {
      const { doctor } = await import('../engine/index.js');
      const report = doctor(repo);
      emit(o, report, renderDoctor);
      process.exitCode = report.healthy ? 0 : 3;
    }),
  );

  common(
    program
      .command('reset')
      .description('drop the index of a repository (waits for a running pass); `sightline index` builds it again')
      .addHelpText('after', examples('sightline reset', 'sightline reset --repo ../service --json')),
  ).action((o: CommonOptions) =>
    withEngine(o, async ({ repo }) => {
      const { recoveredSentence, reset } = await import('../engine/index.js');
      emit(o, await reset(repo, { onWait: sayWaiting }), (r) => renderReset(r, recoveredSentence));
    }),
  );
}
