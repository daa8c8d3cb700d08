import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../ids';
import { systemClock, type Clock } from '../time';

// Step token: proves the password step of a two-step sign-in for a short time. Stateless,
// HMAC-SHA256 signed with a key derived from SECRET_KEY; `jti` lets the login handler make it
// single-use if it wants to.

export type StepPurpose = 'login';
export const STEP_TOKEN_TTL_SECONDS = 5 * 60;
const PREFIX = 'step_';

export interface StepClaims {
  sub: string;
  pur: StepPurpose;
  exp: number;
  jti: string;
}

function key(secret: string): Buffer {
  return createHmac('sha256', secret).update('step-token:v1').digest();
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', key(secret)).update(payload).digest('base64url');
}

export function issueStepToken(
  secret: string,
  userId: string,
  purpose: StepPurpose,
  clock: Clock = systemClock,
  ttlSeconds = STEP_TOKEN_TTL_SECONDS,
): string {
  const claims: StepClaims = {
    sub: userId,
    pur: purpose,
    exp: Math.floor(clock().getTime() / 1000) + ttlSeconds,
    jti: randomToken(12),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${PREFIX}${payload}.${sign(secret, payload)}`;
}

export type StepVerification =
  | { ok: true; claims: StepClaims }
  | { ok: false; reason: 'malformed' | 'signature' | 'purpose' | 'expired' };

export function verifyStepToken(
  secret: string,
  token: string,
  purpose: StepPurpose,
  clock: Clock = systemClock,
): StepVerification {
  if (!token.startsWith(PREFIX)) return { ok: false, reason: 'malformed' };
  const [payload, signature, extra] = token.slice(PREFIX.length).split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'signature' };
  }
  let claims: StepClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as StepClaims;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.pur !== purpose) return { ok: false, reason: 'purpose' };
  if (Math.floor(clock().getTime() / 1000) >= claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
