import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { OwnerChanges } from '../db/ownerChanges';

/**
 * Answers that never change while the process runs (reference data written only by the seed,
 * e.g. the countries), with their JSON made once: the serializer sends the kept bytes instead
 * of stringifying the same 13 KB again on every request (profile). Kept as UTF-8
 * bytes, not text: a string answer is scanned for its Content-Length and encoded again by the
 * socket write on every request, about a quarter of a 16 KB gateway answer's CPU (profile).
 */
const serialized = new WeakMap<object, Buffer>();

/**
 * The compression settings, one set for @fastify/compress (app.ts) and the kept answers below:
 * its recommended brotli quality (4), zlib's default gzip, nothing under 1 KB.
 */
export const COMPRESSION = {
  encodings: ['br', 'gzip'] as Encoding[],
  threshold: 1024,
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
};
type Encoding = 'br' | 'gzip';

const ENCODE: Record<Encoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) => brotliCompressSync(bytes, COMPRESSION.brotliOptions),
  gzip: (bytes) => gzipSync(bytes),
};

/** A kept answer's bytes in each encoding a client asked for so far (see sendKeptEncoded). */
const encodedOf = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/** Keeps `answer`'s JSON bytes and returns `answer`, frozen: it must not change afterwards. */
export function keepSerialized<T extends object>(answer: T): T {
  const bytes = Buffer.from(JSON.stringify(answer));
  serialized.set(answer, bytes);
  keepBytes(bytes);
  return Object.freeze(answer);
}

/**
 * Bytes that stay as they are while the process runs (a kept answer's, a built file read once)
 * go out as sendKeptEncoded sends a kept answer: each encoding made once, on the first request
 * that asks for it, unless `encoded` already has it (a build's twins, compressed harder).
 */
export function keepBytes(bytes: Buffer, encoded: Partial<Record<Encoding, Buffer>> = {}): Buffer {
  if (bytes.length >= COMPRESSION.threshold) encodedOf.set(bytes, { ...encoded });
  return bytes;
}

/**
 * onSend: a kept answer goes out in the client's encoding from bytes compressed once per answer
 * and encoding, where @fastify/compress would compress the same bytes again on every request
 * (it passes an answer that already has a Content-Encoding through). Clients send
 * Accept-Encoding by default (browsers, fetch, axios, Go, requests): the gateway's 16 KB
 * deposits page cost 615 µs of CPU a request in brotli against 84 µs uncompressed.
 * The choice is the plugin's: its negotiator, `*` and `x-gzip` read as gzip, x-no-compression
 * honoured, `Vary: accept-encoding` on what is compressed.
 */
export function sendKeptEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  const encoded = Buffer.isBuffer(payload) ? encodedOf.get(payload) : undefined;
  const accepted = request.headers['accept-encoding'];
  if (!encoded || !accepted || request.headers['x-no-compression'] !== undefined) {
    done(null, payload);
    return;
  }
  const encoding = negotiate(
    accepted.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'),
    COMPRESSION.encodings,
  );
  if (encoding === null) {
    done(null, payload);
    return;
  }
  // Only a kept answer's own bytes are in encodedOf.
  const bytes = (encoded[encoding] ??= ENCODE[encoding](payload as Buffer));
  const vary = reply.getHeader('vary');
  if (vary === undefined) void reply.header('vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding')) {
    void reply.header('vary', `${String(vary)}, accept-encoding`);
  }
  void reply.header('content-encoding', encoding);
  done(null, bytes);
}

/** The app's serializer: a kept answer's bytes, else JSON.stringify. */
export function serializeAnswer(data: unknown): string | Buffer {
  const kept = typeof data === 'object' && data !== null ? serialized.get(data) : undefined;
  return kept ?? JSON.stringify(data);
}

/** How to keep one operation's answer: see keptAnswer. */
export interface AnswerKeeping<T> {
  /** Everything the answer depends on besides the rows (user, parameters, session). */
  key: string;
  /** Whose rows it is made of: a user (their apps' rows name them too) or an app. */
  owner: string;
  /** The request's time (epoch ms). */
  now: number;
  /**
   * The first instant (epoch ms) the answer would differ with no row changed: a hold that ends,
   * a plan that expires, a new day. Infinity when only rows change it.
   */
  until: (answer: T) => number;
  /**
   * The tables `build` reads (the prepared queries' `tables`), when it names them: the answer
   * then holds through the owner's changes of other tables, such as the API log row every
   * request writes. Absent: a change of any of the owner's rows voids it.
   */
  tables?: () => readonly string[];
}

/**
 * The most read screens' whole answers, kept per process with their JSON text until a row of
 * their owner changes (of the tables `tables` names, when it does: db/ownerChanges.ts) or `until`
 * passes: a kept answer skips the reads, the figures' arithmetic and the 12 KB stringify
 * (profile: half of an app detail read once its rows were kept). `build` must read only tables
 * with owner triggers, and only those `tables` names (ownerChanges.test checks the answers kept
 * today), and depend on nothing else but `key` and the time.
 * A kept answer comes back as it is, not in a promise: a handler that returns it without
 * awaiting answers without one (the gateway's polled deposits page).
 */
export function keptAnswer<T extends object>(
  changes: OwnerChanges | undefined,
  keeping: AnswerKeeping<T>,
  build: () => Promise<T>,
): T | Promise<T> {
  if (!changes) return build();
  const kept = changes.keptAnswer(keeping.key, keeping.now);
  // Only this function keeps under an answer key, always a T built for it.
  if (kept) return kept as T;
  return buildAndKeep(changes, keeping, build, keepSerialized);
}

/** A page drawn on the server: its status and its bytes. */
export interface KeptPage {
  status: number;
  body: Buffer;
}

/**
 * A page kept as keptAnswer keeps an API's answer (the same rules for `build`), its bytes sent
 * as they are, each compression of them made once.
 */
export function keptPage(
  changes: OwnerChanges | undefined,
  keeping: AnswerKeeping<KeptPage>,
  build: () => Promise<KeptPage>,
): KeptPage | Promise<KeptPage> {
  if (!changes) return build();
  const kept = changes.keptAnswer(keeping.key, keeping.now);
  // Only this function keeps under a page key, always a KeptPage.
  if (kept) return kept as KeptPage;
  return buildAndKeep(changes, keeping, build, (page) =>
    Object.freeze({ status: page.status, body: keepBytes(page.body) }),
  );
}

async function buildAndKeep<T extends object>(
  changes: OwnerChanges,
  { key, owner, now, until, tables }: AnswerKeeping<T>,
  build: () => Promise<T>,
  keep: (answer: T) => T,
): Promise<T> {
  const mark = changes.begin();
  const answer = await build();
  if (mark === null) return answer;
  const last = until(answer);
  if (last > now) changes.keepAnswer(key, owner, mark, keep(answer), last, tables?.());
  return answer;
}

/** The next 00:00 UTC after `now` (epoch ms): days and months are counted in UTC. */
export function nextUtcMidnight(now: number): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
}

/** The earliest of some ISO instants (absent ones ignored), as epoch ms; Infinity if none. */
export function earliest(instants: readonly (string | null | undefined)[]): number {
  let first = Infinity;
  for (const instant of instants) if (instant) first = Math.min(first, Date.parse(instant));
  return first;
}
