import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';

// Invoices expire by the chain's clock. The watcher keeps, per chain, the time of the last block
// it has read (watch_cursors.scanned_time, domain/payments/depositScan.ts): every payment mined
// before that time has been seen, confirmed or not. An invoice has expired once every chain it can
// be paid on has been read past its expiry, so a payment mined before the expiry and seen late (a
// provider down, a watcher catching up) still finds the invoice open. The expiry job adds a limit
// (expiry.ts): past the longest wait, an invoice expires even while a chain stays unread.

/** A block of one chain being recorded: that chain's clock has come at least to its time. */
export interface SeenBlock {
  chainId: number;
  /** ISO-8601 UTC. */
  time: string;
}

/**
 * The time the invoice's chains have been read to: the earliest of its chains' cursors (a chain
 * never read holds it at the epoch), never past `now`. An invoice without payment options is on
 * the server's clock.
 */
export async function invoiceClock(
  trx: Transaction<Database>,
  invoiceId: string,
  now: Date,
  seen?: SeenBlock,
): Promise<Date> {
  const chains = await trx
    .selectFrom('invoice_payment_options as o')
    .leftJoin('watch_cursors as c', 'c.chain_id', 'o.chain_id')
    .select(['o.chain_id', 'c.scanned_time'])
    .where('o.invoice_id', '=', invoiceId)
    .execute();
  let clock = now.getTime();
  for (const chain of chains) {
    let read = chain.scanned_time === null ? 0 : new Date(chain.scanned_time).getTime();
    if (seen && seen.chainId === chain.chain_id) read = Math.max(read, Date.parse(seen.time));
    clock = Math.min(clock, read);
  }
  return new Date(clock);
}
