import type { Db } from '../../db/connection';
import { advanceInvoice, lockInvoice } from './invoices';

// Invoices expire on the job mechanism (jobs/index.ts `invoices.expire`): one recurring job
// across every process reads the new invoices whose expiry has passed on the chain's clock
// (chainClock.ts: every chain the invoice can be paid on read past its expiry), oldest first,
// and runs the state machine on each under its lock. The expiry is a state the machine reaches
// once (an expired invoice is not new any more), so an overlapping run, or one after a restart
// that missed the moment, finds nothing left to do twice; a payment mined before the expiry and
// seen after it still counts as on time (the machine judges by its block's time).
//
// A chain left unread (its provider gone, its watcher stuck) holds its invoices open at most
// `maxWaitMinutes` past their expiry: then they expire on the server's clock, so the gateway
// never keeps an invoice open for ever. A payment mined before the expiry and seen after that
// is still on time, and takes the invoice from expired as the state machine says.

const BATCH = 100;
/** Batches one pass takes at most; the next pass, seconds later, takes the rest. */
const BATCHES_PER_PASS = 10;
/** How long past its expiry an invoice waits for an unread chain, by default: a day. */
export const EXPIRY_MAX_WAIT_MINUTES = 24 * 60;

export interface ExpiryOptions {
  /** INVOICE_EXPIRY_MAX_WAIT_MINUTES. */
  maxWaitMinutes?: number;
}

/** One pass: new invoices past their expiry move on; answers how many were looked at. */
export async function expireInvoices(
  db: Db,
  now: Date,
  { maxWaitMinutes = EXPIRY_MAX_WAIT_MINUTES }: ExpiryOptions = {},
): Promise<number> {
  const waitedEnough = new Date(now.getTime() - maxWaitMinutes * 60_000).toISOString();
  let seen = 0;
  for (let batch = 0; batch < BATCHES_PER_PASS; batch += 1) {
    const due = await db
      .selectFrom('invoices as i')
      .select(['i.id', 'i.app_id'])
      .where('i.status', '=', 'new')
      .where('i.expires_at', '<=', now.toISOString())
      .where((eb) =>
        eb.or([
          eb('i.expires_at', '<=', waitedEnough),
          // No chain of its options is unread up to its expiry.
          eb.not(
            eb.exists(
              eb
                .selectFrom('invoice_payment_options as o')
                .leftJoin('watch_cursors as c', 'c.chain_id', 'o.chain_id')
                .select('o.invoice_id')
                .whereRef('o.invoice_id', '=', 'i.id')
                .where((unread) =>
                  unread.or([
                    unread('c.scanned_time', 'is', null),
                    unread('c.scanned_time', '<', unread.ref('i.expires_at')),
                  ]),
                ),
            ),
          ),
        ]),
      )
      .orderBy('i.expires_at')
      .limit(BATCH)
      .execute();
    for (const invoice of due) {
      await db.transaction().execute(async (trx) => {
        await lockInvoice(trx, invoice.id);
        // Chosen above by its chains (or the wait): the server's clock decides from here.
        await advanceInvoice(trx, invoice.app_id, invoice.id, now, [], now);
      });
    }
    seen += due.length;
    if (due.length < BATCH) break;
  }
  return seen;
}
