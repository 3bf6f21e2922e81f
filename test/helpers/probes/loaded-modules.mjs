/**
 * Preloaded with `--import` (see `loadedModules` in ../cli.ts): writes the URL
 * of every module the child loads to stderr, one `module-loaded <url>` line
 * each, so a test can say which modules a command's start path pulls in.
 */
import { register } from 'node:module';

const hook = `export async function load(url, context, next) {
  process.stderr.write('module-loaded ' + url + '\\n');
  return next(url, context);
}`;
register('data:text/javascript,' + encodeURIComponent(hook));
