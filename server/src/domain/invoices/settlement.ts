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
function creditedMethods(
  options: readonly OptionRecord[],
  confirmed: readonly PaymentRecord[],
): CreditedMethod[] {
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

type Terms = (amountRaw: bigint) => { fee_percent: string | null; fee_raw: string | null };

interface CreditedMethod {
  methodId: string;
  chainId: number;
  address: string;
  decimals: number;
}

/**
 * One credited deposit (status 3) of `paid`, payments of one method nobody credited yet, at the
 * address they were sent to, each then marked taken by it (`credit_id`); its id, or null when
 * it was there already.
 */
async function creditPayments(
  trx: Transaction<Database>,
  appId: string,
  invoiceId: string,
  { methodId, chainId, address, decimals }: CreditedMethod,
  payments: readonly PaymentRecord[],
  options: { tnxCount: 0 | 1; terms: Terms; now: Date },
): Promise<string | null> {
  const paid = [...payments].sort((a, b) => a.created_at.localeCompare(b.created_at));
  const last = paid.at(-1);
  if (!last) return null;
  const amount = paid.reduce((sum, p) => sum + BigInt(p.amount_raw), 0n);
  const micro = chainAmountToMicro(amount, decimals);
  const id = newId('rcv');
  const at = options.now.toISOString();
  const inserted = await trx
    .insertInto('receive_transactions')
    .values({
      id,
      app_id: appId,
      payment_method_id: methodId,
      unique_id: invoiceId,
      amount_micro: micro <= 0n ? 0 : storedMicro(micro),
      deposit_status: 3,
      failure_reason: null,
      // Keyed by the last payment it takes: a transfer belongs to one address, so to one row.
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
      tnx_count: options.tnxCount,
      ...options.terms(amount),
    })
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
    .returning('id')
    .execute();
  if (inserted.length === 0) return null;
  await trx
    .updateTable('invoice_payments')
    .set({ credit_id: id })
    .where(
      'id',
      'in',
      paid.map((p) => p.id),
    )
    .where('credit_id', 'is', null)
    .execute();
  return id;
}

/** Credits a just settled invoice's confirmed payments, one deposit per method, with events. */
export async function creditSettledInvoice(
  trx: Transaction<Database>,
  { invoice, options, payments }: InvoiceRecord,
  now: Date,
): Promise<void> {
  // A payment a refund credited already (settled by hand after it) is not credited again.
  const confirmed = payments.filter(
    (p) => p.status === 'confirmed' && counts(p) && p.credit_id === null,
  );
  if (confirmed.length === 0) return;
  const terms = await creditTermsOf(trx, invoice.app_id, now);
  const ids: { id: string; appId: string }[] = [];
  // Which deposit is the invoice's transaction does not depend on what an insert found already
  // there: the same one whichever time this runs.
  let counted = false;
  for (const method of creditedMethods(options, confirmed)) {
    const paid = confirmed.filter((p) => p.payment_method_id === method.methodId);
    if (paid.length === 0) continue;
    const tnxCount = counted ? 0 : 1;
    counted = true;
    const id = await creditPayments(trx, invoice.app_id, invoice.id, method, paid, {
      tnxCount,
      terms,
      now,
    });
    if (id !== null) ids.push({ id, appId: invoice.app_id });
  }
  await emitDepositEvents(trx, await depositsOf(trx, ids), now);
}

/**
 * Takes in the confirmed payments of one method that no credit took, when the merchant refunds
 * in that method: an expired or invalid invoice's, one paid after the invoice settled, or one it
 * did not offer (flagged). The refund is paid from the operational wallet; the payments become
 * one credited deposit like any other (the package's fee included, not a transaction of its
 * own), swept to the app's payout address of the method, so the money the shopper sent is not
 * left at the invoice's address while the merchant pays it back.
 */
export async function creditRefundedPayments(
  trx: Transaction<Database>,
  { invoice, options, payments }: InvoiceRecord,
  methodId: string,
  now: Date,
): Promise<void> {
  const paid = payments.filter(
    (p) => p.payment_method_id === methodId && p.status === 'confirmed' && p.credit_id === null,
  );
  const [method] = creditedMethods(
    options.filter((o) => o.payment_method_id === methodId),
    paid,
  );
  if (!method || paid.length === 0) return;
  const terms = await creditTermsOf(trx, invoice.app_id, now);
  const id = await creditPayments(trx, invoice.app_id, invoice.id, method, paid, {
    tnxCount: 0,
    terms,
    now,
  });
  if (id !== null) {
    await emitDepositEvents(trx, await depositsOf(trx, [{ id, appId: invoice.app_id }]), now);
  }
}
