#!/usr/bin/env node
// Writes the tables the built code reads beside itself (dist/data): o200k's rank table for the token
// counter (src/budget/ranks.ts) and the builtin model's vocabulary table for query embeddings
// (src/embed/builtin.ts). Each is written whole or not at all: a reader never sees half a table.
import fs from 'node:fs';
import path from 'node:path';
import { buildRankTable, RANKS_FILE } from '../dist/src/budget/ranks.js';
import { VOCAB_FILE, vocabFile } from '../dist/src/embed/builtin.js';

for (const [file, build] of [
  [RANKS_FILE, buildRankTable],
  [VOCAB_FILE, vocabFile],
]) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, build());
  fs.renameSync(temporary, file);
}
