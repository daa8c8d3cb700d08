import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { parseDecimal, toUnits } from '../decimal';
import { loadInvoices } from './invoices';
import { invoiceView, paymentUri } from './views';

// What the public checkout page (/pay/{id}) may read of an invoice: the invoice as the gateway
// shows it, the app's name and logo and each method's names and confirmations. No session: an
// invoice id (128 random bits) is the only key, so nothing of the merchant's account beyond the
// app's name and logo leaves here, and the page itself picks what it shows.

/** A method of the invoice as a shopper needs to know it. */
export interface CheckoutMethod {
  code: string;
  /** The coin or token: USDT, BNB, ... */
  asset: string;
  /** The network by name: BNB Smart Chain, Ethereum, ... */
  network: string;
  /** Blocks on top of a payment before it is final. */
  confirmations: number;
}

export interface CheckoutInvoice {
  invoice: ReturnType<typeof invoiceView>;
  /** The invoice's app: the checkout's test helpers pay as that app. */
  appId: string;
  appName: string;
  /** The app's logo, a stored image's file name (public by name), or null. */
  appLogo: string | null;
  /** False for a test app's invoice: its page says no real money moves. */
  livemode: boolean;
  methods: ReadonlyMap<string, CheckoutMethod>;
  /**
   * Per method code, the EIP-681 request for what is still due (the option's `payment_uri` asks
   * for the whole amount; after a partial payment the wallet must ask for the rest).
   */
  dueUris: ReadonlyMap<string, string | null>;
}

const invoiceApp = prepared({ id: '' }, (db, p) =>
  db.selectFrom('invoices').select('app_id').where('id', '=', p.id),
);

/** The app of invoice `id` (an invoice's app never changes), or undefined when there is none. */
export async function appOfInvoice(db: Db, id: string): Promise<string | undefined> {
  const [row] = await invoiceApp(db, { id });
  return row?.app_id;
}

/** The invoice `id` with what its checkout shows, or undefined when there is none. */
export async function checkoutInvoice(db: Db, id: string): Promise<CheckoutInvoice | undefined> {
  const owner = await db
    .selectFrom('invoices as i')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .select(['i.app_id', 'a.app_name', 'a.logo', 'a.livemode'])
    .where('i.id', '=', id)
    .executeTakeFirst();
  if (!owner) return undefined;
  const [record] = await loadInvoices(db, owner.app_id, [id]);
  if (!record) return undefined;
  const rows = await db
    .selectFrom('payment_methods')
    .select(['id', 'code', 'name', 'network_name', 'confirmations'])
    .where(
      'id',
      'in',
      record.options.map((o) => o.payment_method_id),
    )
    .execute();
  const methods = new Map(
    rows.map((m) => [
      m.code ?? m.id,
      {
        code: m.code ?? m.id,
        asset: m.name,
        network: m.network_name,
        confirmations: m.confirmations,
      },
    ]),
  );
  const invoice = invoiceView(record);
  const dueUris = new Map(
    record.options.map((option, i) => {
      const due = invoice.payment_options[i]?.due ?? '0';
      return [
        option.method_code,
        paymentUri(option, toUnits(parseDecimal(due), option.decimals, 'up')),
      ] as const;
    }),
  );
  return {
    invoice,
    appId: owner.app_id,
    appName: owner.app_name,
    appLogo: owner.logo,
    livemode: owner.livemode !== 0,
    methods,
    dueUris,
  };
}

/**
 * For each invoice of `ids` that exists, a text that changes whenever anything its checkout shows
 * changes (status, flags, a payment seen, removed or one more confirmation): one query for any
 * number of invoices, what the checkout's status feed asks once a tick.
 */
export async function checkoutFingerprints(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const prints = new Map<string, string>();
  // Bound parameters per statement stay well under SQLite's and PostgreSQL's limits.
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const rows = await db
      .selectFrom('invoices as i')
      .leftJoin('invoice_payments as p', 'p.invoice_id', 'i.id')
      .select((eb) => [
        'i.id',
        'i.status',
        'i.updated_at',
        eb.fn.count<number | string>('p.id').as('payments'),
        eb.fn.coalesce(eb.fn.sum<number | string>('p.confirmations'), eb.val(0)).as('depth'),
        eb.fn
          .sum<number | string>(eb.case().when('p.status', '=', 'removed').then(1).else(0).end())
          .as('removed'),
      ])
      .where('i.id', 'in', chunk)
      .groupBy(['i.id', 'i.status', 'i.updated_at'])
      .execute();
    for (const r of rows) {
      prints.set(
        r.id,
        [r.status, r.updated_at, Number(r.payments), Number(r.depth), Number(r.removed ?? 0)].join(
          '|',
        ),
      );
    }
  }
  return prints;
}
