import type { Db } from '../../db/connection';
import type { AuthType, User } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { recordAccountEvent, type ClientInfo, type RecordOptions } from './events';
import { hashSecret } from './passwords';
import { revokeUserSessions } from './sessions';
import { systemClock, type Clock } from '../time';
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpUri } from './totp';

// Rules of the account-security slice: the authenticator (TOTP) setup, the active second factor,
// pin and password changes.

export type AuthenticatorUser = Pick<
  User,
  'id' | 'username' | 'totp_enabled' | 'totp_secret_enc' | 'totp_last_step'
>;

/**
 * The otpauth URL the user scans while the authenticator is not set up (null once it is). The
 * setup starts with the first call: a secret is created and kept, sealed, until confirmed, so the
 * QR stays the same across visits; after a reset the next setup gets a new one.
 */
export async function authenticatorSetupUrl(
  db: Db,
  serverKey: string,
  user: AuthenticatorUser,
): Promise<string | null> {
  if (user.totp_enabled === 1) return null;
  let sealed = user.totp_secret_enc;
  let secret = sealed ? openTotpSecret(serverKey, user.id, sealed) : null;
  if (!secret) {
    // None yet, or sealed with a key the server no longer has: a pending setup can restart.
    secret = newTotpSecret();
    const fresh = sealTotpSecret(serverKey, user.id, secret);
    await db
      .updateTable('users')
      .set({ totp_secret_enc: fresh, totp_last_step: null })
      .where('id', '=', user.id)
      .where('totp_enabled', '=', 0)
      .where((eb) =>
        sealed === null ? eb('totp_secret_enc', 'is', null) : eb('totp_secret_enc', '=', sealed),
      )
      .execute();
    // A concurrent request may have started the setup first: show the secret that was stored.
    const stored = await db
      .selectFrom('users')
      .select('totp_secret_enc')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    sealed = stored.totp_secret_enc;
    secret = sealed ? openTotpSecret(serverKey, user.id, sealed) : null;
    if (!secret) return null;
  }
  return totpUri(secret, user.username);
}

export async function markAuthenticatorSetUp(
  db: Db,
  userId: string,
  event: RecordOptions = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ totp_enabled: 1 }).where('id', '=', userId).execute();
    await recordAccountEvent(trx, userId, 'authenticator_set_up', {}, event);
  });
}

/**
 * Operator reset (lost phone): forgets the secret so the next setup starts with a new one. An
 * account whose active method was the authenticator moves to the e-mailed OTP, the recovery
 * method. Returns the resulting auth type, or null for an unknown user.
 */
export async function resetAuthenticator(db: Db, userId: string): Promise<AuthType | null> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select('auth_type')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return null;
    const authType: AuthType = user.auth_type === 'authenticator' ? 'otp' : user.auth_type;
    await trx
      .updateTable('users')
      .set({ totp_enabled: 0, totp_secret_enc: null, totp_last_step: null, auth_type: authType })
      .where('id', '=', userId)
      .execute();
    return authType;
  });
}

export async function setAuthType(
  db: Db,
  userId: string,
  authType: AuthType,
  event: RecordOptions = {},
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ auth_type: authType }).where('id', '=', userId).execute();
    await recordAccountEvent(trx, userId, 'auth_type_changed', { auth_type: authType }, event);
  });
}

export async function changePin(
  db: Db,
  userId: string,
  pin: string,
  event: RecordOptions = {},
): Promise<void> {
  const pinHash = await hashSecret(pin);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ pin_hash: pinHash }).where('id', '=', userId).execute();
    await recordAccountEvent(trx, userId, 'pin_changed', {}, event);
  });
}

/**
 * New password hash, and every session of the user but `keepSessionId` ends; the bell gets a
 * password_changed event from `client`.
 */
export async function changePassword(
  db: Db,
  userId: string,
  password: string,
  keepSessionId: string | null,
  clock: Clock = systemClock,
  client?: ClientInfo,
): Promise<void> {
  const passwordHash = await hashSecret(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute();
    await revokeUserSessions(trx, userId, keepSessionId ?? undefined, clock);
    await recordAccountEvent(trx, userId, 'password_changed', {}, { client, clock });
  });
}

/**
 * The Profile of openapi.yaml for a user row: image_2fa carries the setup URL only while the
 * authenticator is not set up, so the secret never reaches a client afterwards.
 */
export async function accountProfile(
  db: Db,
  serverKey: string,
  user: User,
): Promise<components['schemas']['Profile']> {
  return {
    name: user.name,
    email: user.email,
    username: user.username,
    gender: user.gender,
    dob: user.dob,
    phone: user.phone ?? '',
    country: user.country ?? '',
    landmark: user.landmark,
    city: user.city,
    state: user.state,
    pincode: user.pincode,
    address_line1: user.address_line1,
    address_line2: user.address_line2,
    avatar: user.avatar,
    status_kyc: user.status_kyc,
    is_profile_complete: user.is_profile_complete,
    auth_type: user.auth_type,
    image_2fa: await authenticatorSetupUrl(db, serverKey, user),
  };
}

/** The account `userId` names, or undefined when there is none (any more). */
export function findUser(db: Db, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The user row as it is now (after a change made by this request). */
export function reloadUser(db: Db, userId: string): Promise<User> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
}
