import { resetAuthenticator } from '../domain/security';
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

export const securityCommands: AdminCommand[] = [userReset2fa];
