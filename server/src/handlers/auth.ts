import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import {
  AUTH_MESSAGES,
  SECOND_FACTOR,
  checkPassword,
  completeSignIn,
  findUserByLogin,
  findUserByUsername,
  identifierMatches,
  isStepSpent,
  listCountries,
  meetsPasswordPolicy,
  register,
  warmUpPasswordCheck,
} from '../domain/auth';
import {
  createLoginGuard,
  lockedMessage,
  throttledMessage,
  type LoginSubject,
} from '../domain/lockout';
import { sendMail } from '../domain/mailer';
import { OTP_TTL_MINUTES, issueOtp } from '../domain/otp';
import {
  RECOVERY_MESSAGES,
  RESET_CODE_TTL_MINUTES,
  issueResetCode,
  nameKey,
  recoveryWindows,
  resetPasswordWithCode,
  runAfterAnswer,
} from '../domain/recovery';
import { accountProfile, reloadUser } from '../domain/security';
import { revokeSession } from '../domain/sessions';
import { issueStepToken } from '../domain/stepTokens';
import {
  HttpError,
  fieldError,
  validationFailed,
  type FieldErrors,
} from '../http/errors';
import { requireStepUser, requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from './types';
import { SECURITY_MESSAGES } from '../../../src/shared/security';

export const authHandlers: HandlerModule = (ctx) => {
  const guard = createLoginGuard(ctx.config.loginGuard);
  warmUpPasswordCheck();
  const recovery = recoveryWindows();

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
    if ((await recovery.mails.spend(ctx.db, user.id, ctx.clock().getTime())) > 0) {
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

  async function refuseIfLocked(subject: LoginSubject) {
    const now = ctx.clock();
    const until = await guard.lockedUntil(ctx.db, subject, now);
    if (until) throw validationFailed({}, lockedMessage(until, now));
  }

  /**
   * Runs a sign-in step with its failure counted up front (429 with Retry-After when the IP or
   * the account is over its budget). A failure the step answers through `fail` stays counted
   * (with the lock's message when it locked the account); any other end gives it back.
   */
  async function guarded<T>(
    reply: FastifyReply,
    subject: LoginSubject,
    ip: string,
    step: (fail: (error: HttpError) => Promise<never>) => Promise<T>,
  ): Promise<T> {
    const attempt = await guard.attempt(ctx.db, subject, ip, ctx.clock());
    if ('retryAfterSeconds' in attempt) {
      void reply.header('retry-after', String(attempt.retryAfterSeconds));
      throw new HttpError(429, throttledMessage(attempt.retryAfterSeconds));
    }
    let failed = false;
    const fail = async (error: HttpError): Promise<never> => {
      failed = true;
      const now = ctx.clock();
      const lockedUntil = await attempt.failed();
      if (lockedUntil) throw validationFailed({}, lockedMessage(lockedUntil, now));
      throw error;
    };
    try {
      return await step(fail);
    } finally {
      if (!failed) await attempt.release();
    }
  }

  return {
    async preLogin(request, reply) {
      const { username, password } = request.body;
      const found = await findUserByLogin(ctx.db, username);
      const subject: LoginSubject = found ? { userId: found.id } : { unknownName: username };
      const user = await guarded(reply, subject, request.ip, async (fail) => {
        // Checked even when locked, so that a locked account answers as slowly as any other.
        const passwordOk = await checkPassword(found, password);
        await refuseIfLocked(subject);
        if (!found || !passwordOk) {
          return fail(fieldError('password', AUTH_MESSAGES.badCredentials));
        }
        return found;
      });
      const factor = SECOND_FACTOR[user.auth_type];
      if (user.auth_type === 'otp') {
        const mail = (code: string) =>
          sendMail(
            ctx.config,
            {
              to: user.email,
              subject: 'Your CryptoSafeLock sign-in code',
              text: `Your CryptoSafeLock sign-in code is ${code}. It expires in ${OTP_TTL_MINUTES} minutes. If you did not try to sign in, change your password.`,
            },
            request.log,
            ctx.clock,
          );
        await issueOtp(ctx.db, ctx.config.secretKey, user.id, 'login', mail, ctx.clock);
      }
      return {
        status: true,
        auth_type: user.auth_type,
        token: issueStepToken(ctx.config.secretKey, user.id, 'login', ctx.clock),
        msg: factor.prompt,
      } satisfies Reply<'preLogin'>;
    },

    async login(request, reply) {
      const user = requireStepUser(request);
      const stepId = request.stepTokenId ?? '';
      const subject: LoginSubject = { userId: user.id };
      const body = request.body;
      const signedIn = await guarded(reply, subject, request.ip, async (fail) => {
        if (await isStepSpent(ctx.db, stepId)) throw validationFailed({}, AUTH_MESSAGES.stepUsed);

        const passwordOk = await checkPassword(user, body.password);
        await refuseIfLocked(subject);
        // The step token is bound to one account: the credentials sent again must name it.
        if (!identifierMatches(user, body.username) || !passwordOk) {
          return fail(fieldError('password', AUTH_MESSAGES.badCredentials));
        }

        const factor = SECOND_FACTOR[user.auth_type];
        const code = body[factor.field];
        if (!code) throw fieldError(factor.field, factor.required);

        const outcome = await completeSignIn(
          ctx.db,
          ctx.config.secretKey,
          user,
          stepId,
          code,
          { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
          ctx.clock,
        );
        if (!outcome.ok && outcome.reason === 'spent') {
          throw validationFailed({}, AUTH_MESSAGES.stepUsed);
        }
        if (!outcome.ok) return fail(fieldError(factor.field, factor.wrong));
        return outcome;
      });
      await guard.recordSuccess(ctx.db, user.id);

      const fresh = await reloadUser(ctx.db, user.id);
      return {
        status: true,
        msg: AUTH_MESSAGES.signedIn,
        token: signedIn.token,
        username: fresh.username,
        currency: 'USD',
        currency_type: '$',
        profile: await accountProfile(ctx.db, ctx.config.secretKey, fresh),
      } satisfies Reply<'login'>;
    },

    async logout(request) {
      requireUser(request);
      if (request.sessionId) await revokeSession(ctx.db, request.sessionId, ctx.clock);
      return { status: true, msg: AUTH_MESSAGES.loggedOut } satisfies Reply<'logout'>;
    },

    async requestPasswordReset(request, reply) {
      const name = request.body.username;
      const now = ctx.clock().getTime();
      refuseWhileThrottled(
        reply,
        await recovery.perIp.spend(ctx.db, request.ip, now),
        RECOVERY_MESSAGES.tooManyRequests,
      );
      refuseWhileThrottled(
        reply,
        await recovery.perName.spend(ctx.db, nameKey(name), now),
        RECOVERY_MESSAGES.tooManyRequests,
      );
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
        await recovery.failedResets.spend(ctx.db, key, ctx.clock().getTime()),
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
      await recovery.failedResets.clear(ctx.db, key);
      const account = outcome.user;
      // The password is already changed: a mail that cannot go out is logged, not an error.
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

    async register(request) {
      await register(ctx.db, request.body, ctx.clock);
      return { status: true, msg: AUTH_MESSAGES.registered } satisfies Reply<'register'>;
    },

    async checkUsername(request) {
      const taken = await findUserByUsername(ctx.db, request.params.username);
      return (
        taken
          ? { status: false, msg: AUTH_MESSAGES.usernameTaken }
          : { status: true, msg: AUTH_MESSAGES.usernameAvailable }
      ) satisfies Reply<'checkUsername'>;
    },

    async listCountries() {
      const data = await listCountries(ctx.db);
      return { status: true, data } satisfies Reply<'listCountries'>;
    },
  };
};
