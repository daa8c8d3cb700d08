import { hash } from 'node:crypto';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { User } from '../../db/schema';
import { newId, randomToken } from '../ids';
import { systemClock, type Clock } from '../time';

export const SESSION_TOKEN_PREFIX = 'sess_';

// One-shot hash (UTF-8 for a string): about half the cost of createHash, on every request
// that carries a session (crypto.hash, Node 20.12 and later).
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface CreatedSession {
  sessionId: string;
  /** Opaque bearer token, returned to the client once; only its hash is stored. */
  token: string;
}

export async function createSession(
  db: Db,
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null } = {},
  clock: Clock = systemClock,
): Promise<CreatedSession> {
  const token = SESSION_TOKEN_PREFIX + randomToken(32);
  const now = clock().toISOString();
  const sessionId = newId('ses');
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      revoked_at: null,
      ip: meta.ip ?? null,
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
    })
    .execute();
  return { sessionId, token };
}

export type SessionLookup =
  | { ok: true; sessionId: string; sessionCreatedAt: string; user: User }
  | { ok: false; reason: 'missing' | 'revoked' | 'expired' | 'lifetime' };

export interface SessionLimits {
  /** Unused this long, a session ends (sliding: every use restarts it). */
  idleMinutes: number;
  /** This long after sign-in a session ends however busy it is, so a stolen token dies too. */
  maxHours: number;
}

/**
 * last_seen_at is written at most this often per session: a write on every authenticated read
 * was the biggest cost of a read. The idle limit is measured from a last_seen_at up to
 * this much older than the last request, so it is counted from there plus this slack: an active
 * session never ends early, an idle one ends at most this much late.
 */
const SEEN_WRITE_EVERY_MS = 60_000;

// Every authenticated request runs this lookup: building and compiling it cost more CPU than
// running it, and asking the database at all most of what is left (profiles).
const lookupSession = prepared(
  { tokenHash: '' },
  (db, { tokenHash }) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select([
        'sessions.id as session_id',
        'sessions.created_at as session_created_at',
        'sessions.last_seen_at as session_last_seen_at',
        'sessions.revoked_at as session_revoked_at',
      ])
      .where('sessions.token_hash', '=', tokenHash),
  // Kept per process until the user or one of their sessions changes (db/ownerChanges.ts).
  { ownerOf: (_params, [row]) => row?.id },
);

type SessionRow = Awaited<ReturnType<typeof lookupSession>>[number];

/** A looked-up row taken apart once: a kept row (frozen) comes back as the same object. */
const sessions = new WeakMap<SessionRow, ReturnType<typeof takeApart>>();

function takeApart(row: SessionRow) {
  const {
    session_id: sessionId,
    session_created_at: createdAt,
    session_last_seen_at: lastSeenAt,
    session_revoked_at: revokedAt,
    ...user
  } = row;
  return {
    sessionId,
    createdAt,
    createdMs: Date.parse(createdAt),
    lastSeenMs: Date.parse(lastSeenAt),
    revokedAt,
    user: Object.freeze(user),
  };
}

function sessionOf(row: SessionRow) {
  let parts = sessions.get(row);
  if (!parts) {
    parts = takeApart(row);
    sessions.set(row, parts);
  }
  return parts;
}

/**
 * Resolves a bearer token to its user (one query for the session and its user). A session idle
 * for longer than `idleMinutes`, or older than `maxHours`, is revoked on the spot; an active one
 * gets its last_seen_at refreshed once it is SEEN_WRITE_EVERY_MS old.
 */
export async function authenticateToken(
  db: Db,
  token: string,
  limits: SessionLimits,
  clock: Clock = systemClock,
): Promise<SessionLookup> {
  if (!token.startsWith(SESSION_TOKEN_PREFIX)) return { ok: false, reason: 'missing' };
  const [row] = await lookupSession(db, { tokenHash: hashToken(token) });
  if (!row) return { ok: false, reason: 'missing' };
  const { sessionId, createdAt, createdMs, lastSeenMs, revokedAt, user } = sessionOf(row);
  if (revokedAt !== null) return { ok: false, reason: 'revoked' };

  const now = clock();
  if (now.getTime() - createdMs > limits.maxHours * 3_600_000) {
    await revokeSession(db, sessionId, clock);
    return { ok: false, reason: 'lifetime' };
  }
  const sinceSeenMs = now.getTime() - lastSeenMs;
  if (sinceSeenMs > limits.idleMinutes * 60_000 + SEEN_WRITE_EVERY_MS) {
    await revokeSession(db, sessionId, clock);
    return { ok: false, reason: 'expired' };
  }
  if (sinceSeenMs >= SEEN_WRITE_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('id', '=', sessionId)
      .execute();
  }
  return { ok: true, sessionId, sessionCreatedAt: createdAt, user };
}

export async function revokeSession(db: Db, sessionId: string, clock: Clock = systemClock) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: clock().toISOString() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** E.g. after a password change: sign the user out everywhere (optionally but one session). */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  exceptSessionId?: string,
  clock: Clock = systemClock,
) {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: clock().toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
