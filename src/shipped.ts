/**
 * Files shipped inside this package (models/), found from this module upward,
 * so the same lookup works from src/ (tsx, tests) and dist/src/ (built).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The absolute path of `relative` under the package root, or null when this installation lacks it. */
export function shippedFile(relative: string): string | null {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}
