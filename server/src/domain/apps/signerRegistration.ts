import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { addJob } from '../../jobs/queue';
import type { SignerClient } from '../../signer/client/client';
import type { SignerRequest } from '../../signer/client/protocol';
import {
  whitelistHash,
  type PlanRegistration,
  type PayoutRegistration,
  type RequestSigner,
  type WhitelistRegistration,
} from '../../signer/client/requestMac';
import { newId } from '../ids';

// A change of what steers an app's money (a payout address set or changed, the IP whitelist
// changed, the plan whose daily caps the signer applies) is registered with the signer, whose own store is the authority on where sweeps go and
// when a change takes effect (signer/server/store.ts). The registration is MACed and queued as a
// job in the same transaction as the change, so it goes out once the change commits, and only
// then; the job (`signer.register`) asks the signer until it answers, and writes the signer's hold
// end back on the row for the portal and the gateway to show. Registering again is harmless: the
// signer takes a registration once, and ignores one older than the last it took.

export const REGISTER_KIND = 'signer.register';

/** A registration waits at most this long between attempts while the signer is away. */
const RETRY_CAP_MS = 60_000;
/** Years of attempts at one a minute: retried until the signer answers. */
export const REGISTER_ATTEMPTS = 1_000_000;

export interface RegistrationPayload {
  request: Extract<SignerRequest, { op: 'registerPayout' | 'registerWhitelist' | 'registerPlan' }>;
}

/** The job's wait before its next attempt: doubling from a second, at most a minute. */
export function registrationRetryDelay(attempts: number): number {
  return Math.min(1000 * 2 ** attempts, RETRY_CAP_MS);
}

/** Job keys start with the (app, method) they register, so a pending one can be looked up. */
function payoutKeyPrefix(appId: string, paymentMethodId: string): string {
  return `payout:${appId}:${paymentMethodId}:`;
}

/**
 * SQL: a registration of the payout address of the app and method in the columns `appId` and
 * `paymentMethodId` is queued (payoutRegistrationPending, for a query's rows).
 */
export function payoutRegistrationQueued(appId: string, paymentMethodId: string) {
  return sql<boolean>`exists (select 1 from jobs where jobs.kind = ${sql.lit(REGISTER_KIND)}
    and jobs.key like ${sql.lit('payout:')} || ${sql.ref(appId)} || ${sql.lit(':')}
      || ${sql.ref(paymentMethodId)} || ${sql.lit(':%')})`;
}

/** Queues the registration of an app's payout address for a method, in `trx`. */
export async function queuePayoutRegistration(
  trx: Db,
  sign: RequestSigner,
  change: { appId: string; paymentMethodId: string; address: string; at: Date },
): Promise<void> {
  const registration: PayoutRegistration = {
    kind: 'payout',
    appId: change.appId,
    paymentMethodId: change.paymentMethodId,
    address: change.address,
    at: change.at.toISOString(),
  };
  const payload: RegistrationPayload = {
    request: {
      op: 'registerPayout',
      appId: registration.appId,
      paymentMethodId: registration.paymentMethodId,
      address: registration.address,
      at: registration.at,
      mac: sign(registration),
    },
  };
  await addJob(
    trx,
    {
      kind: REGISTER_KIND,
      key: `${payoutKeyPrefix(change.appId, change.paymentMethodId)}${newId('reg')}`,
      payload,
      maxAttempts: REGISTER_ATTEMPTS,
    },
    change.at.getTime(),
  );
}

/** Queues the registration of an app's IP whitelist (normalised, null when empty), in `trx`. */
export async function queueWhitelistRegistration(
  trx: Db,
  sign: RequestSigner,
  change: { appId: string; whitelist: string | null; at: Date },
): Promise<void> {
  const registration: WhitelistRegistration = {
    kind: 'whitelist',
    appId: change.appId,
    whitelistHash: whitelistHash(change.whitelist),
    at: change.at.toISOString(),
  };
  const payload: RegistrationPayload = {
    request: {
      op: 'registerWhitelist',
      appId: registration.appId,
      whitelistHash: registration.whitelistHash,
      at: registration.at,
      mac: sign(registration),
    },
  };
  await addJob(
    trx,
    {
      kind: REGISTER_KIND,
      key: `whitelist:${change.appId}:${newId('reg')}`,
      payload,
      maxAttempts: REGISTER_ATTEMPTS,
    },
    change.at.getTime(),
  );
}

/**
 * Queues the registration of an app's plan (its package id, or NO_PLAN) and its end (the
 * subscription's end_date; null with no plan), in `trx`.
 */
export async function queuePlanRegistration(
  trx: Db,
  sign: RequestSigner,
  change: { appId: string; packageId: string; until: string | null; at: Date },
): Promise<void> {
  const registration: PlanRegistration = {
    kind: 'plan',
    appId: change.appId,
    packageId: change.packageId,
    until: change.until,
    at: change.at.toISOString(),
  };
  const payload: RegistrationPayload = {
    request: {
      op: 'registerPlan',
      appId: registration.appId,
      packageId: registration.packageId,
      ...(registration.until === null ? {} : { until: registration.until }),
      at: registration.at,
      mac: sign(registration),
    },
  };
  await addJob(
    trx,
    {
      kind: REGISTER_KIND,
      key: `plan:${change.appId}:${newId('reg')}`,
      payload,
      maxAttempts: REGISTER_ATTEMPTS,
    },
    change.at.getTime(),
  );
}

/** Whether a payout address change of (app, method) has not reached the signer yet. */
export async function payoutRegistrationPending(
  db: Db,
  appId: string,
  paymentMethodId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', REGISTER_KIND)
    .where('key', 'like', `${payoutKeyPrefix(appId, paymentMethodId)}%`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The job: hands the registration to the signer; throws (to be retried) until it is taken. The
 * signer's hold end goes on the row when the row still holds what was registered.
 */
export async function registerWithSigner(
  db: Db,
  signer: SignerClient,
  payload: RegistrationPayload,
): Promise<void> {
  const { request } = payload;
  const answer = await signer.request(request);
  if (answer.state !== 'registered') {
    throw new Error(
      `The signer did not take the ${request.op} of app ${request.appId}: ${answer.state === 'refused' || answer.state === 'waiting' ? answer.reason : answer.state}`,
    );
  }
  if (answer.heldUntil === null || request.op === 'registerPlan') return;
  if (request.op === 'registerPayout') {
    const forms = request.address.startsWith('0x')
      ? [request.address, request.address.toLowerCase()]
      : [request.address];
    await db
      .updateTable('app_payment_methods')
      .set({ payout_hold_until: answer.heldUntil })
      .where('app_id', '=', request.appId)
      .where('payment_method_id', '=', request.paymentMethodId)
      .where('collect_address', 'in', forms)
      .execute();
    return;
  }
  const app = await db
    .selectFrom('apps')
    .select('whitelist_ip')
    .where('id', '=', request.appId)
    .executeTakeFirst();
  if (!app || whitelistHash(app.whitelist_ip) !== request.whitelistHash) return;
  await db
    .updateTable('apps')
    .set({ whitelist_hold_until: answer.heldUntil })
    .where('id', '=', request.appId)
    .execute();
}
