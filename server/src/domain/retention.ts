import type { Db } from '../db/connection';

// Retention, a recurring job (once across processes). Webhook events older than
// WEBHOOK_BODY_RETENTION_DAYS lose their body and their deliveries' response excerpts (the rows
// stay, marked pruned: IPN Logs still lists them, Redeliver says why it cannot); API Logs rows
// older than API_LOG_RETENTION_DAYS are deleted. Both in batches of BATCH rows, each its own
// short statement or transaction, so no lock is held long and writers interleave.

const BATCH = 500;
const DAY_MS = 86_400_000;

interface RetentionResult {
  prunedEvents: number;
  deletedApiLogs: number;
}

/**
 * Removes the bodies of events created before `before` (ISO time), batch by batch. An event
 * with a delivery still on its way keeps its body until that delivery ends.
 */
async function pruneWebhookBodies(db: Db, before: string, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom('webhook_events as e')
        .select('e.id')
        .where('e.pruned_at', 'is', null)
        .where('e.created_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as d')
                .select('d.id')
                .whereRef('d.event_id', '=', 'e.id')
                .where('d.status', 'in', ['pending', 'retrying']),
            ),
          ),
        )
        .orderBy('e.created_at')
        .limit(BATCH)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return total;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_attempts')
        .set({ response_excerpt: null })
        .where('delivery_id', 'in', (eb) =>
          eb.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', ids),
        )
        .execute();
      await trx
        .updateTable('webhook_events')
        .set({ body: '', pruned_at: now.toISOString() })
        .where('id', 'in', ids)
        .where('pruned_at', 'is', null)
        .execute();
    });
    total += ids.length;
    if (ids.length < BATCH) return total;
  }
}

/**
 * Deletes API Logs rows created before `before` (ISO time), app by app and batch by batch, each
 * batch found through the index the lists page by (app_id, created_at, id): the only index the
 * table has besides its key, as every gateway request writes a row (migration 0280).
 */
async function deleteOldApiLogs(db: Db, before: string): Promise<number> {
  let total = 0;
  const apps = await db.selectFrom('apps').select('id').orderBy('id').execute();
  for (const app of apps) {
    for (;;) {
      const result = await db
        .deleteFrom('api_logs')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('api_logs')
            .select('id')
            .where('app_id', '=', app.id)
            .where('created_at', '<', before)
            .limit(BATCH),
        )
        .executeTakeFirst();
      const deleted = Number(result.numDeletedRows);
      total += deleted;
      if (deleted < BATCH) break;
    }
  }
  return total;
}

/** Prunes what has outlived its period: event bodies, then API Logs rows. */
export async function applyRetention(
  db: Db,
  periods: { webhookBodyDays: number; apiLogDays: number },
  now: Date,
): Promise<RetentionResult> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  return {
    prunedEvents: await pruneWebhookBodies(db, ago(periods.webhookBodyDays), now),
    deletedApiLogs: await deleteOldApiLogs(db, ago(periods.apiLogDays)),
  };
}
