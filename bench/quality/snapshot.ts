/**
 * The index a repository's first record leaves, kept between runs. FTS5's
 * statistics remember deleted rows, so an index reused from an earlier run
 * ranks differently from a fresh one; restarting every run from this snapshot
 * gives the same numbers as a fresh run without paying for the cold index.
 */
import fs from 'node:fs';
import path from 'node:path';
import { removeDbFiles, type Store } from '../../src/store/index.js';

export class IndexSnapshots {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `${key}.db`);
  }

  /** Puts the snapshot in place of the index at `dbPath`; false when there is none. */
  restore(key: string, dbPath: string): boolean {
    removeDbFiles(dbPath);
    if (!fs.existsSync(this.file(key))) return false;
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    fs.copyFileSync(this.file(key), dbPath);
    return true;
  }

  save(key: string, store: Store): void {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    fs.mkdirSync(this.dir, { recursive: true });
    fs.copyFileSync(store.path, this.file(key));
  }
}
