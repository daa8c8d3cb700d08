import { openSecret, sealSecret } from '../sealing';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import type { Db } from '../../db/connection';
import type { User } from '../../db/schema';
import { systemClock, type Clock } from '../time';

// Thin wrapper so the rest of the server never touches otplib's options directly.
// Tolerance of one 30 s step either side (clock drift of the phone).
const PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, account: string, issuer = 'CryptoSafeLock'): string {
  return generateURI({ issuer, label: account, secret });
}

export function totpCode(secret: string, at: Date = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000), period: PERIOD });
}

export async function verifyTotp(secret: string, code: string, at: Date = new Date()) {
  return (await matchTotpStep(secret, code, null, at)) !== null;
}

/**
 * Verifies a code and returns the time step it matched, or null. Steps at or before `afterStep`
 * (the last one accepted, users.totp_last_step) are refused, so a code cannot be replayed.
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  afterStep: number | null,
  at: Date = new Date(),
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: PERIOD,
    epochTolerance: PERIOD,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // The union also covers HOTP results, which have no time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

// The secret is stored sealed (domain/sealing.ts), bound to its user id.
const TOTP_SCOPE = { salt: 'totp-secret', info: 'users.totp_secret_enc' };

export function sealTotpSecret(serverKey: string, userId: string, secret: string): string {
  return sealSecret(serverKey, TOTP_SCOPE, userId, secret);
}

/** The plain secret, or null when the value was sealed for another user or with another key. */
export function openTotpSecret(serverKey: string, userId: string, sealed: string): string | null {
  return openSecret(serverKey, TOTP_SCOPE, userId, sealed);
}

/**
 * Checks `code` against the user's sealed secret and, when it matches, records its time step as
 * the last one used (refusing the update if a concurrent request got there first), so each code
 * works once. Used by the authenticator setup, the method switch and the sign-in.
 */
export async function consumeUserTotp(
  db: Db,
  serverKey: string,
  user: Pick<User, 'id' | 'totp_secret_enc' | 'totp_last_step'>,
  code: string,
  clock: Clock = systemClock,
): Promise<boolean> {
  if (!user.totp_secret_enc) return false;
  const secret = openTotpSecret(serverKey, user.id, user.totp_secret_enc);
  if (!secret) return false;
  const step = await matchTotpStep(secret, code, user.totp_last_step, clock());
  if (step === null) return false;
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
