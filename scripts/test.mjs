/**
 * `npm test` after the build: the typecheck and vitest side by side. vitest spends most of
 * its time waiting on the children its tests spawn, and the typecheck fills that wait instead
 * of running before it. Exits non-zero when either fails; each one's output is its own.
 */
import { spawn } from 'node:child_process';

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (err) => {
      console.error(`${command}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const forwarded = process.argv.slice(2);
const [typecheck, tests] = await Promise.all([run('npm', ['run', '--silent', 'typecheck']), run('npx', ['vitest', 'run', ...forwarded])]);
if (typecheck !== 0) console.error(`typecheck failed (exit ${typecheck})`);
process.exit(typecheck || tests);
