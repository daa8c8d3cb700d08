import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connection';
import { newId } from '../ids';
import { systemClock, type Clock } from '../time';

// E-mailed one-time codes: single use, only the newest code of a purpose counts. Sign-in codes
// are 4 digits valid 10 minutes; password reset codes 8 digits valid 15 (domain/account/recovery.ts).
// Stored as an HMAC under the server key: a 4-digit code's plain hash would fall to a
// 10 000-entry table, the keyed one needs the key as well.

export const OTP_TTL_MINUTES = 10;
export const OTP_LENGTH = 4;

/** What the code is for, so a sign-in code cannot be spent on another action. */
export type OtpPurpose = 'login' | 'auth-switch' | 'password-reset';

/** Digits and minutes of validity per purpose. */
export const OTP_SHAPE: Record<OtpPurpose, { length: number; ttlMinutes: number }> = {
  login: { length: OTP_LENGTH, ttlMinutes: OTP_TTL_MINUTES },
  'auth-switch': { length: OTP_LENGTH, ttlMinutes: OTP_TTL_MINUTES },
  'password-reset': { length: 8, ttlMinutes: 15 },
};

function codeHash(secretKey: string, userId: string, purpose: OtpPurpose, code: string): string {
  return createHmac('sha256', secretKey)
    .update(`otp:v1:${userId}:${purpose}:${code}`)
    .digest('hex');
}

/**
 * Issues a fresh code through `deliver` (the e-mail); once delivered, earlier unused codes of the
 * same purpose stop working. A failed delivery changes nothing.
 */
export async function issueOtp(
  db: Db,
  secretKey: string,
  userId: string,
  purpose: OtpPurpose,
  deliver: (code: string) => Promise<void>,
  clock: Clock = systemClock,
): Promise<void> {
  const { length, ttlMinutes } = OTP_SHAPE[purpose];
  const code = String(randomInt(0, 10 ** length)).padStart(length, '0');
  const now = clock();
  // Delivered first: when the mail cannot go out, the code the user may already hold still works.
  await deliver(code);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('otp_codes')
      .set({ used_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('otp_codes')
      .values({
        id: newId('otp'),
        user_id: userId,
        purpose,
        code_hash: codeHash(secretKey, userId, purpose, code),
        expires_at: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
        used_at: null,
        created_at: now.toISOString(),
      })
      .execute();
  });
}

/**
 * The id of the newest unused, unexpired code of the purpose when `code` is it (not spent here),
 * else null.
 */
export async function matchingOtp(
  db: Db,
  secretKey: string,
  userId: string,
  purpose: OtpPurpose,
  code: string,
  now: string,
): Promise<string | null> {
  if (!new RegExp(`^\\d{${OTP_SHAPE[purpose].length}}$`).test(code)) return null;
  const latest = await db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!latest) return null;
  const expected = Buffer.from(latest.code_hash, 'hex');
  const given = Buffer.from(codeHash(secretKey, userId, purpose, code), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given) ? latest.id : null;
}

/**
 * Spends the newest unused, unexpired code of the purpose if `code` matches it. False for a
 * wrong, expired or already used code. Run it inside the caller's transaction when the code
 * guards other writes.
 */
export async function consumeOtp(
  db: Db,
  secretKey: string,
  userId: string,
  purpose: OtpPurpose,
  code: string,
  clock: Clock = systemClock,
): Promise<boolean> {
  const now = clock().toISOString();
  const id = await matchingOtp(db, secretKey, userId, purpose, code, now);
  if (!id) return false;
  // Conditional update: of two concurrent requests with the same code only one spends it.
  const result = await db
    .updateTable('otp_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
