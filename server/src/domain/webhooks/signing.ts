import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { openSecret, sealSecret } from '../sealing';

// Standard Webhooks (standardwebhooks.com): a delivery carries webhook-id, webhook-timestamp
// (seconds) and webhook-signature `v1,<base64 HMAC-SHA256 over "id.timestamp.body">`, the key
// being the bytes after `whsec_` (base64). Signing the id and the time with the body lets a
// receiver refuse a replayed delivery, which a body-only signature cannot.

const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** One `v1,<base64>` signature of a delivery. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest();
  return `v1,${mac.toString('base64')}`;
}

/** The webhook-signature header: one signature per secret, space-separated (rotation). */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}

/**
 * Our own check of a signature header (the recipe in docs/gateway.md); true when one signature
 * matches.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): boolean {
  const expected = Buffer.from(signWebhook(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// Signing needs the secret itself, so it is sealed (domain/sealing.ts), bound to its app id: a
// database dump or a row copied to another app yields nothing usable.
const WEBHOOK_SCOPE = { salt: 'webhook-secret', info: 'app_webhooks.secret' };

export function sealWebhookSecret(serverKey: string, appId: string, secret: string): string {
  return sealSecret(serverKey, WEBHOOK_SCOPE, appId, secret);
}

/** The plain secret, or null when sealed for another app or with another server key. */
export function openWebhookSecret(serverKey: string, appId: string, sealed: string): string | null {
  return openSecret(serverKey, WEBHOOK_SCOPE, appId, sealed);
}
