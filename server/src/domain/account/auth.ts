import type { Db } from '../../db/connection';
import type { AuthType, User } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { recordSignInEvent, type ClientInfo, type SignInNovelty } from './events';
import { InvalidError, type FieldErrors } from '../errors';
import { newId } from '../ids';
import { consumeOtp, type OtpPurpose } from './otp';
import { hashSecret, verifySecret } from './passwords';
import { createSession } from './sessions';
import { systemClock, type Clock } from '../time';
import { consumeUserTotp } from './totp';
import { NAME_REQUIRED, PASSWORD_RULES } from '../../../../src/shared/account';
import { FACTOR_REQUIRED } from '../../../../src/shared/auth';
import { codedMessages } from '../messageCodes';

type Registration = components['schemas']['RegisterRequest'];

// Sign-up and sign-in rules that are not HTTP: who an identifier names, what a valid
// registration is, and the messages the access screens show.

export const AUTH_MESSAGES = codedMessages('auth', {
  registered: 'Registration Successfully, please login.',
  usernameAvailable: 'Username available.',
  usernameTaken: 'Username already taken.',
  emailTaken: 'Email already registered.',
  sponsorUnknown: 'Sponsor not found.',
  countryUnknown: 'Please select a country from the list.',
  nameLetters: 'Name may only contain letters and spaces.',
  termsRequired: 'Please Accept Terms & Condition',
  passwordPolicy:
    'Password must have at least 8 characters, one lowercase letter, one uppercase letter, one number and one special character.',
  badCredentials: 'Invalid username or password.',
  stepUsed: 'This sign-in step was already used. Please sign in again.',
  signedIn: 'Login Successfully',
  loggedOut: 'Logout Successfully',
} as const);

/** The second step's words: its prompt and its refusal, per kind of second factor. */
const FACTOR_MESSAGES = codedMessages('factor', {
  mpinWrong: 'The 4 Digit Pin is incorrect.',
  mpinPrompt: 'Enter your 4 Digit Pin to continue.',
  authenticatorWrong: 'The Two-Factor Authentication Code is incorrect.',
  authenticatorPrompt: 'Enter the code from your authenticator app to continue.',
  otpWrong: 'The OTP is incorrect or has expired.',
  otpPrompt: 'We have e-mailed you a 4 digit OTP. Enter it to continue.',
});

/** The step-two field, its label (the spec's required messages) and the wrong-code text. */
export const SECOND_FACTOR: Record<
  AuthType,
  { field: 'mpin' | 'authenticator' | 'otp'; required: string; wrong: string; prompt: string }
> = {
  mpin: {
    field: 'mpin',
    required: FACTOR_REQUIRED.mpin,
    wrong: FACTOR_MESSAGES.mpinWrong,
    prompt: FACTOR_MESSAGES.mpinPrompt,
  },
  authenticator: {
    field: 'authenticator',
    required: FACTOR_REQUIRED.authenticator,
    wrong: FACTOR_MESSAGES.authenticatorWrong,
    prompt: FACTOR_MESSAGES.authenticatorPrompt,
  },
  otp: {
    field: 'otp',
    required: FACTOR_REQUIRED.otp,
    wrong: FACTOR_MESSAGES.otpWrong,
    prompt: FACTOR_MESSAGES.otpPrompt,
  },
};

export function meetsPasswordPolicy(password: string): boolean {
  return PASSWORD_RULES.every((rule) => rule.test(password));
}

/** Case-insensitive: 'Demo' and 'demo' are the same account (unique indexes on lower()). */
export function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

/** The account a sign-in identifier names: its username or its e-mail address. */
export function findUserByLogin(db: Db, identifier: string): Promise<User | undefined> {
  const value = identifier.trim().toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['username']), '=', value),
        eb(eb.fn('lower', ['email']), '=', value),
      ]),
    )
    .executeTakeFirst();
}

export function identifierMatches(user: User, identifier: string): boolean {
  const value = identifier.trim().toLowerCase();
  return user.username.toLowerCase() === value || user.email.toLowerCase() === value;
}

// Verified against when the name matches no account, so an unknown name costs the same argon2
// time as a wrong password (timing does not tell whether an account exists).
let dummyHash: Promise<string> | undefined;

/** Checks a password against the user's hash, or burns the same time when there is no user. */
export async function checkPassword(user: User | undefined, password: string): Promise<boolean> {
  if (!user) {
    dummyHash ??= hashSecret('not-a-real-password-0');
    await verifySecret(await dummyHash, password);
    return false;
  }
  return verifySecret(user.password_hash, password);
}

/** Starts the dummy hash early so the first unknown name is not slower than the rest. */
export function warmUpPasswordCheck(): void {
  dummyHash ??= hashSecret('not-a-real-password-0');
}

/**
 * Every rule the schema cannot express: letters-only name, terms, the password checklist,
 * unique username and e-mail (case-insensitive), an existing sponsor and country.
 */
async function registrationErrors(db: Db, body: Registration): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (body.name.trim() === '') add('name', NAME_REQUIRED);
  else if (!/^[A-Za-z ]+$/.test(body.name)) add('name', AUTH_MESSAGES.nameLetters);
  if (!meetsPasswordPolicy(body.password)) add('password', AUTH_MESSAGES.passwordPolicy);
  if (body.is_checked !== 1) add('is_checked', AUTH_MESSAGES.termsRequired);

  const [username, email, sponsor, country] = await Promise.all([
    findUserByUsername(db, body.username),
    db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', body.email.toLowerCase()))
      .executeTakeFirst(),
    body.sponsor_id ? findUserByUsername(db, body.sponsor_id) : Promise.resolve(undefined),
    db.selectFrom('countries').select('id').where('id', '=', body.country).executeTakeFirst(),
  ]);
  if (username) add('username', AUTH_MESSAGES.usernameTaken);
  if (email) add('email', AUTH_MESSAGES.emailTaken);
  if (body.sponsor_id && !sponsor) add('sponsor_id', AUTH_MESSAGES.sponsorUnknown);
  if (!country) add('country', AUTH_MESSAGES.countryUnknown);
  return errors;
}

