import { accountProfile } from '../domain/security';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import {
  AUTH_MESSAGES,
  SECOND_FACTOR,
  checkPassword,
  createAccount,
  findUserByLogin,
  findUserByUsername,
  identifierMatches,
  recordSignIn,
  registrationErrors,
  warmUpPasswordCheck,
  type Registration,
} from '../domain/auth';
import {
  createLoginGuard,
  lockedMessage,
  throttledMessage,
  type LoginSubject,
} from '../domain/lockout';
import { sendMail } from '../domain/mailer';
import { verifySecret } from '../domain/passwords';
import { OTP_TTL_MINUTES, consumeOtp, issueOtp } from '../domain/otp';
import { createSession, revokeSession } from '../domain/sessions';
import { issueStepToken } from '../domain/stepTokens';
import { consumeUserTotp } from '../domain/totp';
import { HttpError, fieldError, validationFailed } from '../http/errors';
import { requireStepUser, requireUser } from '../http/requestContext';
import type { AppContext, HandlerModule } from './types';

interface PreLoginBody {
  username: string;
  password: string;
}

interface LoginBody extends PreLoginBody {
  mpin?: string;
  authenticator?: string;
  otp?: string;
}

/** The Profile of openapi.yaml (one serializer: domain/security.ts). */
const profileOf = (ctx: AppContext, user: User) =>
  accountProfile(ctx.db, ctx.config.secretKey, user);

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
    async preLogin(request: FastifyRequest<{ Body: PreLoginBody }>, reply: FastifyReply) {
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
      };
    },

    async login(request: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply) {
      const user = requireStepUser(request);
      const stepId = request.stepTokenId ?? '';
      const subject: LoginSubject = { userId: user.id };
      const body = request.body;
      await refuseIfThrottled(reply, subject, request.ip);

      const spent = await ctx.db
        .selectFrom('spent_step_tokens')
        .select('id')
        .where('id', '=', stepId)
        .executeTakeFirst();
      if (spent) throw validationFailed({}, AUTH_MESSAGES.stepUsed);

      const passwordOk = await checkPassword(user, body.password);
      await refuseIfLocked(subject);
      // The step token is bound to one account: the credentials sent again must name it.
      if (!identifierMatches(user, body.username) || !passwordOk) {
        return fail(subject, request.ip, fieldError('password', AUTH_MESSAGES.badCredentials));
      }

      const factor = SECOND_FACTOR[user.auth_type];
      const code = body[factor.field];
      if (!code) throw fieldError(factor.field, factor.required);

      const signedIn = await ctx.db
        .transaction()
        .execute(async (trx) => {
          // Claim the step token first: a second login with it fails on the primary key.
          const claimed = await trx
            .insertInto('spent_step_tokens')
            .values({ id: stepId, spent_at: ctx.clock().toISOString() })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
          if (claimed.numInsertedOrUpdatedRows !== 1n) return 'spent' as const;
          let codeOk: boolean;
          switch (user.auth_type) {
            case 'mpin':
              codeOk = await checkPin(user, code);
              break;
            case 'authenticator':
              codeOk = await consumeUserTotp(trx, ctx.config.secretKey, user, code, ctx.clock);
              break;
            case 'otp':
              codeOk = await consumeOtp(
                trx,
                ctx.config.secretKey,
                user.id,
                'login',
                code,
                ctx.clock,
              );
              break;
          }
          if (!codeOk) throw new WrongCode();
          await recordSignIn(trx, user);
          return createSession(
            trx,
            user.id,
            { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
            ctx.clock,
          );
        })
        .catch((error: unknown) => {
          if (error instanceof WrongCode) return 'wrong' as const;
          throw error;
        });
      if (signedIn === 'spent') throw validationFailed({}, AUTH_MESSAGES.stepUsed);
      if (signedIn === 'wrong') {
        return fail(subject, request.ip, fieldError(factor.field, factor.wrong));
      }
      await guard.recordSuccess(ctx.db, user.id);

      const fresh = await ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return {
        status: true,
        msg: AUTH_MESSAGES.signedIn,
        token: signedIn.token,
        username: fresh.username,
        currency: 'USD',
        currency_type: '$',
        profile: await profileOf(ctx, fresh),
      };
    },

    async logout(request: FastifyRequest) {
      requireUser(request);
      if (request.sessionId) await revokeSession(ctx.db, request.sessionId, ctx.clock);
      return { status: true, msg: AUTH_MESSAGES.loggedOut };
    },

    async register(request: FastifyRequest<{ Body: Registration }>) {
      const body = request.body;
      const errors = await registrationErrors(ctx.db, body);
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      try {
        await createAccount(ctx.db, body, ctx.clock);
      } catch (error) {
        // Two sign-ups racing for one username or e-mail: the unique index decides, and the
        // loser gets the same field message as a sequential duplicate.
        const raced = await registrationErrors(ctx.db, body);
        if (Object.keys(raced).length > 0) throw validationFailed(raced);
        throw error;
      }
      return { status: true, msg: AUTH_MESSAGES.registered };
    },

    async checkUsername(request: FastifyRequest<{ Params: { username: string } }>) {
      const taken = await findUserByUsername(ctx.db, request.params.username);
      return taken
        ? { status: false, msg: AUTH_MESSAGES.usernameTaken }
        : { status: true, msg: AUTH_MESSAGES.usernameAvailable };
    },

    async listCountries() {
      const data = await ctx.db
        .selectFrom('countries')
        .select(['id', 'name', 'calling_code'])
        .orderBy('name')
        .execute();
      return { status: true, data };
    },
  };
};

/** Thrown inside the sign-in transaction so that the claimed step token is rolled back. */
class WrongCode extends Error {}

function checkPin(user: User, pin: string): Promise<boolean> {
  return /^\d{4}$/.test(pin) ? verifySecret(user.pin_hash, pin) : Promise.resolve(false);
}
