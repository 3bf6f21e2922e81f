/** The package's version, read from its package.json so the CLI and the MCP server can never disagree with a release. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function packageVersion(): string {
  // From src/engine (tsx) or dist/src/engine (built) up to the package root.
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'sightline' && pkg.version) return pkg.version;
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}

export const VERSION = packageVersion();
