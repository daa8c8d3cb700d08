import Bowser from 'bowser';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { AuthType } from '../../db/schema';
import type { components } from '../../generated/portal.gen';
import { newId } from '../ids';
import { systemClock, type Clock } from '../time';
import { pageEnvelope, type Page } from '../../../../src/shared/paging';

// The account's security events: what the header bell lists and the dashboard's last login
// reads. Each is recorded by the code that makes the change (inside its transaction when it has
// one), so the bell shows what happened, never samples.

export type AccountEventKind = components['schemas']['AccountEventKind'];
type AccountEventView = components['schemas']['AccountEvent'];

/** What a kind needs besides its time and client (names shown in the text, counts, ...). */
export interface AccountEventDetails {
  /** sign_in_failures: the failed attempts in the burst. */
  count?: number;
  /** locked: how long the lock lasts. */
  minutes?: number;
  /** auth_type_changed: the method now active. */
  auth_type?: AuthType;
  /** api_key_created / api_key_revoked: the key's name. */
  key_name?: string;
  /** api_key_*, app_created, webhook_secret: the app's name. */
  app_name?: string;
  /** archive_ready: the archive to download. */
  archive_id?: string;
}

/** The request that caused an event. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface RecordOptions {
  /** The request's client, when a request caused the event. */
  client?: ClientInfo;
  /** sign_in: the session the sign-in opened. */
  sessionId?: string;
  clock?: Clock;
  /** The event's time when the caller already has it (ISO); else the clock's now. */
  at?: string;
}

/**
 * Records one event of `userId`. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does (e.g. a new webhook secret: kind `webhook_secret`,
 * details `{ app_name }`).
 */
export async function recordAccountEvent(
  db: Db,
  userId: string,
  kind: AccountEventKind,
  details: AccountEventDetails = {},
  options: RecordOptions = {},
): Promise<void> {
  await db
    .insertInto('account_events')
    .values({
      id: newId('evt'),
      user_id: userId,
      kind,
      created_at: options.at ?? (options.clock ?? systemClock)().toISOString(),
      read_at: null,
      session_id: options.sessionId ?? null,
      ip: options.client?.ip?.slice(0, 64) ?? null,
      user_agent: options.client?.userAgent?.slice(0, 512) ?? null,
      details: JSON.stringify(details),
    })
    .execute();
}

// ---------------------------------------------------------------------------------- devices

/** The operating system as people name it: 'Windows 10', 'Android 14', 'macOS', 'Linux'. */
function osName(os: Bowser.Parser.OSDetails): string | null {
  if (!os.name) return null;
  if (os.name === 'Windows' && os.versionName) return `Windows ${os.versionName}`;
  // Phones move their major version often; desktop macOS freezes it in the user agent.
  const major = os.version?.split('.')[0];
  if ((os.name === 'Android' || os.name === 'iOS') && major) return `${os.name} ${major}`;
  return os.name;
}

/** Browser and operating system from a user agent, or null when it names neither. */
export function deviceParts(userAgent: string | null): { browser: string; os: string } | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name || null;
  const os = osName(parsed.os);
  if (!browser && !os) return null;
  return { browser: browser ?? 'an unknown browser', os: os ?? 'an unknown system' };
}

/** 'Chrome on Windows 10', or null for an unknown user agent. */
export function deviceOf(userAgent: string | null): string | null {
  const parts = deviceParts(userAgent);
  return parts ? `${parts.browser} on ${parts.os}` : null;
}

// ---------------------------------------------------------------------------------- texts

const METHOD_NAMES: Record<AuthType, string> = {
  mpin: '4 Digit Pin',
  authenticator: 'Authenticator App',
  otp: 'E-mail OTP',
};

/** ' from 203.0.113.9 (Chrome on Windows 10)', or '' when the request is unknown. */
function whence(ip: string | null, userAgent: string | null): string {
  const device = deviceOf(userAgent);
  if (ip && device) return ` from ${ip} (${device})`;
  if (ip) return ` from ${ip}`;
  return device ? ` from ${device}` : '';
}

