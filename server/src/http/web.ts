import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
// webpack names: /assets/... or a content hash of 8+ hex chars in the file name (main.3fa9c1d2.js).
const HASHED = /(^|[\\/])assets[\\/]|[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
/** The build's compressed twin of a file (webpack.config.ts), which preCompressed sends. */
const COMPRESSED_TWIN = /\.(br|gz)$/;

/**
 * The SPA's Content-Security-Policy, sent with index.html and every file of dist/web. Checked in
 * chromium by the e2e journeys, which fail on any violation (test/e2e/browser.ts):
 * - scripts: only the bundle's own files; no inline script, no eval (webpack's production
 *   runtime loads chunks by <script src>).
 * - styles: the bundle's own CSS files, and a prerendered page's critical CSS inlined by the build
 *   (webpack.config.ts), allowed on that page alone by its sha256; no 'unsafe-inline'. React,
 *   react-bootstrap and Popper set styles through the CSSOM (`element.style.x = ...`), which CSP
 *   does not govern; react-toastify's <style> injection is avoided by loading its unstyled build
 *   with its CSS file (src/components/toastify.ts).
 * - images: our own; data: for Bootstrap's icons inlined in its CSS (the accordion's and
 *   form-select's chevrons, seen blocked without it); blob: for KYC scans, fetched with the
 *   session and shown through object URLs (src/api/profile.ts), which only the page's own
 *   script can make. qrcode.react draws inline SVG: no source needed.
 */
export const SPA_CSP = spaCsp([]);

/** SPA_CSP, with `style-src` also allowing inline <style> elements of these sha256 sources. */
function spaCsp(styleHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function cacheControlFor(filePath: string): string {
  if (filePath.endsWith('.html')) return NO_CACHE;
  return HASHED.test(filePath) ? IMMUTABLE : 'public, max-age=3600';
}

export function webAvailable(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

/** Answers a browser navigation to `url` with the SPA's HTML for it. */
export type SpaShell = (url: string, reply: FastifyReply) => FastifyReply;

/**
 * Serves the built SPA (dist/web). The answer for a navigation (the not-found handler) is the
 * route's own page where the build made one (pages.json: a public screen prerendered, or a screen
 * whose chunks it preloads), else index.html.
 */
export async function registerWeb(app: FastifyInstance, dir: string): Promise<SpaShell> {
  const pages = routePages(dir);
  const cspOf = pageCsps(dir, new Set(pages.values()));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    // A route per file of the build, found once at start (the build is fixed while it runs).
    // The catch-all route instead read every directory on a request's path, to check its
    // spelling (case-insensitive file systems), before sending or failing over to a page: /login
    // cost 1.3 ms of CPU that way, 0.28 now, and an asset a quarter more.
    wildcard: false,
    cacheControl: false,
    index: ['index.html'],
    // The build's .br and .gz beside each script, style sheet and page (webpack.config.ts), sent
    // as they are, the pages by sendSpaShell too; what has none is compressed on the fly by
    // @fastify/compress.
    preCompressed: true,
    // Every file, the pages sent by sendSpaShell included. A twin is named by the file it
    // stands for: login.html.br is a page (no-cache, the page's CSP), not a file of its own.
    setHeaders: (reply, twinOrFile) => {
      const filePath = twinOrFile.replace(COMPRESSED_TWIN, '');
      reply.header('cache-control', cacheControlFor(filePath));
      reply.header('content-security-policy', cspOf.get(path.resolve(filePath)) ?? SPA_CSP);
    },
  });
  return (url, reply) => sendSpaShell(reply, pages.get(routeKey(url)) ?? 'index.html');
}

/** pages.json: route -> file; routes match case-insensitively, as the client's router does. */
function routePages(dir: string): Map<string, string> {
  const file = path.join(dir, 'pages.json');
  if (!existsSync(file)) return new Map();
  const pages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(pages).map(([route, page]) => [routeKey(route), page]));
}

/** The CSP of each page with inline <style> elements (the build's, read once here), by path. */
function pageCsps(dir: string, pages: ReadonlySet<string>): Map<string, string> {
  const csps = new Map<string, string>();
  for (const page of pages) {
    const file = path.resolve(dir, page);
    const html = readFileSync(file, 'utf8');
    const hashes = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map(
      ([, css = '']) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
    );
    if (hashes.length > 0) csps.set(file, spaCsp(hashes));
  }
  return csps;
}

/** The path without its query or a trailing slash, in lower case. */
function routeKey(url: string): string {
  const pathname = url.split('?', 1)[0] ?? '';
  return (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
}

/** A browser navigation (not /api, not an asset request) that should get the SPA shell. */
export function wantsSpaShell(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isApiUrl(request.url)) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

/** A request for the portal API (`/api` and below), whatever its query string. */
export function isApiUrl(rawUrl: string): boolean {
  // Runs on every request: no split of the URL (about 1 % of a kept read's CPU).
  if (!rawUrl.startsWith('/api')) return false;
  const next = rawUrl.charAt(4);
  return next === '' || next === '/' || next === '?';
}

// Its headers (no-cache, the page's CSP) are setHeaders', as for any file.
function sendSpaShell(reply: FastifyReply, file: string): FastifyReply {
  return reply.sendFile(file);
}
