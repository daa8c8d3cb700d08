import type { AuthType } from '../db/schema';
import { isIP } from 'node:net';
import { clearAddress, clearLock } from '../domain/account/lockout';
import { singleArgument, UsageError, userNamed, type AdminCommand } from './command';

const AUTH_TYPES: readonly AuthType[] = ['mpin', 'authenticator', 'otp'];

function isAuthType(value: string): value is AuthType {
  return (AUTH_TYPES as readonly string[]).includes(value);
}

/**
 * Account recovery: a user who lost the pin or the authenticator is moved to e-mailed OTP (the
 * only way an account gets auth_type otp), or back to a method they still have.
 */
const userAuthType: AdminCommand = {
  name: 'user auth-type',
  usage: 'user auth-type <username> <mpin|authenticator|otp>',
  description: "Set a user's second factor (e.g. otp for a user who lost the pin or phone).",
  async run(args, { db }, io) {
    const [username, authType, extra] = args;
    if (!username || !authType || extra !== undefined) throw new UsageError('Wrong arguments.');
    if (!isAuthType(authType)) {
      throw new UsageError(`Unknown second factor '${authType}'.`);
    }
    const user = await userNamed(db, io, username);
    if (!user) return 1;
    if (authType === 'authenticator' && user.totp_enabled !== 1) {
      io.out(`${user.username} has not set up an authenticator; choose mpin or otp.`);
      return 1;
    }
    await db.updateTable('users').set({ auth_type: authType }).where('id', '=', user.id).execute();
    io.out(`${user.username} now signs in with ${authType} (was ${user.auth_type}).`);
    return 0;
  },
};

const userUnlock: AdminCommand = {
  name: 'user unlock',
  usage: 'user unlock <username>',
  description:
    "Lift the sign-in lock after repeated failures and reset the account's failure count and" +
    ' its 429 windows from every address.',
  async run(args, { db }, io) {
    const user = await userNamed(db, io, singleArgument(args));
    if (!user) return 1;
    await clearLock(db, user.id);
    const wasLocked = user.locked_until !== null && Date.parse(user.locked_until) > Date.now();
    io.out(
      wasLocked
        ? `${user.username} is unlocked.`
        : `${user.username} was not locked; failed attempts reset.`,
    );
    return 0;
  },
};

/**
 * An office or NAT whose address used up its sign-in budget (LOGIN_IP_MAX_FAILURES): once the
 * guessing is dealt with, its users need not wait for the window to pass.
 */
const ipUnlock: AdminCommand = {
  name: 'ip unlock',
  usage: 'ip unlock <address>',
  description:
    "Reset a client address's sign-in 429 windows (its own and those on each account); an IPv6" +
    ' address counts as its /64.',
  async run(args, { db }, io) {
    const ip = singleArgument(args);
    if (isIP(ip) === 0) throw new UsageError(`'${ip}' is not an IPv4 or IPv6 address.`);
    const address = await clearAddress(db, ip);
    io.out(`Sign-in failures from ${address} are forgotten.`);
    return 0;
  },
};

export const accessCommands: AdminCommand[] = [userAuthType, userUnlock, ipUnlock];
