#!/usr/bin/env node
/** The `sightline` executable: the program of program.ts, run on this process's arguments. */
import { buildProgram } from './program.js';
import { fail } from './verb.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((err) => fail(err, process.argv.includes('--json')));
