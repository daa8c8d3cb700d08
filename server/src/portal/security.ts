import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { passwordChangedMail, sendAlert } from '../domain/account/mail';
import { AUTH_MESSAGES, meetsPasswordPolicy, secondFactorOk } from '../domain/account/auth';
import { FailureWindow } from '../domain/account/lockout';
import { sendMail } from '../domain/mailer';
import { OTP_TTL_MINUTES, issueOtp } from '../domain/account/otp';
import { verifySecret } from '../domain/account/passwords';
import {
  accountProfile,
  authenticatorSetupUrl,
  changePassword,
  changePin,
  markAuthenticatorSetUp,
  reloadUser,
  setAuthType,
} from '../domain/account/security';
import { codedMessages } from '../domain/messageCodes';
import { waitMessage, type WaitKind } from '../domain/waitMessages';
import { consumeUserTotp } from '../domain/account/totp';
import { clientOf } from '../http/client';
import {
  HttpError,
  conflict,
  fieldError,
  validationFailed,
  type FieldErrors,
} from '../http/errors';
import { requireUser } from '../http/requestContext';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { SECURITY_MESSAGES } from '../../../src/shared/security';

export const MESSAGES = codedMessages('security', {
  setup2faFirst: SECURITY_MESSAGES.setup2faFirst,
  alreadyActive: 'This security method is already active',
  alreadySetUp: 'Two factor authentication is already set up',
  codeRequired: SECURITY_MESSAGES.codeRequired,
  wrongCode: 'The security code is incorrect',
  wrongTwoFactor: 'The Two Factor code is incorrect',
  wrongPassword: 'The current password is incorrect',
  wrongPin: 'The 4 Digit Pin is incorrect',
  pinMismatch: SECURITY_MESSAGES.pinMismatch,
  passwordMismatch: SECURITY_MESSAGES.passwordMismatch,
  switched: 'Authentication method updated successfully',
  setUp: 'Two factor authentication setup successfully',
  pinChanged: 'Pin changed successfully',
  passwordChanged: 'Password changed successfully',
  otpSent: 'OTP sent to your registered email',
  otpNotActive: 'OTP is not your active security method',
} as const);

/** The request field that carries the code of each active method. */
const CODE_FIELD = { mpin: 'spassword', authenticator: 'code', otp: 'otp' } as const;

