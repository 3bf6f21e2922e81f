/**
 * `npm run docs:tools`: rewrites the generated reference section of
 * docs/tools.md from the verb specs (src/spec). test/spec/parity.test.ts
 * fails while the committed page differs from what this writes.
 */
import fs from 'node:fs';
import { reference, splice, VERBS } from '../src/spec/index.js';

const file = new URL('../docs/tools.md', import.meta.url);
const page = fs.readFileSync(file, 'utf8');
const next = splice(page, reference(VERBS));
if (next === page) {
  process.stdout.write('docs/tools.md: the reference is up to date\n');
} else {
  fs.writeFileSync(file, next);
  process.stdout.write(`docs/tools.md: reference rewritten for ${VERBS.length} verbs\n`);
}