/** The bell's title and sentence of an event. */
export function describeEvent(event: {
  kind: AccountEventKind;
  ip: string | null;
  user_agent: string | null;
  details: AccountEventDetails;
}): { title: string; text: string } {
  const { details: d, ip, user_agent: ua } = event;
  const from = whence(ip, ua);
  const app = d.app_name ?? 'an app';
  switch (event.kind) {
    case 'sign_in': {
      const parts = deviceParts(ua);
      const device = parts ? `${parts.os} using ${parts.browser}` : 'an unknown device';
      // The spec's sample sentence, with the address added.
      return {
        title: 'Account Login',
        text: `A login to your account from ${device}${ip ? `, address ${ip}` : ''}.`,
      };
    }
    case 'sign_in_failures':
      return {
        title: 'Failed Sign-in Attempts',
        text: `${d.count ?? 'Several'} failed sign-in attempts on your account, the last${from || ' from an unknown address'}.`,
      };
    case 'locked':
      return {
        title: 'Account Locked',
        text: `Your account was locked for ${d.minutes ?? 'some'} minutes after too many failed sign-in attempts, the last${from || ' from an unknown address'}.`,
      };
    case 'password_changed':
      return { title: 'Password Changed', text: `Your account password was changed${from}.` };
    case 'pin_changed':
      return { title: 'Pin Changed', text: `Your 4 digit pin was changed${from}.` };
    case 'auth_type_changed':
      return {
        title: 'Security Method Changed',
        text: `Your security method is now ${d.auth_type ? METHOD_NAMES[d.auth_type] : 'changed'}${from}.`,
      };
    case 'authenticator_set_up':
      return {
        title: 'Authenticator Set Up',
        text: `An authenticator app was set up for your account${from}.`,
      };
    case 'api_key_created':
      return {
        title: 'New API Key',
        text: `The API key '${d.key_name ?? ''}' was created for ${app}${from}.`,
      };
    case 'api_key_revoked':
      return {
        title: 'API Key Revoked',
        text: `The API key '${d.key_name ?? ''}' of ${app} was revoked${from}.`,
      };
    case 'app_created':
      return { title: 'New App', text: `The app ${app} was created${from}.` };
    case 'webhook_secret':
      return {
        title: 'New Webhook Secret',
        text: `A new webhook signing secret was issued for ${app}${from}.`,
      };
    case 'archive_ready':
      return {
        title: 'Account Archive Ready',
        text: 'The archive of your account is ready: download it within a day.',
      };
    case 'archive_failed':
      return {
        title: 'Account Archive Failed',
        text: 'The archive of your account could not be prepared: use Download again.',
      };
  }
}

// ---------------------------------------------------------------------------------- the bell

export const EVENTS_PER_PAGE = 20;

