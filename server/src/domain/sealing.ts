import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the server must use again (a TOTP seed, a webhook signing secret) are stored sealed:
// AES-256-GCM under a key derived from SECRET_KEY for each use, bound to their owner's id as
// associated data, so neither a database dump nor a row copied to another owner yields anything.

/** Which secret: each use derives its own key (HKDF salt and info). */
export interface SealScope {
  salt: string;
  info: string;
}

const SEALED_PREFIX = 'v1';

function sealingKey(serverKey: string, scope: SealScope): Buffer {
  return Buffer.from(hkdfSync('sha256', serverKey, scope.salt, scope.info, 32));
}

export function sealSecret(
  serverKey: string,
  scope: SealScope,
  ownerId: string,
  secret: string,
): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverKey, scope), iv);
  cipher.setAAD(Buffer.from(ownerId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SEALED_PREFIX, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The plain secret, or null when sealed for another owner, use or server key. */
export function openSecret(
  serverKey: string,
  scope: SealScope,
  ownerId: string,
  sealed: string,
): string | null {
  const [prefix, iv, body, tag, extra] = sealed.split('.');
  if (prefix !== SEALED_PREFIX || !iv || !body || !tag || extra !== undefined) return null;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      sealingKey(serverKey, scope),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(ownerId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}
