import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { AUTH_MESSAGES, findUserByLogin, meetsPasswordPolicy } from '../domain/account/auth';
import { sendMail } from '../domain/mailer';
import {
  RECOVERY_MESSAGES,
  RESET_CODE_TTL_MINUTES,
  issueResetCode,
  nameKey,
  recoveryWindows,
  resetPasswordWithCode,
  runAfterAnswer,
} from '../domain/account/recovery';
import { HttpError, fieldError, validationFailed, type FieldErrors } from '../http/errors';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { SECURITY_MESSAGES } from '../../../src/shared/security';

export const recoveryHandlers: HandlerModule = (ctx) => {
  const windows = recoveryWindows(ctx.config);

  /** 429 with Retry-After while a window's budget is used up (`waitMs` > 0). */
  function refuseWhileThrottled(
    reply: FastifyReply,
    waitMs: number,
    message: (seconds: number) => string,
  ) {
    if (waitMs === 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    void reply.header('retry-after', String(seconds));
    throw new HttpError(429, message(seconds));
  }

  /** The reset code's e-mail, when `name` is an account's and its mail budget allows one. */
  async function mailResetCode(name: string, log: FastifyBaseLogger): Promise<void> {
    const user = await findUserByLogin(ctx.db, name);
    if (!user) return;
    if ((await windows.mails.spend(ctx.db, user.id, ctx.clock().getTime())) > 0) {
      log.warn({ userId: user.id }, 'Password reset: mail budget used up, no code sent');
      return;
    }
    const mail = (code: string) =>
      sendMail(
        ctx.config,
        {
          to: user.email,
          subject: 'Your CryptoSafeLock password reset code',
          text:
            `Your password reset code is ${code}. It is valid for ${RESET_CODE_TTL_MINUTES} ` +
            'minutes and works once. Enter it on the Reset Password screen with your 4 Digit Pin ' +
            'and a new password. If you did not ask for it, ignore this e-mail: your password ' +
            'stays as it is.',
        },
        log,
        ctx.clock,
      );
    await issueResetCode(ctx.db, ctx.config.secretKey, user.id, mail, ctx.clock);
  }

  return {
    async requestPasswordReset(request, reply) {
      const name = request.body.username;
      const now = ctx.clock().getTime();
      refuseWhileThrottled(
        reply,
        await windows.perIp.spend(ctx.db, request.ip, now),
        RECOVERY_MESSAGES.tooManyRequests,
      );
      refuseWhileThrottled(
        reply,
        await windows.perName.spend(ctx.db, nameKey(name), now),
        RECOVERY_MESSAGES.tooManyRequests,
      );
      // Answered before the account is even looked up: the same answer, in the same time.
      const log = request.log;
      runAfterAnswer(
        mailResetCode(name, log).catch((err: unknown) =>
          log.error({ err }, 'Password reset: the code was not sent'),
        ),
      );
      return {
        status: true,
        msg: RECOVERY_MESSAGES.requested,
      } satisfies Reply<'requestPasswordReset'>;
    },

    async resetPassword(request, reply) {
      const body = request.body;
      const errors: FieldErrors = {};
      if (!meetsPasswordPolicy(body.password)) errors.password = [AUTH_MESSAGES.passwordPolicy];
      if (body.password !== body.password_confirmation) {
        errors.password_confirmation = [SECURITY_MESSAGES.passwordMismatch];
      }
      if (Object.keys(errors).length > 0) throw validationFailed(errors);

      const user = await findUserByLogin(ctx.db, body.username);
      const key = user ? user.id : nameKey(body.username);
      // Counted before the check, so parallel guesses stop at the budget; a success clears it.
      refuseWhileThrottled(
        reply,
        await windows.failedResets.spend(ctx.db, key, ctx.clock().getTime()),
        RECOVERY_MESSAGES.tooManyAttempts,
      );
      const outcome = await resetPasswordWithCode(
        ctx.db,
        ctx.config.secretKey,
        user,
        body,
        ctx.clock,
      );
      if (!outcome.ok) {
        throw fieldError(
          outcome.field,
          outcome.field === 'code' ? RECOVERY_MESSAGES.wrongCode : RECOVERY_MESSAGES.wrongPin,
        );
      }
      await windows.failedResets.clear(ctx.db, key);
      const account = outcome.user;
      // The password is already changed: a notice that cannot go out is logged, not an error.
      await sendMail(
        ctx.config,
        {
          to: account.email,
          subject: 'Your CryptoSafeLock password was reset',
          text:
            `The password of your CryptoSafeLock account ${account.username} was reset with an ` +
            `e-mailed code and your pin on ${ctx.clock().toISOString()} from ${request.ip}. ` +
            'Every device signed in to the account was signed out. If this was not you, ' +
            'contact support at once.',
        },
        request.log,
        ctx.clock,
      ).catch((err: unknown) =>
        request.log.error({ err }, 'Password reset: the notice was not sent'),
      );
      return { status: true, msg: RECOVERY_MESSAGES.reset } satisfies Reply<'resetPassword'>;
    },
  };
};