/** One page of the user's events, newest first, and how many are unread. */
export async function listAccountEvents(
  db: Db,
  userId: string,
  page: number,
): Promise<{ page: Page<AccountEventView>; unread: number }> {
  const [counts, rows] = await Promise.all([
    db
      .selectFrom('account_events')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('id').filterWhere('read_at', 'is', null).as('unread'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('account_events')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(EVENTS_PER_PAGE)
      .offset((page - 1) * EVENTS_PER_PAGE)
      .execute(),
  ]);
  const views = rows.map((row): AccountEventView => {
    const details = JSON.parse(row.details) as AccountEventDetails;
    return {
      id: row.id,
      kind: row.kind,
      ...describeEvent({ kind: row.kind, ip: row.ip, user_agent: row.user_agent, details }),
      created_at: row.created_at,
      read: row.read_at !== null,
      ip: row.ip,
      device: deviceOf(row.user_agent),
      ...(details.archive_id === undefined ? {} : { archive_id: details.archive_id }),
    };
  });
  return {
    page: pageEnvelope(
      views,
      Number(counts.total),
      page,
      EVENTS_PER_PAGE,
      '/api/notifications?page=1',
    ),
    unread: Number(counts.unread),
  };
}

/**
 * Read All: marks the user's unread events read, those up to the event `untilId` when given (the
 * newest the panel showed; an unknown id marks nothing). Answers how many it marked.
 */
export async function markAccountEventsRead(
  db: Db,
  userId: string,
  untilId: string | undefined,
  clock: Clock = systemClock,
): Promise<number> {
  let query = db
    .updateTable('account_events')
    .set({ read_at: clock().toISOString() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (untilId !== undefined) {
    const until = await db
      .selectFrom('account_events')
      .select('created_at')
      .where('id', '=', untilId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!until) return 0;
    query = query.where('created_at', '<=', until.created_at);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---------------------------------------------------------------------------------- sign-ins

/** Is this sign-in's device or address one the account has not signed in from before? */
export interface SignInNovelty {
  newDevice: boolean;
  newAddress: boolean;
}

// How far back a sign-in counts as "seen before" (the latest ones, newest first).
const KNOWN_SIGN_INS = 500;

/**
 * Records a completed sign-in (in the transaction that opens its session) and answers whether it
 * came from a new device (browser and system) or a new address; null on the account's very first
 * sign-in, which has nothing to compare with.
 */
export async function recordSignInEvent(
  db: Db,
  userId: string,
  sessionId: string,
  client: ClientInfo,
  clock: Clock = systemClock,
): Promise<SignInNovelty | null> {
  const earlier = await db
    .selectFrom('account_events')
    .select(['ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'sign_in')
    .orderBy('created_at', 'desc')
    .limit(KNOWN_SIGN_INS)
    .execute();
  await recordAccountEvent(db, userId, 'sign_in', {}, { client, sessionId, clock });
  if (earlier.length === 0) return null;
  const device = deviceOf(client.userAgent);
  return {
    newDevice: !earlier.some((row) => deviceOf(row.user_agent) === device),
    newAddress: !earlier.some((row) => row.ip === client.ip),
  };
}

/** Failures in a row that make a burst worth an entry (the lock has its own). */
export const FAILED_SIGN_IN_BURST = 3;

/**
 * After a failed sign-in step of an existing account: an entry when the account was just locked,
 * or when its consecutive failures reach FAILED_SIGN_IN_BURST (one entry per burst: a sign-in
 * or a lock starts the count again).
 */
export async function recordSignInFailure(
  db: Db,
  userId: string,
  lockedUntil: Date | null,
  client: ClientInfo,
  clock: Clock = systemClock,
): Promise<void> {
  if (lockedUntil) {
    const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - clock().getTime()) / 60_000));
    await recordAccountEvent(db, userId, 'locked', { minutes }, { client, clock });
    return;
  }
  const user = await db
    .selectFrom('users')
    .select('failed_logins')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (user?.failed_logins === FAILED_SIGN_IN_BURST) {
    await recordAccountEvent(
      db,
      userId,
      'sign_in_failures',
      { count: FAILED_SIGN_IN_BURST },
      { client, clock },
    );
  }
}

/** The dashboard's "last login": the sign-in before the current session's own. */
export interface PreviousSignIn {
  at: string;
  ip: string | null;
  device: string | null;
}

/** A session as the dashboard needs it: its id and when it was opened. */
export interface SessionRef {
  id: string;
  createdAt: string;
}

/**
 * The latest sign-in of `userId` other than the one that opened `session`, and not after it:
 * what the dashboard shows as the last login (null when there is none). The session comes with
 * its opening time, which the authentication already read (one query less).
 */
export async function previousSignIn(
  db: Db,
  userId: string,
  session: SessionRef | null,
  now: Date,
): Promise<PreviousSignIn | null> {
  const until = session?.createdAt ?? now.toISOString();
  const [row] = session
    ? await signInBeforeSession(db, { userId, until, sessionId: session.id })
    : await signInBefore(db, { userId, until });
  return row ? { at: row.created_at, ip: row.ip, device: deviceOf(row.user_agent) } : null;
}

// On every dashboard read: prepared, one per shape.
function signInsBefore(db: Db, userId: string, until: string) {
  return db
    .selectFrom('account_events')
    .select(['created_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'sign_in')
    .where('created_at', '<=', until)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
}

const signInBefore = prepared({ userId: '', until: '' }, (db, p) =>
  signInsBefore(db, p.userId, p.until),
);

// Kept: its times are the session's, which do not move (the one without a session reads up to now).
const signInBeforeSession = prepared(
  { userId: '', until: '', sessionId: '' },
  (db, p) =>
    signInsBefore(db, p.userId, p.until).where((eb) =>
      eb.or([eb('session_id', 'is', null), eb('session_id', '!=', p.sessionId)]),
    ),
  { ownerOf: (p) => p.userId },
);
