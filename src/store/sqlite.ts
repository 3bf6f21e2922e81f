/**
 * better-sqlite3's one door. Required rather than imported: an ES module importing a CommonJS
 * package makes Node scan each of its files' source for the names it exports (cjs-module-lexer),
 * a cost every verb paid at start. Its addon is loaded from where the package builds it
 * (`nativeBinding`), sparing `bindings` its search of a dozen candidate paths; where it is not
 * there (a debug build), `bindings` finds it as before.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3') as typeof BetterSqlite3;

export type Db = BetterSqlite3.Database;

let addon: string | null | undefined;

function addonPath(): string | null {
  if (addon === undefined) {
    const built = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    addon = fs.existsSync(built) ? built : null;
  }
  return addon;
}

/** A connection to the SQLite database at `file`, with better-sqlite3's options. */
export function openSqlite(file: string, options: BetterSqlite3.Options = {}): Db {
  const nativeBinding = addonPath();
  return new Sqlite(file, nativeBinding ? { ...options, nativeBinding } : options);
}
