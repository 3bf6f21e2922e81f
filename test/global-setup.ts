/**
 * Tests spawn the built CLI (dist/), so a source edit without a build would
 * test the old code and pass or fail for the wrong reason. Refuse to start
 * when any source file is newer than the build of it, or than the CLI's
 * bundle (scripts/bundle.mjs, which a bare `tsc` leaves stale); `npm test`
 * builds first.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

function newestTs(dir: string): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { mtimeMs } = fs.statSync(file);
    if (!newest || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

export default function setup(): void {
  const source = newestTs(path.join(ROOT, 'src'));
  if (!source) return;
  const built = path.join(ROOT, 'dist', path.relative(ROOT, source.file).replace(/\.ts$/, '.js'));
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : -1;
  const bundle = path.join(ROOT, 'dist/src/cli/bundle.json');
  const bundledAt = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : -1;
  if (Math.min(builtAt, bundledAt) < source.mtimeMs) {
    throw new Error(`dist/ is older than ${path.relative(ROOT, source.file)}: run \`npm run build\` (or \`npm test\`, which builds first) before the tests`);
  }
}
