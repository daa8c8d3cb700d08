import type { Db } from '../../db/connection';
import type { components } from '../../generated/gateway.gen';
import { fieldInvalid } from '../errors';
import { withMode } from '../livemode';

// The events API (GET /gateway/v1/events): an app's events in `seq` order, which is commit
// order (events.ts says how), so a merchant whose endpoint was down catches up by paging with
// the cursor instead of waiting for retries. Pruned events (retention) are skipped: their
// bodies are gone.

interface EventPage {
  /** The envelopes exactly as signed and sent (JSON text). */
  bodies: string[];
  /** The seq to continue after: the last one on the page, else the one given. */
  next: number;
  hasMore: boolean;
}

/** seq is a 32-bit integer column on PostgreSQL: no event sits after a cursor at or past it. */
const SEQ_MAX = 2_147_483_647;

/**
 * The app's events after `page.after`, in seq order. An `after` past the app's last event is
 * refused (422 on `after`): no `next` this feed gives is, and answering it would hand the
 * client a position that skips the events still to come.
 */
export async function eventPage(
  db: Db,
  appId: string,
  page: { after: number; limit: number },
): Promise<EventPage> {
  const rows =
    page.after >= SEQ_MAX
      ? []
      : await db
          .selectFrom('webhook_events')
          .select(['seq', 'body'])
          .where('app_id', '=', appId)
          .where('seq', '>', page.after)
          .where('pruned_at', 'is', null)
          .orderBy('seq')
          .limit(page.limit + 1)
          .execute();
  if (rows.length === 0 && page.after > 0) await assertPositionHeld(db, appId, page.after);
  const shown = rows.slice(0, page.limit);
  return {
    bodies: shown.map((r) => r.body),
    next: shown.at(-1)?.seq ?? page.after,
    hasMore: rows.length > page.limit,
  };
}

/**
 * `after` is at or before the app's last event number (its counter: pruned events and deleted
 * test events count, their numbers are never taken again).
 */
async function assertPositionHeld(db: Db, appId: string, after: number): Promise<void> {
  const last = await db
    .selectFrom('app_event_seqs')
    .select('seq')
    .where('app_id', '=', appId)
    .executeTakeFirst();
  const lastSeq = Number(last?.seq ?? 0);
  if (after > lastSeq) {
    throw fieldInvalid(
      'after',
      `after ${after} is past this app's last event (${lastSeq}): pass the next of an earlier ` +
        'page, or 0 to read from the first event.',
    );
  }
}

/**
 * A stored envelope as the gateway answers it. Events recorded before test mode carry no
 * livemode: every one of them was live, and so was its object.
 */
export function storedEvent(body: string, livemode: boolean): components['schemas']['Event'] {
  const event = JSON.parse(body) as { type: string; data: object; livemode?: boolean };
  // The stored envelopes are what gateway.yaml's Event describes: they were made from it.
  if (event.livemode !== undefined) return event as components['schemas']['Event'];
  const data = event.type === 'test.ping' ? event.data : withMode(event.data, livemode);
  return { ...event, data, livemode } as components['schemas']['Event'];
}
