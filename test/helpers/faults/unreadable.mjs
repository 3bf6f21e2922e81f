/**
 * Fault injection for CLI children, preloaded with `--import` (see
 * `unreadableEnv` in ../cli.ts): opening a path that ends with
 * $FAULT_UNREADABLE_SUFFIX fails with EACCES, as a chmod 000 file does for
 * any user but root. Root reads such a file anyway, and a machine may let no
 * other user run node, so this is how a test running as root makes a file
 * unreadable without production code knowing about tests.
 */
import fs from 'node:fs';

const suffix = process.env.FAULT_UNREADABLE_SUFFIX;
const open = fs.promises.open;
if (suffix) {
  fs.promises.open = async function (path, ...rest) {
    if (String(path).endsWith(suffix)) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', syscall: 'open', path: String(path) });
    return open.call(this, path, ...rest);
  };
}