/** What a new account starts without: the profile screen and the first sign-in fill these. */
export const NEW_ACCOUNT_BLANKS = {
  gender: null,
  dob: null,
  landmark: null,
  city: null,
  state: null,
  pincode: null,
  address_line1: null,
  address_line2: null,
  avatar: null,
  last_login_at: null,
  previous_login_at: null,
} as const;

/** Inserts the account (auth_type mpin); the caller has checked registrationErrors. */
async function createAccount(
  db: Db,
  body: Registration,
  clock: Clock = systemClock,
): Promise<string> {
  const [passwordHash, pinHash, sponsor] = await Promise.all([
    hashSecret(body.password),
    hashSecret(body.spassword),
    body.sponsor_id ? findUserByUsername(db, body.sponsor_id) : Promise.resolve(undefined),
  ]);
  const id = newId('usr');
  await db
    .insertInto('users')
    .values({
      id,
      username: body.username,
      email: body.email,
      name: body.name.trim().replace(/\s+/g, ' '),
      password_hash: passwordHash,
      pin_hash: pinHash,
      auth_type: 'mpin',
      sponsor_id: sponsor?.id ?? null,
      ...NEW_ACCOUNT_BLANKS,
      phone: body.phone,
      country: body.country,
      created_at: clock().toISOString(),
    })
    .execute();
  return id;
}

/**
 * Records a completed sign-in before its session is created: last_login_at becomes the start of
 * the previous session (what the dashboard shows as 'last login'; null on the first sign-in) and
 * previous_login_at the value it replaces.
 */
async function recordSignIn(db: Db, user: User): Promise<void> {
  const previous = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('user_id', '=', user.id)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  await db
    .updateTable('users')
    .set({
      last_login_at: previous?.created_at ?? null,
      previous_login_at: user.last_login_at,
    })
    .where('id', '=', user.id)
    .execute();
}

/** Signs a new account up (auth_type mpin) once every registration rule holds. */
export async function register(db: Db, body: Registration, clock: Clock = systemClock) {
  const errors = await registrationErrors(db, body);
  if (Object.keys(errors).length > 0) throw new InvalidError(undefined, errors);
  try {
    await createAccount(db, body, clock);
  } catch (error) {
    // Two sign-ups racing for one username or e-mail: the unique index decides, and the
    // loser gets the same field message as a sequential duplicate.
    const raced = await registrationErrors(db, body);
    if (Object.keys(raced).length > 0) throw new InvalidError(undefined, raced);
    throw error;
  }
}

/** The countries of the sign-up form, by name. */
export function listCountries(db: Db) {
  return db
    .selectFrom('countries')
    .select(['id', 'name', 'calling_code'])
    .orderBy('name')
    .execute();
}

/**
 * The code of the user's active second factor: the pin, or a single-use authenticator or
 * e-mailed code (`purpose` names what the e-mailed code was sent for).
 */
export async function secondFactorOk(
  db: Db,
  serverKey: string,
  user: User,
  code: string,
  purpose: OtpPurpose,
  clock: Clock = systemClock,
): Promise<boolean> {
  switch (user.auth_type) {
    case 'mpin':
      return /^\d{4}$/.test(code) ? verifySecret(user.pin_hash, code) : false;
    case 'authenticator':
      return consumeUserTotp(db, serverKey, user, code, clock);
    case 'otp':
      return consumeOtp(db, serverKey, user.id, purpose, code, clock);
  }
}

/** Whether the sign-in step token `stepId` has been used for a sign-in already. */
export async function isStepSpent(db: Db, stepId: string): Promise<boolean> {
  const spent = await db
    .selectFrom('spent_step_tokens')
    .select('id')
    .where('id', '=', stepId)
    .executeTakeFirst();
  return spent !== undefined;
}

/** Thrown inside the sign-in transaction so that the claimed step token is rolled back. */
class WrongCode extends Error {}

/**
 * Sign-in step two once the password is checked: spends the step token `stepId`, checks the
 * second factor's code and opens a session. A wrong code leaves the step token unspent.
 */
export async function completeSignIn(
  db: Db,
  serverKey: string,
  user: User,
  stepId: string,
  code: string,
  client: ClientInfo,
  clock: Clock = systemClock,
): Promise<
  | { ok: true; token: string; novelty: SignInNovelty | null }
  | { ok: false; reason: 'spent' | 'wrongCode' }
> {
  return db
    .transaction()
    .execute(async (trx) => {
      // Claim the step token first: a second login with it fails on the primary key.
      const claimed = await trx
        .insertInto('spent_step_tokens')
        .values({ id: stepId, spent_at: clock().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (claimed.numInsertedOrUpdatedRows !== 1n) return { ok: false, reason: 'spent' } as const;
      if (!(await secondFactorOk(trx, serverKey, user, code, 'login', clock))) {
        throw new WrongCode();
      }
      await recordSignIn(trx, user);
      // One instant for the session and its event, so the dashboard can tell them apart by it.
      const at = clock();
      const sameInstant = () => at;
      const session = await createSession(trx, user.id, client, sameInstant);
      const novelty = await recordSignInEvent(trx, user.id, session.sessionId, client, sameInstant);
      return { ok: true, token: session.token, novelty } as const;
    })
    .catch((error: unknown) => {
      if (error instanceof WrongCode) return { ok: false, reason: 'wrongCode' } as const;
      throw error;
    });
}
