import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0160_webhook_event_feed';

describe('migration 0160: the events feed', () => {
  const t = testAppPerBlock();

  it('numbers the events so far per app in their time order, so the cursor starts at 1', async () => {
    const userId = await addUser(t, 'feed_owner');
    for (const id of ['app_feed_a', 'app_feed_b']) {
      await insertApp(t, { id, user_id: userId, created_at: '2026-11-01T00:00:00.000Z' });
    }
    const events: [string, string, string][] = [
      ['evt_a2', 'app_feed_a', '2026-11-02T00:00:00.000Z'],
      ['evt_b1', 'app_feed_b', '2026-11-01T00:00:00.000Z'],
      ['evt_a1', 'app_feed_a', '2026-11-01T00:00:00.000Z'],
      ['evt_a3', 'app_feed_a', '2026-11-03T00:00:00.000Z'],
    ];
    // As the database was before the migration: no seq, no pruned_at, no new indexes (its
    // api_logs_created is gone already: migration 0280).
    for (const index of ['webhook_events_seq', 'webhook_events_unpruned']) {
      await t.db.schema.dropIndex(index).execute();
    }
    await t.db.schema.alterTable('webhook_events').dropColumn('seq').execute();
    await t.db.schema.alterTable('webhook_events').dropColumn('pruned_at').execute();
    const old = t.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    for (const [id, appId, at] of events) {
      await old
        .insertInto('webhook_events')
        .values({
          id,
          app_id: appId,
          type: 'test.ping',
          resource_id: id,
          resource_seq: 1,
          unique_id: null,
          body: '{}',
          created_at: at,
        })
        .execute();
    }
    // Migrations take the untyped database they run on.
    await up(t.db as unknown as Kysely<unknown>);

    const rows = await t.db
      .selectFrom('webhook_events')
      .select(['id', 'seq', 'pruned_at'])
      .where('app_id', 'in', ['app_feed_a', 'app_feed_b'])
      .orderBy('app_id')
      .orderBy('seq')
      .execute();
    expect(rows).toEqual([
      { id: 'evt_a1', seq: 1, pruned_at: null },
      { id: 'evt_a2', seq: 2, pruned_at: null },
      { id: 'evt_a3', seq: 3, pruned_at: null },
      { id: 'evt_b1', seq: 1, pruned_at: null },
    ]);
  });
});
