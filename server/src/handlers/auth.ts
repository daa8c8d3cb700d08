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
} from '../domain/auth';
import {
  createLoginGuard,
  lockedMessage,
  throttledMessage,
  type LoginSubject,
} from '../domain/lockout';
import { sendMail } from '../domain/mailer';
import { OTP_TTL_MINUTES, issueOtp } from '../domain/otp';
import { accountProfile, reloadUser } from '../domain/security';
import { revokeSession } from '../domain/sessions';
import { issueStepToken } from '../domain/stepTokens';
import { HttpError, fieldError, validationFailed } from '../http/errors';
import { requireStepUser, requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from './types';

export const authHandlers: HandlerModule = (ctx) => {
  const guard = createLoginGuard(ctx.config.loginGuard);
  warmUpPasswordCheck();

  /** 429 with Retry-After while the IP or the account is over its failure budget. */
  async function refuseIfThrottled(reply: FastifyReply, subject: LoginSubject, ip: string) {
    const throttled = await guard.throttled(ctx.db, subject, ip, ctx.clock());
    if (!throttled) return;
    void reply.header('retry-after', String(throttled.retryAfterSeconds));
    throw new HttpError(429, throttledMessage(throttled.retryAfterSeconds));
  }

  async function refuseIfLocked(subject: LoginSubject) {
    const now = ctx.clock();
    const until = await guard.lockedUntil(ctx.db, subject, now);
    if (until) throw validationFailed({}, lockedMessage(until, now));
  }

  /** Counts the failure and answers it: the lock's message when this failure locked the account. */
  async function fail(subject: LoginSubject, ip: string, error: HttpError): Promise<never> {
    const now = ctx.clock();
    const lockedUntil = await guard.recordFailure(ctx.db, subject, ip, now);
    if (lockedUntil) throw validationFailed({}, lockedMessage(lockedUntil, now));
    throw error;
  }

  return {
    async preLogin(request, reply) {
      const { username, password } = request.body;
      const user = await findUserByLogin(ctx.db, username);
      const subject: LoginSubject = user ? { userId: user.id } : { unknownName: username };
      await refuseIfThrottled(reply, subject, request.ip);
      // Checked even when locked, so that a locked account answers as slowly as any other.
      const passwordOk = await checkPassword(user, password);
      await refuseIfLocked(subject);
      if (!user || !passwordOk) {
        return fail(subject, request.ip, fieldError('password', AUTH_MESSAGES.badCredentials));
      }

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
      await refuseIfThrottled(reply, subject, request.ip);

      if (await isStepSpent(ctx.db, stepId)) throw validationFailed({}, AUTH_MESSAGES.stepUsed);

      const passwordOk = await checkPassword(user, body.password);
      await refuseIfLocked(subject);
      // The step token is bound to one account: the credentials sent again must name it.
      if (!identifierMatches(user, body.username) || !passwordOk) {
        return fail(subject, request.ip, fieldError('password', AUTH_MESSAGES.badCredentials));
      }

      const factor = SECOND_FACTOR[user.auth_type];
      const code = body[factor.field];
      if (!code) throw fieldError(factor.field, factor.required);

      const signedIn = await completeSignIn(
        ctx.db,
        ctx.config.secretKey,
        user,
        stepId,
        code,
        { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
        ctx.clock,
      );
      if (!signedIn.ok && signedIn.reason === 'spent') {
        throw validationFailed({}, AUTH_MESSAGES.stepUsed);
      }
      if (!signedIn.ok) return fail(subject, request.ip, fieldError(factor.field, factor.wrong));
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
