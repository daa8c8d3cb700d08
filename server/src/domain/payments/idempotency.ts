import { createHash } from 'node:crypto';
import type { Db } from '../../db/connection';
import { ConflictError, fieldInvalid } from '../errors';

// Idempotency keys, as Stripe and the payout APIs of the big gateways use them: a client that
// retries a request (a timeout, a double click) with the same `Idempotency-Key` gets the first
// answer instead of a second purchase. The key row is claimed by one INSERT … ON CONFLICT DO
// NOTHING, so of two concurrent first uses exactly one runs, on either engine and across
// processes (PostgreSQL makes the second insert wait for the first's commit, then skip).
//
// Our choices: only a completed operation's answer is kept (24 h). A refusal (4xx) or a failure
// changed nothing, so it releases the key and a retry runs afresh, seeing e.g. a topped-up
// balance. A first use that died mid-way (process killed) holds the key for RUNNING_LEASE_MS,
// after which a retry takes it over.

const RUNNING_LEASE_MS = 60_000;
const RETENTION_MS = 24 * 3_600_000;

export const IDEMPOTENCY_IN_FLIGHT =
  'A request with this Idempotency-Key is still being processed. Retry in a moment.';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used with a different request.';

export interface IdempotentRequest {
  /** Whose keys, for which operation (e.g. `purchase:<userId>`): other callers' keys never meet. */
  scope: string;
  key: string;
  /** What was asked: the same key with another request is refused. */
  request: unknown;
  now: number;
}

export interface Answer<T> {
  status: number;
  body: T;
}

/** An answer, and whether it is the first one replayed (Stripe's `Idempotent-Replayed`). */
interface IdempotentAnswer<T> extends Answer<T> {
  replayed: boolean;
}

const fingerprint = (request: unknown) =>
  createHash('sha256').update(JSON.stringify(request)).digest('hex');

/** Runs `operation` once per key; answers the first completed answer to every retry. */
export async function idempotent<T>(
  db: Db,
  request: IdempotentRequest,
  operation: () => Promise<Answer<T>>,
): Promise<IdempotentAnswer<T>> {
  const { scope, key, now } = request;
  const hash = fingerprint(request.request);
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - RETENTION_MS)
    .execute();

  if (!(await claim(db, request, hash))) {
    const replay = await existing<T>(db, request, hash);
    if (replay) return { ...replay, replayed: true };
  }

  let answer: Answer<T>;
  try {
    answer = await operation();
  } catch (err) {
    await db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('response_status', 'is', null)
      .execute();
    throw err;
  }
  await db
    .updateTable('idempotency_keys')
    .set({
      response_status: answer.status,
      response_body: JSON.stringify(answer.body),
      locked_until: null,
    })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .execute();
  return { ...answer, replayed: false };
}

/**
 * The key is taken: its answer to replay, or null when this caller took over a first use that
 * died; otherwise a refusal (another request, or still running).
 */
async function existing<T>(
  db: Db,
  { scope, key, now }: IdempotentRequest,
  hash: string,
): Promise<Answer<T> | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  // Released between our insert and this read (that use was refused): take the key.
  if (!row) {
    if (await claim(db, { scope, key, now }, hash)) return null;
    throw new ConflictError(IDEMPOTENCY_IN_FLIGHT);
  }
  if (row.request_hash !== hash) throw fieldInvalid('Idempotency-Key', IDEMPOTENCY_KEY_REUSED);
  if (row.response_status !== null) {
    return { status: row.response_status, body: JSON.parse(row.response_body ?? 'null') as T };
  }
  const takenOver = await db
    .updateTable('idempotency_keys')
    .set({ locked_until: now + RUNNING_LEASE_MS })
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  if (Number(takenOver.numUpdatedRows) === 0) throw new ConflictError(IDEMPOTENCY_IN_FLIGHT);
  return null;
}

/** Inserts the key as running; false when it is already there. */
async function claim(
  db: Db,
  { scope, key, now }: Pick<IdempotentRequest, 'scope' | 'key' | 'now'>,
  hash: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      scope,
      key,
      request_hash: hash,
      response_status: null,
      response_body: null,
      locked_until: now + RUNNING_LEASE_MS,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
