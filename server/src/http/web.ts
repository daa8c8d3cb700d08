import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
// webpack names: /assets/... or a content hash of 8+ hex chars in the file name (main.3fa9c1d2.js).
const HASHED = /(^|[\\/])assets[\\/]|[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;

export function cacheControlFor(filePath: string): string {
  if (filePath.endsWith('.html')) return NO_CACHE;
  return HASHED.test(filePath) ? IMMUTABLE : 'public, max-age=3600';
}

export function webAvailable(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

/** Serves the built SPA (dist/web); the not-found handler falls back to index.html. */
export async function registerWeb(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: true,
    cacheControl: false,
    index: ['index.html'],
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', cacheControlFor(filePath));
    },
  });
}

/** A browser navigation (not /api, not an asset request) that should get the SPA shell. */
export function wantsSpaShell(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url.split('?', 1)[0] ?? '';
  if (url === '/api' || url.startsWith('/api/')) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

export function sendSpaShell(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', NO_CACHE).sendFile('index.html');
}
