/**
 * Preloaded with `--import` (see `loadedModules` in ../cli.ts): writes the URL
 * of every module the child loads to stderr, one `module-loaded <url>` line
 * each, so a test can say which modules a command's start path pulls in. ES
 * modules are seen by a loader hook; CommonJS ones loaded by `require` (a
 * package the CLI requires lazily, and those packages' own files) are not,
 * so `require` is watched too.
 */
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const hook = `export async function load(url, context, next) {
  process.stderr.write('module-loaded ' + url + '\\n');
  return next(url, context);
}`;
register('data:text/javascript,' + encodeURIComponent(hook));

const say = (name) => process.stderr.write('module-loaded ' + name + '\n');
// Node's own modules by name (require('node:…') skips resolution), files once resolved.
const load = Module._load;
Module._load = function (request, ...rest) {
  if (Module.isBuiltin(request)) say(`node:${request.replace(/^node:/, '')}`);
  return load.call(this, request, ...rest);
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const file = resolve.call(this, request, ...rest);
  if (!Module.isBuiltin(file)) say(pathToFileURL(file).href);
  return file;
};
