import type { Db } from '../../db/connection';

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

export async function eventPage(
  db: Db,
  appId: string,
  page: { after: number; limit: number },
): Promise<EventPage> {
  if (page.after >= SEQ_MAX) return { bodies: [], next: page.after, hasMore: false };
  const rows = await db
    .selectFrom('webhook_events')
    .select(['seq', 'body'])
    .where('app_id', '=', appId)
    .where('seq', '>', page.after)
    .where('pruned_at', 'is', null)
    .orderBy('seq')
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  return {
    bodies: shown.map((r) => r.body),
    next: shown.at(-1)?.seq ?? page.after,
    hasMore: rows.length > page.limit,
  };
}