export const securityHandlers: HandlerModule = (ctx) => {
  // The sign-in's budget (LOGIN_ACCOUNT_MAX_FAILURES per LOGIN_FAILURE_WINDOW_MS) applies to
  // every password or code check here too, counted per account apart from the sign-in's own.
  const { accountMaxFailures, failureWindowMs } = ctx.config.loginGuard;
  const failedChecks = new FailureWindow('code-check', accountMaxFailures, failureWindowMs);
  // Every e-mailed code counts, so the mailbox cannot be flooded.
  const sentCodes = new FailureWindow('code-send', accountMaxFailures, failureWindowMs);

  function refuseWhenThrottled(reply: FastifyReply, wait: number, kind: WaitKind) {
    if (wait === 0) return;
    const seconds = Math.ceil(wait / 1000);
    void reply.header('retry-after', String(seconds));
    throw new HttpError(429, waitMessage(kind, seconds));
  }

  /**
   * Runs a password or code check under the account's budget: 429 while it is used up, a
   * failure spends one attempt, a success gives the budget back.
   */
  async function guardedCheck(reply: FastifyReply, user: User, check: () => Promise<boolean>) {
    // Counted as failed before the (slow) check, so parallel guesses cannot all slip through.
    const wait = await failedChecks.spend(ctx.db, user.id, ctx.clock().getTime());
    refuseWhenThrottled(reply, wait, 'failedAttempts');
    const ok = await check();
    if (ok) await failedChecks.clear(ctx.db, user.id);
    return ok;
  }

  /** The event options of a change made by `request`. */
  function eventOf(request: FastifyRequest) {
    return { client: clientOf(request), clock: ctx.clock };
  }

  async function profileNow(userId: string) {
    return accountProfile(ctx.db, ctx.config.secretKey, await reloadUser(ctx.db, userId));
  }

  return {
    async getAuthentication(request) {
      const user = requireUser(request);
      const image2fa = await authenticatorSetupUrl(ctx.db, ctx.config.secretKey, user);
      return {
        status: true,
        more_details: { authenticator: user.totp_enabled },
        auth_type: user.auth_type,
        image_2fa: image2fa,
      } satisfies Reply<'getAuthentication'>;
    },

    async updateAuthentication(request, reply) {
      const user = requireUser(request);
      const { type } = request.body;
      if (type === 'authenticator' && user.totp_enabled !== 1) {
        throw validationFailed({}, MESSAGES.setup2faFirst);
      }
      if (type === user.auth_type) throw validationFailed({}, MESSAGES.alreadyActive);
      const field = CODE_FIELD[user.auth_type];
      const code = request.body[field];
      if (!code) throw fieldError(field, MESSAGES.codeRequired);
      const codeOk = () =>
        secondFactorOk(ctx.db, ctx.config.secretKey, user, code, 'auth-switch', ctx.clock);
      if (!(await guardedCheck(reply, user, codeOk))) {
        throw fieldError(field, MESSAGES.wrongCode);
      }
      await setAuthType(ctx.db, user.id, type, eventOf(request));
      return {
        status: true,
        msg: MESSAGES.switched,
        auth_type: type,
        profile: await profileNow(user.id),
      } satisfies Reply<'updateAuthentication'>;
    },

    async change2fa(request, reply) {
      const user = requireUser(request);
      if (user.totp_enabled === 1) throw conflict(MESSAGES.alreadySetUp);
      const ok = await guardedCheck(reply, user, () =>
        consumeUserTotp(ctx.db, ctx.config.secretKey, user, request.body.code, ctx.clock),
      );
      if (!ok) throw fieldError('code', MESSAGES.wrongTwoFactor);
      await markAuthenticatorSetUp(ctx.db, user.id, eventOf(request));
      return {
        status: true,
        msg: MESSAGES.setUp,
        profile: await profileNow(user.id),
      } satisfies Reply<'change2fa'>;
    },

    async resendOtp(request, reply) {
      const user = requireUser(request);
      if (user.auth_type !== 'otp') throw validationFailed({}, MESSAGES.otpNotActive);
      const wait = await sentCodes.spend(ctx.db, user.id, ctx.clock().getTime());
      refuseWhenThrottled(reply, wait, 'codeRequests');
      const mail = (code: string) =>
        sendMail(
          ctx.config,
          {
            to: user.email,
            subject: 'Your CryptoSafeLock security code',
            text:
              `Your security code is ${code}. It confirms a change of your sign-in method and ` +
              `is valid for ${OTP_TTL_MINUTES} minutes. If you did not ask for it, change your ` +
              'password.',
          },
          request.log,
          ctx.clock,
        );
      await issueOtp(ctx.db, ctx.config.secretKey, user.id, 'auth-switch', mail, ctx.clock);
      return { status: true, msg: MESSAGES.otpSent } satisfies Reply<'resendOtp'>;
    },

    async changeMpin(request, reply) {
      const user = requireUser(request);
      const body = request.body;
      if (body.spassword !== body.spassword_confirmation) {
        throw fieldError('spassword_confirmation', MESSAGES.pinMismatch);
      }
      const ok = await guardedCheck(reply, user, () =>
        verifySecret(user.password_hash, body.password),
      );
      if (!ok) throw fieldError('password', MESSAGES.wrongPassword);
      await changePin(ctx.db, user.id, body.spassword, eventOf(request));
      return { status: true, msg: MESSAGES.pinChanged } satisfies Reply<'changeMpin'>;
    },

    async changePassword(request, reply) {
      const user = requireUser(request);
      const body = request.body;
      const errors: FieldErrors = {};
      if (!meetsPasswordPolicy(body.newpassword)) {
        errors.newpassword = [AUTH_MESSAGES.passwordPolicy];
      }
      if (body.newpassword !== body.newpassword_confirmation) {
        errors.newpassword_confirmation = [MESSAGES.passwordMismatch];
      }
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      let wrong: FieldErrors = {};
      await guardedCheck(reply, user, async () => {
        const [passwordOk, pinOk] = await Promise.all([
          verifySecret(user.password_hash, body.currentpassword),
          verifySecret(user.pin_hash, body.mpin),
        ]);
        wrong = {
          ...(passwordOk ? {} : { currentpassword: [MESSAGES.wrongPassword] }),
          ...(pinOk ? {} : { mpin: [MESSAGES.wrongPin] }),
        };
        return passwordOk && pinOk;
      });
      if (Object.keys(wrong).length > 0) throw validationFailed(wrong);
      const client = clientOf(request);
      await changePassword(ctx.db, user.id, body.newpassword, request.sessionId, ctx.clock, client);
      await sendAlert(
        ctx.config,
        passwordChangedMail(user, client, ctx.clock),
        request.log,
        ctx.clock,
      );
      return { status: true, msg: MESSAGES.passwordChanged } satisfies Reply<'changePassword'>;
    },
  };
};
