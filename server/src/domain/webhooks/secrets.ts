import type { Db } from '../../db/connection';
import { ConflictError } from '../errors';
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret } from './signing';
import { codedMessages } from '../messageCodes';

const SECRET_MSG = codedMessages('webhookSecret', {
  rotatedMeanwhile: 'The secret was rotated meanwhile: rotate again to see a new one.',
} as const);

/** After a rotation the old secret keeps signing this long, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * The secrets that sign a delivery at `now`: the current one, and the previous one during the
 * 24 h after a rotation. An app that never had a secret gets one here (sealed, shown to nobody:
 * the merchant rotates to see one), so no delivery ever goes out unsigned.
 */
export async function signingSecrets(
  db: Db,
  serverKey: string,
  appId: string,
  now: Date,
): Promise<string[]> {
  let row = await db
    .selectFrom('app_webhooks')
    .select(['secret_enc', 'previous_secret_enc', 'previous_until'])
    .where('app_id', '=', appId)
    .executeTakeFirst();
  if (!row) {
    await db
      .insertInto('app_webhooks')
      .values({
        app_id: appId,
        secret_enc: sealWebhookSecret(serverKey, appId, newWebhookSecret()),
        previous_secret_enc: null,
        previous_until: null,
        secret_created_at: now.toISOString(),
        disabled_at: null,
        disabled_reason: null,
      })
      // Two first deliveries at once: the first secret written is the one both use.
      .onConflict((oc) => oc.column('app_id').doNothing())
      .execute();
    row = await db
      .selectFrom('app_webhooks')
      .select(['secret_enc', 'previous_secret_enc', 'previous_until'])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
  }
  const secrets = [row.secret_enc];
  if (row.previous_secret_enc !== null && (row.previous_until ?? 0) > now.getTime()) {
    secrets.push(row.previous_secret_enc);
  }
  return secrets.map((sealed) => {
    const secret = openWebhookSecret(serverKey, appId, sealed);
    // Sealed with another SECRET_KEY: signing with anything else would fail every receiver.
    if (secret === null) throw new Error(`The webhook secret of ${appId} does not open`);
    return secret;
  });
}

/**
 * A new signing secret for the app, answered in clear this once. The one it replaces keeps
 * signing for 24 h (both signatures are sent), so receivers can switch without losing events.
 */
export async function rotateWebhookSecret(
  db: Db,
  serverKey: string,
  appId: string,
  now: Date,
): Promise<string> {
  const secret = newWebhookSecret();
  const sealed = sealWebhookSecret(serverKey, appId, secret);
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('app_webhooks')
      .select('secret_enc')
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (!existing) {
      await trx
        .insertInto('app_webhooks')
        .values({
          app_id: appId,
          secret_enc: sealed,
          previous_secret_enc: null,
          previous_until: null,
          secret_created_at: now.toISOString(),
          disabled_at: null,
          disabled_reason: null,
        })
        .execute();
      return;
    }
    const changed = await trx
      .updateTable('app_webhooks')
      .set({
        secret_enc: sealed,
        previous_secret_enc: existing.secret_enc,
        previous_until: now.getTime() + ROTATION_OVERLAP_MS,
        secret_created_at: now.toISOString(),
      })
      .where('app_id', '=', appId)
      .where('secret_enc', '=', existing.secret_enc)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) {
      throw new ConflictError(SECRET_MSG.rotatedMeanwhile);
    }
  });
  return secret;
}
