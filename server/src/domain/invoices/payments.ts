import type { Db } from '../../db/connection';
import type { ChainAdapter } from '../chain/adapter';
import { addressKey } from '../chain/specChains';
import { formatDecimal, fromUnits, multiply, parseDecimal } from '../decimal';
import { newId } from '../ids';
import type { FoundInvoiceTransfer, WatchedMethod } from '../payments/depositScan';
import { invoiceClock } from './chainClock';
import { advanceInvoice, lockInvoice } from './invoices';

// Payments to invoices, as the deposit watcher finds them on each chain (depositScan.ts): each
// transfer to an invoice's address in a method it offers becomes one payment, keyed by (chain, tx
// hash, log index) as deposits are, so two processes (or two passes) recording it record it once.
// It is valued in the invoice's currency at its method's locked rate, exactly, and is pending
// until it has the method's confirmations (its own block counted); at that depth its receipt is
// read again, as a deposit's is before its credit: still there as recorded, it is confirmed;
// gone (a reorg), removed, and it counts for nothing. Every change runs the invoice's state machine
// in the same transaction, under the invoice's lock.

/** Blocks on top of a transfer, its own counted, up to what the method asks for. */
function confirmationsAt(head: number, block: number, required: number): number {
  return Math.max(0, Math.min(required, head - block + 1));
}

/**
 * Records the transfers to invoices a pass found; answers how many were new. One the invoice did
 * not offer (another chain's, another token's) is recorded flagged, worth nothing toward the
 * invoice until the merchant accepts it, and told in invoice.payment_received all the same (the
 * payments list carries the flag); its confirmations are followed like any payment's.
 */
export async function recordInvoiceTransfers(
  db: Db,
  found: readonly FoundInvoiceTransfer[],
  head: number,
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const { method, invoice, transfer, flag } of found) {
    recorded += await db.transaction().execute(async (trx) => {
      await lockInvoice(trx, invoice.id);
      const terms =
        flag === null
          ? await trx
              .selectFrom('invoice_payment_options as o')
              .innerJoin('invoices as i', 'i.id', 'o.invoice_id')
              .select(['o.rate', 'i.expires_at'])
              .where('o.invoice_id', '=', invoice.id)
              .where('o.payment_method_id', '=', method.id)
              .executeTakeFirstOrThrow()
          : {
              rate: null,
              ...(await trx
                .selectFrom('invoices')
                .select('expires_at')
                .where('id', '=', invoice.id)
                .executeTakeFirstOrThrow()),
            };
      const late = new Date(transfer.timestamp) > new Date(terms.expires_at) ? 1 : 0;
      // The chain has come to this block: a block past the expiry finds the invoice expired
      // before it counts this payment (when nothing earlier covered it), as a watcher on time
      // would have.
      const clock = await invoiceClock(trx, invoice.id, now, {
        chainId: method.chainId,
        time: transfer.timestamp,
      });
      if (late === 1) await advanceInvoice(trx, invoice.appId, invoice.id, now, [], clock);
      const confirmations = confirmationsAt(head, transfer.blockNumber, method.confirmations);
      const inserted = await trx
        .insertInto('invoice_payments')
        .values({
          id: newId('ipay'),
          invoice_id: invoice.id,
          app_id: invoice.appId,
          payment_method_id: method.id,
          chain_id: method.chainId,
          tx_hash: transfer.txHash,
          log_index: transfer.logIndex,
          block_number: transfer.blockNumber,
          amount_raw: transfer.amount.toString(),
          value:
            terms.rate === null
              ? '0'
              : formatDecimal(
                  multiply(fromUnits(transfer.amount, method.decimals), parseDecimal(terms.rate)),
                ),
          confirmations,
          status: 'pending',
          late,
          created_at: transfer.timestamp,
          seen_at: now.toISOString(),
          flag,
          accepted_at: null,
          // A flagged payment has no option on its chain to name the address.
          paid_to: flag === null ? null : transfer.to,
        })
        // Recorded before (or by a concurrent run): this one inserts nothing for it.
        .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
        .returning('id')
        .execute();
      if (inserted.length > 0) {
        await advanceInvoice(
          trx,
          invoice.appId,
          invoice.id,
          now,
          ['invoice.payment_received'],
          clock,
        );
        return 1;
      }
      // Seen again in another block (a reorg re-mined it), or back after a reorg removed it: it
      // waits for its confirmations there. A confirmed payment is past any reorg we follow.
      const moved = await trx
        .updateTable('invoice_payments')
        .set({
          block_number: transfer.blockNumber,
          created_at: transfer.timestamp,
          late,
          confirmations,
          status: 'pending',
        })
        .where('chain_id', '=', method.chainId)
        .where('tx_hash', '=', transfer.txHash)
        .where('log_index', '=', transfer.logIndex)
        .where('status', '!=', 'confirmed')
        .where((eb) =>
          eb.or([eb('block_number', '!=', transfer.blockNumber), eb('status', '=', 'removed')]),
        )
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) > 0)
        await advanceInvoice(trx, invoice.appId, invoice.id, now, [], clock);
      return 0;
    });
  }
  return recorded;
}

