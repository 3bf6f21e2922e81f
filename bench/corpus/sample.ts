/**
 * npm run corpus:sample -- --pairs DIR/pairs.jsonl --out FILE [--split validation] [--per-repo 20] [--newest]
 *
 * A fixed sample of the corpus to score ranking changes on without running
 * every pair: per repository of the split, the pairs whose ids have the
 * smallest FNV-1a hash. The same pairs file always gives the same sample.
 * --newest takes each repository's newest pairs instead: a training sample
 * whose checkouts move a little between pairs, so it indexes in less time.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { usage } from '../util.js';
import type { Pair } from './pairs.js';
import { samplePairs } from './split.js';

const USAGE = 'usage: corpus:sample -- --pairs FILE --out FILE [--split train|validation] [--per-repo N] [--newest]';

function main(): void {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string' },
      out: { type: 'string' },
      split: { type: 'string', default: 'validation' },
      'per-repo': { type: 'string', default: '20' },
      newest: { type: 'boolean', default: false },
    },
  });
  const perRepo = Number(values['per-repo']);
  if (!values.pairs || !values.out || !Number.isInteger(perRepo) || perRepo < 1) usage(USAGE);
  if (values.split !== 'train' && values.split !== 'validation') usage(USAGE);
  const pairs = fs
    .readFileSync(values.pairs, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Pair);
  const sample = samplePairs(pairs, values.split, perRepo, values.newest);
  fs.writeFileSync(values.out, sample.map((p) => JSON.stringify(p) + '\n').join(''));
  process.stdout.write(`${sample.length} ${values.split} pairs from ${new Set(sample.map((p) => p.repo)).size} repositories -> ${values.out}\n`);
}

main();
