import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { User } from '../../db/schema';
import { FailureWindow, clearLock } from './lockout';
import { issueOtp, matchingOtp, OTP_SHAPE } from './otp';
import { hashSecret, verifySecret } from './passwords';
import { revokeUserSessions } from './sessions';
import { systemClock, type Clock } from '../time';
import { codedMessages } from '../messageCodes';
import { waitMessage } from '../waitMessages';
import { SECOND_FACTOR } from './auth';

// Password recovery: an e-mailed 8-digit code (kept in otp_codes under its own purpose, as a
// keyed hash), valid 15 minutes, single use, only the newest one counts; the new password also
// needs the account's pin, so a mailbox alone does not take an account over.

export const RESET_CODE_TTL_MINUTES = OTP_SHAPE['password-reset'].ttlMinutes;
const MINUTE = 60_000;

/**
 * The brakes of both steps (docs/decisions.md, Password recovery works, describes them). Their
 * budgets where the configuration sets them (a contract run raises them, as it does the other
 * rate limits).
 */
export const RECOVERY_LIMITS = {
  /** Requests per name (as typed, any case) per window (RECOVERY_NAME_MAX, default 3): 429. */
  perNameWindowMs: 15 * MINUTE,
  /** Requests per client IP per window (RECOVERY_IP_MAX, default 20): answered 429. */
  perIpWindowMs: 60 * MINUTE,
  /** Codes e-mailed per account per window; beyond, the answer stays the same, no mail goes. */
  mailsPerAccount: { max: 3, windowMs: 15 * MINUTE },
  /**
   * Failed resets (wrong code or pin) per account, or per unknown name, per window
   * (RECOVERY_FAILED_RESET_MAX, default 5): 429.
   */
  failedResetsWindowMs: 15 * MINUTE,
} as const;

export const RECOVERY_MESSAGES = {
  ...codedMessages('recovery', {
    requested: `If an account matches, we have e-mailed it a reset code. It is valid for ${RESET_CODE_TTL_MINUTES} minutes.`,
    reset: 'Your password has been reset. Please sign in with your new password.',
    wrongCode: 'The reset code is incorrect or has expired.',
  }),
  /** The sign-in's own words (and code) for a wrong pin. */
  wrongPin: SECOND_FACTOR.mpin.wrong,
  tooManyRequests: (seconds: number) => waitMessage('resetRequests', seconds),
  tooManyAttempts: (seconds: number) => waitMessage('failedAttempts', seconds),
} as const;

const normalName = (name: string) => name.trim().toLowerCase();

/**
 * The windows of RECOVERY_LIMITS with the configured budgets, stored with the sign-in's
 * (login_failures, each under its own scope).
 */
export function recoveryWindows(
  limits: Pick<Config, 'recoveryIpMax' | 'recoveryNameMax' | 'recoveryFailedResetMax'>,
) {
  const w = RECOVERY_LIMITS;
  return {
    perName: new FailureWindow('recovery-name', limits.recoveryNameMax, w.perNameWindowMs),
    perIp: new FailureWindow('recovery-ip', limits.recoveryIpMax, w.perIpWindowMs),
    mails: new FailureWindow('recovery-mail', w.mailsPerAccount.max, w.mailsPerAccount.windowMs),
    failedResets: new FailureWindow(
      'recovery-check',
      limits.recoveryFailedResetMax,
      w.failedResetsWindowMs,
    ),
  };
}

/** The key a name's request and failed-reset windows count under. */
export const nameKey = (name: string) => `n:${normalName(name)}`;

/** What the user typed, without the spaces and dashes a copied code may carry. */
function normalizeResetCode(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/**
 * Issues a fresh reset code through `deliver` (the e-mail, or the operator's screen); once
 * delivered, earlier unused reset codes of the account stop working.
 */
export async function issueResetCode(
  db: Db,
  secretKey: string,
  userId: string,
  deliver: (code: string) => Promise<void>,
  clock: Clock = systemClock,
): Promise<void> {
  await issueOtp(db, secretKey, userId, 'password-reset', deliver, clock);
}

interface ResetRequest {
  username: string;
  code: string;
  mpin: string;
  password: string;
}

type ResetOutcome = { ok: true; user: User } | { ok: false; field: 'code' | 'mpin' };

/**
 * Sets the new password when the code is the account's live one and the pin is right: the code
 * is spent, the password replaced and every session of the account ends, in one transaction,
 * and a sign-in lock is lifted. The pin is checked only with the right code, so it cannot be
 * guessed without the mailbox; a wrong pin leaves the code usable.
 */
export async function resetPasswordWithCode(
  db: Db,
  secretKey: string,
  user: User | undefined,
  request: ResetRequest,
  clock: Clock = systemClock,
): Promise<ResetOutcome> {
  if (!user) return { ok: false, field: 'code' };
  const now = clock().toISOString();
  const code = normalizeResetCode(request.code);
  const codeId = await matchingOtp(db, secretKey, user.id, 'password-reset', code, now);
  if (!codeId) return { ok: false, field: 'code' };
  if (!(await verifySecret(user.pin_hash, request.mpin))) return { ok: false, field: 'mpin' };
  const passwordHash = await hashSecret(request.password);
  const done = await db.transaction().execute(async (trx) => {
    // Conditional: of two resets racing with the same code only one spends it.
    const spent = await trx
      .updateTable('otp_codes')
      .set({ used_at: now })
      .where('id', '=', codeId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (spent.numUpdatedRows !== 1n) return false;
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', user.id)
      .execute();
    await revokeUserSessions(trx, user.id, undefined, clock);
    return true;
  });
  if (!done) return { ok: false, field: 'code' };
  await clearLock(db, user.id);
  return { ok: true, user };
}

// Requests answer before their code is made and mailed (so the time of the answer does not tell
// whether an account matched); the work left running is kept here, so tests and a shutdown can
// wait for it.
const pending = new Set<Promise<void>>();

/** Runs `work` after the answer; its failure is the caller's to log (it must not reject). */
export function runAfterAnswer(work: Promise<void>): void {
  pending.add(work);
  void work.finally(() => pending.delete(work));
}

/** Resolves once every recovery started so far has sent its mail (or given up). */
export async function recoveriesSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