/**
 * The chain's pending invoice payments gain confirmations; at depth each is read again and is
 * confirmed, or removed when the chain no longer holds it as recorded.
 */
export async function advanceInvoicePayments(
  db: Db,
  adapter: ChainAdapter,
  methods: readonly WatchedMethod[],
  head: number,
  now: Date,
): Promise<{ confirmed: number; removed: number }> {
  const byId = new Map(methods.map((m) => [m.id, m]));
  const pending = await db
    .selectFrom('invoice_payments as p')
    // A flagged payment has no option of its own: it keeps the address it was sent to.
    .leftJoin('invoice_payment_options as o', (join) =>
      join
        .onRef('o.invoice_id', '=', 'p.invoice_id')
        .onRef('o.payment_method_id', '=', 'p.payment_method_id'),
    )
    .select([
      'p.id',
      'p.invoice_id',
      'p.app_id',
      'p.payment_method_id',
      'p.tx_hash',
      'p.log_index',
      'p.block_number',
      'p.amount_raw',
      'p.confirmations',
      (eb) => eb.fn.coalesce('p.paid_to', 'o.address').as('address'),
    ])
    .where('p.chain_id', '=', adapter.chainId)
    .where('p.status', '=', 'pending')
    .orderBy('p.seen_at')
    .execute();
  const result = { confirmed: 0, removed: 0 };
  for (const row of pending) {
    const method = byId.get(row.payment_method_id);
    if (!method) continue;
    let block = row.block_number;
    let confirmations = confirmationsAt(head, block, method.confirmations);
    let still = false;
    if (confirmations >= method.confirmations) {
      // At depth: the receipt, read again, must still hold the transfer as recorded.
      const onChain = await adapter.transferNow({
        txHash: row.tx_hash,
        logIndex: row.log_index,
        token: method.contract,
      });
      still =
        onChain !== null &&
        row.address !== null &&
        addressKey(onChain.to) === addressKey(row.address) &&
        onChain.amount === BigInt(row.amount_raw);
      if (still && onChain && onChain.blockNumber !== block) {
        // Re-mined in another block: it waits there for its confirmations.
        block = onChain.blockNumber;
        confirmations = confirmationsAt(head, block, method.confirmations);
      }
    }
    const final = confirmations >= method.confirmations;
    if (!final && block === row.block_number && confirmations === row.confirmations) continue;
    const status = !final ? 'pending' : still ? 'confirmed' : 'removed';
    await db.transaction().execute(async (trx) => {
      await lockInvoice(trx, row.invoice_id);
      const changed = await trx
        .updateTable('invoice_payments')
        .set({
          status,
          block_number: block,
          confirmations: status === 'removed' ? 0 : confirmations,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0 || status === 'pending') return;
      result[status] += 1;
      await advanceInvoice(trx, row.app_id, row.invoice_id, now);
    });
  }
  return result;
}
