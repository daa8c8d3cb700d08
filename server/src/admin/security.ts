import { RESET_CODE_TTL_MINUTES, issueResetCode } from '../domain/account/recovery';
import { resetAuthenticator } from '../domain/account/security';
import { singleArgument, userNamed, type AdminCommand } from './command';

/**
 * A user who lost the phone: the authenticator is forgotten, so the next visit to
 * Authentication starts a new setup with a new secret.
 */
const userReset2fa: AdminCommand = {
  name: 'user reset-2fa',
  usage: 'user reset-2fa <username>',
  description:
    "Forget a user's authenticator app (lost phone); if it was the active method, OTP takes over.",
  async run(args, { db }, io) {
    const user = await userNamed(db, io, singleArgument(args));
    if (!user) return 1;
    const authType = await resetAuthenticator(db, user.id);
    const moved =
      authType && authType !== user.auth_type ? ` It now signs in with ${authType}.` : '';
    io.out(`${user.username}'s authenticator is reset; the next setup gets a new secret.${moved}`);
    return 0;
  },
};

/**
 * A user who cannot recover alone (the reset e-mail does not arrive): staff check who is asking,
 * then hand over this code, which works like the e-mailed one (single use, the newest only, the
 * pin still required). Printed, not mailed, so it helps when the mailbox is the problem.
 */
const userResetPassword: AdminCommand = {
  name: 'user reset-password',
  usage: 'user reset-password <username>',
  description: `Print a one-time password reset code for a user (valid ${RESET_CODE_TTL_MINUTES} minutes; the user also needs the pin).`,
  async run(args, { db, config }, io) {
    const user = await userNamed(db, io, singleArgument(args));
    if (!user) return 1;
    let issued = '';
    await issueResetCode(db, config.secretKey, user.id, async (code) => {
      issued = code;
    });
    io.out(`Reset code for ${user.username}: ${issued}`);
    io.out(
      `Valid ${RESET_CODE_TTL_MINUTES} minutes, once; any earlier code stops working. Give it only to the account holder: they enter it on the Reset Password screen (/reset) with their username, 4 Digit Pin and a new password.`,
    );
    return 0;
  },
};

export const securityCommands: AdminCommand[] = [userReset2fa, userResetPassword];
