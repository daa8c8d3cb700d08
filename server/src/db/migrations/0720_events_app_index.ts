import type { Kysely } from 'kysely';

/**
 * Webhook events lose their index on (app_id, created_at) (0150): no read looks events up by
 * time within an app since the feed pages by each app's numbers (0160's webhook_events_seq), and
 * the bodies' pruning finds old events through webhook_events_unpruned. Every event, a new
 * invoice's first of all, wrote an entry of it. An app's events are still found through the
 * indexes that begin with app_id (webhook_events_seq, webhook_events_resource).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_events_app').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
