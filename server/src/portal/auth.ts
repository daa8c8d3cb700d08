import type { FastifyReply } from 'fastify';
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
  register,
  warmUpPasswordCheck,
} from '../domain/account/auth';
import { recordSignInFailure } from '../domain/account/events';
import { newSignInMail, sendAlert } from '../domain/account/mail';
import {
  createLoginGuard,
  lockedMessage,
  throttledMessage,
  type LoginSubject,
} from '../domain/account/lockout';
import { sendMail } from '../domain/mailer';
import { OTP_TTL_MINUTES, issueOtp } from '../domain/account/otp';
import { accountProfile, reloadUser } from '../domain/account/security';
import { revokeSession } from '../domain/account/sessions';
import { issueStepToken } from '../domain/account/stepTokens';
import { clientOf } from '../http/client';
import { HttpError, fieldError, validationFailed } from '../http/errors';
import { keepSerialized } from '../http/keptAnswers';
import { requireStepUser, requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';

export const authHandlers: HandlerModule = (ctx) => {
  const guard = createLoginGuard(ctx.config.loginGuard);
  warmUpPasswordCheck();
  let countries: Promise<Reply<'listCountries'>> | undefined;

  async function refuseIfLocked(subject: LoginSubject) {
    const now = ctx.clock();
    const until = await guard.lockedUntil(ctx.db, subject, now);
    if (until) throw validationFailed({}, lockedMessage(until, now));
  }

  /**
   * Runs a sign-in step with its failure counted up front (429 with Retry-After when the
   * address, or the address on this account, is over its budget). A failure the step answers through `fail` stays counted
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
      if ('userId' in subject) {
        const client = clientOf(reply.request);
        await recordSignInFailure(ctx.db, subject.userId, lockedUntil, client, ctx.clock);
      }
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
          clientOf(request),
          ctx.clock,
        );
        if (!outcome.ok && outcome.reason === 'spent') {
          throw validationFailed({}, AUTH_MESSAGES.stepUsed);
        }
        if (!outcome.ok) return fail(fieldError(factor.field, factor.wrong));
        return outcome;
      });
      await guard.recordSuccess(ctx.db, user.id, request.ip);
      if (signedIn.novelty && (signedIn.novelty.newDevice || signedIn.novelty.newAddress)) {
        const mail = newSignInMail(user, clientOf(request), signedIn.novelty, ctx.clock);
        await sendAlert(ctx.config, mail, request.log, ctx.clock);
      }

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

    // Only the seed writes the countries: read once per app, its JSON text kept.
    listCountries() {
      countries ??= listCountries(ctx.db).then(
        (data) => keepSerialized({ status: true, data } satisfies Reply<'listCountries'>),
        (err: unknown) => {
          countries = undefined; // the next request tries again
          throw err;
        },
      );
      return countries;
    },
  };
};
