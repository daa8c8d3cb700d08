import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { keepBytes } from '../http/keptAnswers';

// The gateway's reference page (Redoc), rendered from gateway.yaml at build time by
// scripts/build-gateway-docs.mjs into dist/gateway-docs/: index.html plus the content-hashed
// Redoc bundle it imports. It is not part of the SPA and has a CSP of its own: everything comes
// from this server, inline <script>/<style> only with the nonce of the response (the build marks
// them with NONCE_PLACEHOLDER; styled-components reads it from <meta property="csp-nonce"> for the
// style tags it adds at run time), the few style="" attributes of the prerendered markup by hash,
// no request to any other host.

const NONCE_PLACEHOLDER = '__CSP_NONCE__';
const BUNDLE = /^redoc\.[0-9a-f]{12}\.js$/;

interface BuiltDocs {
  html: string;
  bundles: ReadonlyMap<string, Buffer>;
  /** CSP sources for the style="" attributes of the prerendered markup. */
  styleAttributeSources: string;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The attribute values as the browser hashes them; the markup escapes only quotes and ampersands. */
function styleAttributeSources(html: string): string {
  const values = new Set(
    [...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) =>
      (m[1] ?? '').replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&amp;', '&'),
    ),
  );
  return values.size === 0 ? "'none'" : `'unsafe-hashes' ${[...values].map(sha256).join(' ')}`;
}

function readBuiltDocs(dir: string): BuiltDocs | null {
  const index = path.join(dir, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const bundles = new Map(
    readdirSync(dir)
      .filter((name) => BUNDLE.test(name))
      .map((name) => [name, readBundle(path.join(dir, name))] as const),
  );
  return { html, bundles, styleAttributeSources: styleAttributeSources(html) };
}

/**
 * The 2.3 MB bundle, kept with the build's brotli and gzip twins: @fastify/compress made 646 KB
 * of brotli from it for every visitor, in 55 to 100 ms of CPU; the build's twin is 520 KB.
 */
function readBundle(file: string): Buffer {
  const twin = (suffix: string) =>
    existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : undefined;
  return keepBytes(readFileSync(file), { br: twin('.br'), gzip: twin('.gz') });
}

function gatewayDocsCsp(nonce: string, styleAttributes: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    `style-src-attr ${styleAttributes}`,
    "img-src 'self' data:",
    // Redoc's icon font is inline (a data: URL).
    "font-src 'self' data:",
    // The document is inline; Redoc fetches nothing. Its search first probes for eval (to run in
    // a worker), is refused, and searches on the page instead: no 'unsafe-eval', no worker-src.
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .code(404)
    .send({ error: { code: 'not_found', message, request_id: reply.request.id } });
}

/**
 * GET /docs (the page) and GET /docs/redoc.<hash>.js (its bundle) inside the gateway's prefix.
 * `dir` is read on the first request, so apps that never serve the page never load 2 MB.
 */
export function registerGatewayDocs(gateway: FastifyInstance, dir: string | undefined): void {
  let built: BuiltDocs | null | undefined;
  const docs = () => {
    if (built === undefined) built = dir ? readBuiltDocs(dir) : null;
    return built;
  };

  gateway.get('/docs', (_request, reply) => {
    const page = docs();
    if (!page) return notFound(reply, 'The reference page is not built: run npm run build:server.');
    const nonce = randomBytes(18).toString('base64');
    return reply
      .header('content-security-policy', gatewayDocsCsp(nonce, page.styleAttributeSources))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page.html.replaceAll(NONCE_PLACEHOLDER, nonce));
  });

  gateway.get<{ Params: { file: string } }>('/docs/:file', (request, reply) => {
    const bundle = docs()?.bundles.get(request.params.file);
    if (!bundle) return notFound(reply, 'No such file of the reference page.');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type('text/javascript; charset=utf-8')
      .send(bundle);
  });
}
