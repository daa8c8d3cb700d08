import type { Db } from '../../db/connection';
import type { Executor } from '../../db/prepared';
import { ConflictError, InvalidError, NotFoundError } from '../errors';
import { formatDecimal, fromUnits, multiply, parseDecimal } from '../decimal';
import type { RateBook } from '../rates/rates';
import { ACCEPTS_PAYMENTS_IN } from '../../../../src/shared/invoices';
import { InvoiceStateRefusal } from './stateMachine';
import { advanceInvoice, getInvoice, lockInvoice } from './invoices';
import { codedMessages } from '../messageCodes';

const STRAY_MSG = codedMessages('strayPayment', {
  notFound: (paymentId: string, invoiceId: string) =>
    `No payment ${paymentId} to invoice ${invoiceId}.`,
  takesNoMore: (status: string) =>
    `The invoice is ${status}: it takes no more payments. Refund this one instead.`,
  addMethod: (method: string) =>
    `Add ${method} to the app's payment methods first: its payout address receives this payment.`,
  counted: 'This payment already counts toward the invoice.',
  reorged: 'A reorg took this payment off the chain: there is nothing to accept.',
} as const);

// A payment the invoice did not offer (payments.ts records it flagged wrong_network or
// wrong_asset, worth nothing) counts once the merchant accepts it. It is valued at the rate the
// invoice locked for the same coin or token, when the invoice offered it on another chain
// (wrong_network); else at the rate now (wrong_asset): the shopper chose that asset, the merchant
// chooses to take it. From then on it is a payment like any other: the state machine counts it,
// and the settlement credits it on its own chain, swept from the address it was sent to to the
// app's payout address of its method (settlement.ts). An app with no payout address for that
// method has nowhere to sweep it: it must add the method first. A settled or invalid invoice
// takes no more payments: such a payment is refunded instead.

/** The payment and what its acceptance depends on, as it is now. */
async function acceptance(db: Executor, appId: string, invoiceId: string, paymentId: string) {
  const row = await db
    .selectFrom('invoice_payments as p')
    .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
    .innerJoin('payment_methods as pm', 'pm.id', 'p.payment_method_id')
    .leftJoin('app_payment_methods as apm', (join) =>
      join
        .onRef('apm.app_id', '=', 'p.app_id')
        .onRef('apm.payment_method_id', '=', 'p.payment_method_id'),
    )
    .select([
      'p.flag',
      'p.accepted_at',
      'p.status',
      'p.amount_raw',
      'pm.decimals',
      'pm.name as asset',
      (eb) => eb.fn.coalesce('pm.code', 'pm.name').as('method'),
      'i.status as invoice_status',
      'i.currency',
      'apm.id as payout',
    ])
    .where('p.id', '=', paymentId)
    .where('p.invoice_id', '=', invoiceId)
    .where('p.app_id', '=', appId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(STRAY_MSG.notFound(paymentId, invoiceId));
  if (row.flag === null || row.accepted_at !== null) {
    throw new ConflictError(STRAY_MSG.counted);
  }
  if (row.status === 'removed') {
    throw new ConflictError(STRAY_MSG.reorged);
  }
  if (!(ACCEPTS_PAYMENTS_IN as readonly string[]).includes(row.invoice_status)) {
    throw new InvoiceStateRefusal(row.invoice_status, STRAY_MSG.takesNoMore(row.invoice_status));
  }
  if (row.payout === null) {
    throw new InvalidError(STRAY_MSG.addMethod(row.method));
  }
  return row;
}

/** Accepts the flagged payment `paymentId` toward invoice `invoiceId`; answers the invoice. */
export async function acceptPayment(
  db: Db,
  rates: RateBook,
  appId: string,
  invoiceId: string,
  paymentId: string,
  now: Date,
): Promise<Awaited<ReturnType<typeof getInvoice>>> {
  // Refused before the rate is read, and the rate read before the lock (a source may be slow);
  // checked again under the lock, where it is decided.
  const asked = await acceptance(db, appId, invoiceId, paymentId);
  const offered = await db
    .selectFrom('invoice_payment_options as o')
    .innerJoin('payment_methods as pm', 'pm.id', 'o.payment_method_id')
    .select('o.rate')
    .where('o.invoice_id', '=', invoiceId)
    .where('pm.name', '=', asked.asset)
    .orderBy('o.position')
    .executeTakeFirst();
  const rate = offered?.rate ?? (await rates.rateOf(asked.asset, asked.currency, now)).rate;

  await db.transaction().execute(async (trx) => {
    await lockInvoice(trx, invoiceId);
    const row = await acceptance(trx, appId, invoiceId, paymentId);
    await trx
      .updateTable('invoice_payments')
      .set({
        accepted_at: now.toISOString(),
        value: formatDecimal(
          multiply(fromUnits(BigInt(row.amount_raw), row.decimals), parseDecimal(rate)),
        ),
      })
      .where('id', '=', paymentId)
      .execute();
    await advanceInvoice(trx, appId, invoiceId, now);
  });
  return getInvoice(db, appId, invoiceId);
}
