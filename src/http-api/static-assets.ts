/**
 * Serving the built front end (`dist/web-ui/`, made by `npm run build:web`)
 * from the installed package. Only files inside that folder are served; a
 * missing build gets a page saying how to make it instead of a blank 404.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECURITY_HEADERS } from './http-io.js';

/** The built assets of the installed package: `<package>/dist/web-ui` from both src/http-api and dist/http-api. */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL('../../dist/web-ui/', import.meta.url));
}

/** True when `dir` holds a built front end. */
export function hasBuiltAssets(dir: string): boolean {
  return existsSync(resolve(dir, 'index.html'));
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's policy: scripts and data only from this server (the bundle is
 * self-contained, so nothing needs a CDN); inline style attributes are allowed
 * because the SVG charts set them.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/**
 * Serves `urlPath` from `dir`. `/` is index.html. Paths that leave the folder,
 * dotfiles and folders are 404. Hashed files under `assets/` are cached for a
 * long time; index.html is always revalidated so a rebuild shows at once.
 */
export async function serveStatic(res: ServerResponse, dir: string, urlPath: string, method: string): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, 'Only GET and HEAD are served here.', { Allow: 'GET, HEAD' });
  if (!hasBuiltAssets(dir)) return sendMissingBuild(res, dir);
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return sendText(res, 400, 'Malformed path.');
  }
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = resolve(dir);
  const file = resolve(root, relative);
  const hidden = relative.split('/').some((part) => part.startsWith('.'));
  if (hidden || decoded.includes('\0') || (file !== root && !file.startsWith(root + sep))) return sendText(res, 404, 'Not found.');
  try {
    const info = await stat(file);
    if (!info.isFile()) return sendText(res, 404, 'Not found.');
    const body = await readFile(file);
    const immutable = relative.startsWith('assets/');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    });
    res.end(method === 'HEAD' ? undefined : body);
  } catch {
    sendText(res, 404, 'Not found.');
  }
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

/** A readable page instead of a blank one when the front end was never built. */
function sendMissingBuild(res: ServerResponse, dir: string): void {
  const escaped = dir.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html =
    '<!doctype html><meta charset="utf-8"><title>reponav ui — not built</title>' +
    '<body style="font-family:sans-serif;max-width:40em;margin:3em auto">' +
    '<h1>The reponav web UI is not built</h1>' +
    `<p>No <code>index.html</code> in <code>${escaped}</code>. In a reponav checkout, run <code>npm run build:web</code> (or <code>npm run build</code>) and reload.</p>` +
    '<p>The JSON API under <code>/api/</code> works without it.</p></body>';
  res.writeHead(503, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}
