/**
 * npm run ranker:adapt -- --pools POOLS.jsonl [--knobs content,history,…] [--rounds 3]
 *
 * Per-repository adaptation, measured leave-one-out (issue #19: "fit per-repository adaptation
 * from the repository's own history"). For each pool, the shipped model of its kind has the
 * stage-one weights named by --knobs moved by a short ascent on the other pools of the same
 * repository — what that repository's own commits say — and the held-out pool is ranked by the
 * shipped weights and by the adjusted ones. Prints strict Acc@5 and MRR per language and kind,
 * before and after. Pools come from `npm run bench:quality -- <records> --pools FILE`
 * (docs/ranking.md, "Per-repository adaptation").
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { shippedRanker } from '../../src/search/index.js';
import type { Pool } from '../quality/pools.js';
import { averages, type Scores } from '../quality/metrics.js';
import { table, usage } from '../util.js';
import { adjustFirst, FIRST_KNOBS, prepare, scoresOf, type Case } from './fit.js';

const USAGE = 'usage: npm run ranker:adapt -- --pools POOLS.jsonl [--knobs content,history,…] [--rounds 3]';

interface Outcome {
  language: string;
  kind: string;
  shipped: Scores;
  adapted: Scores;
}

/** Each pool ranked by the shipped model and by that model adjusted on the rest of its repository's pools. */
function leaveOneOut(cases: readonly Case[], knobs: readonly string[], rounds: number): Outcome[] {
  return cases.map((held) => {
    const shipped = shippedRanker(held.pool.kind);
    const rest = cases.filter((c) => c.pool.repo === held.pool.repo && c !== held);
    const adapted = rest.length > 0 ? adjustFirst(rest, shipped, knobs, rounds) : shipped;
    return { language: held.pool.language, kind: held.pool.kind, shipped: scoresOf([held], shipped)[0]!, adapted: scoresOf([held], adapted)[0]! };
  });
}

function main(): void {
  const { values } = parseArgs({
    options: {
      pools: { type: 'string' },
      knobs: { type: 'string', default: FIRST_KNOBS.join(',') },
      rounds: { type: 'string', default: '3' },
    },
  });
  const knobs = values.knobs.split(',').filter(Boolean);
  const rounds = Number(values.rounds);
  if (!values.pools || knobs.some((k) => !FIRST_KNOBS.includes(k)) || !Number.isInteger(rounds) || rounds < 1) usage(USAGE);
  const cases = fs
    .readFileSync(values.pools, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => prepare(JSON.parse(line) as Pool));
  const outcomes = leaveOneOut(cases, knobs, rounds);
  const groups: [string, (o: Outcome) => boolean][] = [
    ...[...new Set(outcomes.map((o) => o.language))].sort().map((l): [string, (o: Outcome) => boolean] => [l, (o) => o.language === l]),
    ...['question', 'issue'].map((k): [string, (o: Outcome) => boolean] => [`ALL ${k}s`, (o) => o.kind === k]),
    ['ALL', () => true],
  ];
  const rows = groups.map(([name, keep]) => {
    const mine = outcomes.filter(keep);
    const [shipped, adapted] = [averages(mine.map((o) => o.shipped)), averages(mine.map((o) => o.adapted))];
    return [name, String(mine.length), shipped[2]!, adapted[2]!, adapted[2]! - shipped[2]!, shipped[5]!, adapted[5]!];
  });
  console.log(`knobs ${knobs.join(', ')}; ${rounds} round(s); ${new Set(cases.map((c) => c.pool.repo)).size} repositories`);
  console.log(table(['group', 'n', 'Acc@5 shipped', 'Acc@5 adapted', 'Δ', 'MRR shipped', 'MRR adapted'], rows));
}

main();
