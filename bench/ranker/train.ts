/**
 * npm run ranker:train -- --train POOLS.jsonl [--validation POOLS.jsonl] [--dev POOLS.jsonl] [--hand-set question,issue] [--hold FEATURES] [--out models/ranker.json] [--report models/ranker-validation.md]
 *
 * Fits the file ranker (src/search/learned.ts) on the training pools, never
 * on validation or dev ones: one model for one-line questions and one for
 * whole issues, each on its own kind of pool. Writes both with what they were
 * fitted on, and a table of strict Acc@5 and MRR per split, language and kind:
 * the hand-set weights the fit starts from beside the fitted models. Pools come from
 * `npm run bench:quality -- <records> --pools FILE` (docs/ranking.md).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { FIRST_FEATURES, SECOND_FEATURES, type QueryKind, type RankerModel } from '../../src/search/index.js';
import type { Pool } from '../quality/pools.js';
import { averages } from '../quality/metrics.js';
import { fmt, table, usage } from '../util.js';
import { fit, prepare, scoresOf, type Case } from './fit.js';

const USAGE =
  'usage: npm run ranker:train -- --train POOLS.jsonl [--validation POOLS.jsonl] [--dev POOLS.jsonl] [--hand-set question,issue] [--hold FEATURES] [--out models/ranker.json] [--report models/ranker-validation.md]';

/**
 * Where the fit starts: the weights that shipped before it, chosen by hand
 * on the dev issues (content 1, history 0.5, definition 0.25, mention 0.5,
 * name 0.15, nearness 0.15, demotion 0.1), with no stage two.
 */
export const HAND_SET: RankerModel = {
  first: { weights: { content: 1, top: 0, hits: 0, contentRank: 0, history: 0.5, definition: 0.25, mention: 0.5, name: 0.15, semantic: 0.15 }, demote: 0.1 },
  second: { pool: 20, seeds: 2, weights: { cochange: 0, sibling: 0, pair: 0 } },
};

function load(file: string): Case[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => prepare(JSON.parse(line) as Pool));
}

type Models = Record<QueryKind, RankerModel>;
const HOLDABLE: readonly string[] = [...FIRST_FEATURES, 'demote', ...SECOND_FEATURES];
const KINDS: QueryKind[] = ['question', 'issue'];

/** One row per language, one per kind and one for all: Acc@5 and MRR before and after, each case ranked by its kind's model. */
function rows(split: string, cases: Case[], before: Models, after: Models): string[][] {
  const b = cases.map((c) => scoresOf([c], before[c.pool.kind])[0]!);
  const a = cases.map((c) => scoresOf([c], after[c.pool.kind])[0]!);
  const languages = [...new Set(cases.map((c) => c.pool.language))].sort();
  const groups: [string, (c: Case) => boolean][] = [
    ...languages.map((l): [string, (c: Case) => boolean] => [l, (c) => c.pool.language === l]),
    ...KINDS.map((k): [string, (c: Case) => boolean] => [`ALL ${k}s`, (c) => c.pool.kind === k]),
    ['ALL', () => true],
  ];
  return groups.map(([name, keep]) => {
    const idx = cases.flatMap((c, i) => (keep(c) ? [i] : []));
    const mb = averages(idx.map((i) => b[i]!));
    const ma = averages(idx.map((i) => a[i]!));
    return [split, name, String(idx.length), String(new Set(idx.map((i) => cases[i]!.pool.repo)).size), ...[mb[2]!, ma[2]!, ma[2]! - mb[2]!, mb[5]!, ma[5]!].map(fmt)];
  });
}

function main(): void {
  const { values } = parseArgs({
    options: {
      train: { type: 'string' },
      validation: { type: 'string' },
      dev: { type: 'string' },
      // Kinds that ship the hand-set weights whatever the fit scores: for a behaviour the tests pin that the corpus does not hold (docs/ranking.md).
      'hand-set': { type: 'string', default: '' },
      // Weights (features of either stage, or demote) left at the hand-set value (0 for features it lacks): a fit without them, to measure what each adds.
      hold: { type: 'string', default: '' },
      out: { type: 'string', default: 'models/ranker.json' },
      report: { type: 'string', default: 'models/ranker-validation.md' },
    },
  });
  const handSet = values['hand-set'].split(',').filter(Boolean);
  const held = values.hold.split(',').filter(Boolean);
  if (!values.train || handSet.some((k) => !(KINDS as string[]).includes(k)) || held.some((f) => !HOLDABLE.includes(f))) usage(USAGE);
  const train = load(values.train);
  const log = (line: string) => process.stderr.write(line + '\n');
  const hand: Models = { question: HAND_SET, issue: HAND_SET };
  const fitted = Object.fromEntries(
    KINDS.map((kind) => {
      log(`${kind}s`);
      return [kind, fit(train.filter((c) => c.pool.kind === kind), HAND_SET, log, held)];
    }),
  ) as Models;
  const splits: [string, Case[]][] = [['train', train]];
  if (values.validation) splits.push(['validation', load(values.validation)]);
  if (values.dev) splits.push(['dev', load(values.dev)]);
  // The rule of issue #19: a fitted model ships only if no held-out split of its kind, nor any language in one, scores lower Acc@5 than the hand-set weights.
  const verdicts: string[] = [];
  const model = Object.fromEntries(
    KINDS.map((kind) => {
      // Per language too: a gain in one language must not pay for a loss in another.
      const falls = splits.slice(1).flatMap(([name, cases]) => {
        const mine = cases.filter((c) => c.pool.kind === kind);
        const acc = (list: Case[], m: RankerModel) => averages(scoresOf(list, m))[2]!;
        const groups: [string, Case[]][] = [['', mine], ...[...new Set(mine.map((c) => c.pool.language))].sort().map((l): [string, Case[]] => [` ${l}`, mine.filter((c) => c.pool.language === l)])];
        return groups.flatMap(([group, list]) => (list.length > 0 && acc(list, fitted[kind]) < acc(list, HAND_SET) ? [`${name}${group}`] : []));
      });
      const forced = handSet.includes(kind);
      verdicts.push(
        falls.length
          ? `- ${kind}s: the fitted model scores lower on ${falls.join(' and ')}, so the hand-set weights ship`
          : forced
            ? `- ${kind}s: no held-out split falls, but --hand-set ${kind}: the hand-set weights ship`
            : `- ${kind}s: the fitted model ships (no held-out split or language in one falls)`,
      );
      return [kind, falls.length || forced ? HAND_SET : fitted[kind]];
    }),
  ) as Models;
  const report = table(
    ['split', 'group', 'n', 'repositories', 'Acc@5 hand-set', 'Acc@5 learned', 'Δ', 'MRR hand-set', 'MRR learned'],
    splits.flatMap(([name, cases]) => rows(name, cases, hand, fitted)),
  );
  const trainedOn = Object.fromEntries(
    KINDS.map((kind) => {
      const mine = train.filter((c) => c.pool.kind === kind);
      return [kind, [...new Set(mine.map((c) => c.pool.repo))].sort().map((repo) => ({ repo, pairs: mine.filter((c) => c.pool.repo === repo).length }))];
    }),
  );
  fs.writeFileSync(values.out, JSON.stringify({ ...model, trainedOn }, null, 1) + '\n');
  const text = `${report}\n\nShipped:\n${verdicts.join('\n')}`;
  fs.writeFileSync(values.report, `# models/ranker.json: strict Acc@5 and MRR, hand-set weights against the fitted models\n\n${text}\n`);
  console.log(text);
}

main();
