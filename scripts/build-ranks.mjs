#!/usr/bin/env node
// Writes o200k's rank table where the built token counter reads it (dist/data/o200k.ranks; see src/budget/ranks.ts).
import fs from 'node:fs';
import path from 'node:path';
import { buildRankTable, RANKS_FILE } from '../dist/src/budget/ranks.js';

fs.mkdirSync(path.dirname(RANKS_FILE), { recursive: true });
const temporary = `${RANKS_FILE}.${process.pid}`;
fs.writeFileSync(temporary, buildRankTable());
fs.renameSync(temporary, RANKS_FILE); // whole or absent: a reader never sees half a table
