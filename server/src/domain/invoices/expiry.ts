import type { Db } from '../../db/connection';
import { advanceInvoice, lockInvoice } from './invoices';

// Invoices expire on the job mechanism (jobs/index.ts `invoices.expire`): one recurring job
// across every process reads the new invoices whose expiry has passed, oldest first, and runs
// the state machine on each under its lock. The expiry is a state the machine reaches once (an
// expired invoice is not new any more), so an overlapping run, or one after a restart that missed
// the moment, finds nothing left to do twice; a payment mined before the expiry and seen after it
// still counts as on time (the machine judges by its block's time).

const BATCH = 100;
/** Batches one pass takes at most; the next pass, seconds later, takes the rest. */
const BATCHES_PER_PASS = 10;

/** One pass: new invoices past their expiry move on; answers how many were looked at. */
export async function expireInvoices(db: Db, now: Date): Promise<number> {
  let seen = 0;
  for (let batch = 0; batch < BATCHES_PER_PASS; batch += 1) {
    const due = await db
      .selectFrom('invoices')
      .select(['id', 'app_id'])
      .where('status', '=', 'new')
      .where('expires_at', '<=', now.toISOString())
      .orderBy('expires_at')
      .limit(BATCH)
      .execute();
    for (const invoice of due) {
      await db.transaction().execute(async (trx) => {
        await lockInvoice(trx, invoice.id);
        await advanceInvoice(trx, invoice.app_id, invoice.id, now);
      });
    }
    seen += due.length;
    if (due.length < BATCH) break;
  }
  return seen;
}
