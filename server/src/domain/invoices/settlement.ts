import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { creditTermsOf } from '../apps/plan';
import { newId } from '../ids';
import { chainAmountToMicro, storedMicro } from '../money';
import { depositsOf } from '../payments/depositReads';
import { emitDepositEvents } from '../webhooks/events';
import { counts, type InvoiceRecord, type OptionRecord, type PaymentRecord } from './views';

// A settled invoice's money joins the deposits' road. Its confirmed payments of each method
// become one credited deposit (status 3) at the invoice's address, `unique_id` the invoice's id,
// with the package's fee recorded as a deposit's is, so Usage and Daily Logs show it and the
// existing completion tops up its gas and sweeps it, the fee leg to the gateway and the rest to
// the payout address. An invoice paid in two methods is two deposits, one per asset to sweep, each
// with its own amount, fee and net; but it is one transaction: the first method's deposit (in the
// order of the invoice's payment options) has tnx_count 1 and the others 0 (migration 0410), so
// the plan's limits, the dashboard and Usage count the invoice once, not once per method or payment.

/**
 * The methods the confirmed payments were made in, each once: the offered ones in the order of
 * the options, then the accepted ones the invoice did not offer (strays.ts), each at the address
 * it was sent to, on its own chain.
 */
function creditedMethods(options: readonly OptionRecord[], confirmed: readonly PaymentRecord[]) {
  const methods = options.map((o) => ({
    methodId: o.payment_method_id,
    chainId: o.chain_id,
    address: o.address,
    decimals: o.decimals,
  }));
  for (const p of confirmed) {
    if (p.paid_to === null || methods.some((m) => m.methodId === p.payment_method_id)) continue;
    methods.push({
      methodId: p.payment_method_id,
      chainId: p.chain_id,
      address: p.paid_to,
      decimals: p.decimals,
    });
  }
  return methods;
}

/** Credits a just settled invoice's confirmed payments, one deposit per method, with events. */
export async function creditSettledInvoice(
  trx: Transaction<Database>,
  { invoice, options, payments }: InvoiceRecord,
  now: Date,
): Promise<void> {
  const confirmed = payments.filter((p) => p.status === 'confirmed' && counts(p));
  if (confirmed.length === 0) return;
  const terms = await creditTermsOf(trx, invoice.app_id, now);
  const at = now.toISOString();
  const ids: { id: string; appId: string }[] = [];
  // Which deposit is the invoice's transaction does not depend on what an insert found already
  // there: the same one whichever time this runs.
  let counted = false;
  for (const { methodId, chainId, address, decimals } of creditedMethods(options, confirmed)) {
    const paid = confirmed
      .filter((p) => p.payment_method_id === methodId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    const last = paid.at(-1);
    if (!last) continue;
    const amount = paid.reduce((sum, p) => sum + BigInt(p.amount_raw), 0n);
    const micro = chainAmountToMicro(amount, decimals);
    const id = newId('rcv');
    const tnxCount = counted ? 0 : 1;
    counted = true;
    const inserted = await trx
      .insertInto('receive_transactions')
      .values({
        id,
        app_id: invoice.app_id,
        payment_method_id: methodId,
        unique_id: invoice.id,
        amount_micro: micro <= 0n ? 0 : storedMicro(micro),
        deposit_status: 3,
        failure_reason: null,
        // Keyed by the method's last payment: a transfer belongs to one address, so to one row.
        thash: last.tx_hash,
        gas_transfer_txid: null,
        collect_txid: null,
        process_datetime: at,
        created_at: new Date(last.created_at).toISOString(),
        chain_id: chainId,
        tx_hash: last.tx_hash,
        log_index: last.log_index,
        block_number: last.block_number,
        amount_raw: amount.toString(),
        address,
        credited_at: at,
        tnx_count: tnxCount,
        ...terms(amount),
      })
      .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
      .returning('id')
      .execute();
    if (inserted.length > 0) ids.push({ id, appId: invoice.app_id });
  }
  await emitDepositEvents(trx, await depositsOf(trx, ids), now);
}
