/**
 * The page's static files, as Vite built them into dist/web. The folder is
 * read once, at start, into a table of exact paths, so a URL is only ever
 * looked up, never joined onto a directory: nothing outside it can be served.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** dist/src/web/assets.js → dist/web (import.meta.url, which the CLI's bundle keeps at this path: scripts/bundle.mjs). */
export const ASSETS_DIR = fileURLToPath(new URL('../../web', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Script and styles from this server only; cytoscape and uPlot set element
 * styles from script, which needs 'unsafe-inline' for styles (never for script).
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

interface Asset {
  type: string;
  bytes: Buffer;
  /** Vite names built files by their content: safe to cache for good. */
  immutable: boolean;
}

export class Assets {
  private readonly files = new Map<string, Asset>();

  constructor(dir = ASSETS_DIR) {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const abs = path.join(entry.parentPath, entry.name);
      const rel = '/' + path.relative(dir, abs).split(path.sep).join('/');
      const type = TYPES[path.extname(entry.name)];
      if (type) this.files.set(rel, { type, bytes: fs.readFileSync(abs), immutable: rel.startsWith('/assets/') });
    }
  }

  /** Whether a page was built at all. */
  get built(): boolean {
    return this.files.has('/index.html');
  }

  /** Answers a GET for `pathname`; false when no such file was built. */
  serve(pathname: string, res: ServerResponse): boolean {
    const asset = this.files.get(pathname === '/' ? '/index.html' : pathname);
    if (!asset) return false;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'content-length': String(asset.bytes.length),
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(asset.bytes);
    return true;
  }
}
