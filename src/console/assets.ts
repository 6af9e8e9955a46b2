import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's static files (HTML, CSS, ES modules), shipped as they are: no build step, no CDN. */
export const consoleRoot = fileURLToPath(new URL('../../console/', import.meta.url));

/** The URL the console lives under; `/console` itself redirects here so relative asset URLs resolve. */
export const consolePrefix = '/console/';

/** One file as it is served: bytes, type and a strong validator. */
export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** Quoted SHA-256 of the bytes (RFC 9110 §8.8.3): a revalidation answers 304 while the file is unchanged. */
  readonly etag: string;
}

/** Every extension the console ships; a file of any other kind is left out rather than served as something. */
const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * Reads the console into memory once, keyed by URL path (`/console/js/main.js`; the index under
 * `/console/`). Requests are answered only from this map, so no request path ever reaches the file system:
 * `..`, encoded separators and symlinks have nothing to resolve against.
 */
export function loadConsoleAssets(root: string = consoleRoot): ReadonlyMap<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  for (const file of filesUnder(root)) {
    const contentType = contentTypes[extname(file)];
    if (contentType === undefined) continue;
    const body = readFileSync(file);
    const urlPath = consolePrefix + relative(root, file).split(sep).join('/');
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    assets.set(urlPath === `${consolePrefix}index.html` ? consolePrefix : urlPath, {
      body,
      contentType,
      etag,
    });
  }
  return assets;
}
