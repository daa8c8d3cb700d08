import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../../db/schema';
import { deviceOf, type ClientInfo, type SignInNovelty } from './events';
import { sendMail, type MailConfig, type MailMessage } from '../mailer';
import { systemClock, type Clock } from '../time';

// The security alerts that go by e-mail as well as to the bell: a sign-in from a new device or
// address, and a password change.

function whereFrom(client: ClientInfo): string {
  const device = deviceOf(client.userAgent) ?? 'an unknown device';
  return `${device}, address ${client.ip ?? 'unknown'}`;
}

const IF_NOT_YOU =
  'If this was not you, change your password and your 4 digit pin at once, and check the ' +
  "account's API keys.";

export function newSignInMail(
  user: Pick<User, 'email' | 'username'>,
  client: ClientInfo,
  novelty: SignInNovelty,
  clock: Clock = systemClock,
): MailMessage {
  const what = [novelty.newDevice ? 'device' : null, novelty.newAddress ? 'address' : null]
    .filter(Boolean)
    .join(' and ');
  return {
    to: user.email,
    subject: 'New sign-in to your CryptoSafeLock account',
    text:
      `Your CryptoSafeLock account ${user.username} was signed in to on ` +
      `${clock().toUTCString()} from ${whereFrom(client)}. This ${what} had not signed in to ` +
      `your account before. ${IF_NOT_YOU}`,
  };
}

export function passwordChangedMail(
  user: Pick<User, 'email' | 'username'>,
  client: ClientInfo,
  clock: Clock = systemClock,
): MailMessage {
  return {
    to: user.email,
    subject: 'Your CryptoSafeLock password was changed',
    text:
      `The password of your CryptoSafeLock account ${user.username} was changed on ` +
      `${clock().toUTCString()} from ${whereFrom(client)}. Your other sessions were signed ` +
      `out. ${IF_NOT_YOU}`,
  };
}

/**
 * A setting that steers money changed (a payout address, the IP whitelist): sweeps to the new
 * address and the app's withdrawals wait until `until`.
 */
export function settingsHeldMail(
  user: Pick<User, 'email' | 'username'>,
  change: { appName: string; what: 'payout address' | 'IP whitelist'; until: string },
  client: ClientInfo,
  clock: Clock = systemClock,
): MailMessage {
  return {
    to: user.email,
    subject: `The ${change.what} of ${change.appName} was changed`,
    text:
      `The ${change.what} of your app ${change.appName} (account ${user.username}) was changed ` +
      `on ${clock().toUTCString()} from ${whereFrom(client)}. For your safety, sweeps to a new ` +
      `payout address and the app's withdrawals are held until ` +
      `${new Date(change.until).toUTCString()}. ${IF_NOT_YOU}`,
  };
}

/**
 * Sends an alert without failing the request that caused it: the change is done, and an SMTP
 * outage must not turn a sign-in or a password change into an error (sendMail logs it).
 */
export async function sendAlert(
  config: MailConfig,
  message: MailMessage,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
): Promise<void> {
  try {
    await sendMail(config, message, log, clock);
  } catch (err) {
    log.warn({ err, subject: message.subject }, 'Security alert not sent');
  }
}
