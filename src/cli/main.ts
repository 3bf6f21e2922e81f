#!/usr/bin/env node
/** The `sightline` executable: the program of program.ts, run on this process's arguments. */
import v8 from 'node:v8';
import { buildProgram } from './program.js';
import { fail } from './verb.js';

// tree-sitter's grammars are WebAssembly, each with one huge lexer function. By default V8
// recompiles it with TurboFan on a background thread (~0.8 CPU-s), and a short run waits for that
// compile before it can exit: a one-file `index` took 1.26 s, 0.63 s with baseline (Liftoff) code
// only, while a 2,100-file pass took the same wall time either way (12.4–12.8 s). Set before any
// grammar loads; worker threads share the flag.
v8.setFlagsFromString('--liftoff-only');

buildProgram()
  .parseAsync(process.argv)
  .catch((err) => fail(err, process.argv.includes('--json')));
