import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

/** A fresh temporary directory, removed after the current test. */
export function tempDir(prefix = 'sightline-walk-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/**
 * Create a tree of files under a fresh temp dir. Keys are POSIX paths relative
 * to the root; a key ending in '/' creates an empty directory.
 */
export function makeTree(spec: Record<string, string | Uint8Array>): string {
  const root = tempDir();
  writeTree(root, spec);
  return root;
}

export function writeTree(root: string, spec: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(spec)) {
    const abs = path.join(root, ...rel.split('/'));
    if (rel.endsWith('/')) {
      fs.mkdirSync(abs, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

afterEach(() => {
  while (created.length > 0) {
    const dir = created.pop()!;
    // Restore permissions a test may have removed so cleanup can succeed.
    try {
      fs.chmodSync(dir, 0o755);
    } catch {
      /* ignore */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

