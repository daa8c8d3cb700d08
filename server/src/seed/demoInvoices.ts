import type { Db } from '../db/connection';
import {
  LocalChainAdapter,
  mineLocalBlocks,
  recordLocalTransfer,
} from '../domain/chain/localAdapter';
import { expireInvoices } from '../domain/invoices/expiry';
import { cancelInvoice, createInvoice, markInvoice } from '../domain/invoices/invoices';
import { decimalToMicro } from '../domain/money';
import { gasBalanceReader } from '../domain/chain/balances';
import { watchDeposits } from '../domain/payments/deposits';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { RateBook } from '../domain/rates/rates';
import { requestRefund } from '../domain/refunds/refunds';
import type { RequestSigner } from '../signer/client/requestMac';
import type { DemoGateway } from './demoApps';

// The demo store's invoices, one or more in each status the Invoices tab shows, made as a
// merchant's would be: created through the domain (priced in USD, paid in USDT on the local
// chain at the peg), paid by transfers on the local chain, the method's confirmations mined, and
// the watcher and the expiry job run at the moments they would have run. Nothing is left half
// done for the running server but the newest partial payment's confirmations (no status changes
// with them), so the demo's figures are the same at every start. A processing invoice lasts
// seconds on the local chain: the demo has none. The overpaid invoice's excess is being given
// back: a refund asked through the domain, its claim link waiting for the shopper.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const METHOD = 'USDT-BEP20';
/** The demo invoice paid more than its price, whose excess is refunded. */
const OVERPAID = 'ORD-5003';

interface DemoInvoice {
  orderId: string;
  amount: string;
  description: string;
  /** When it was created, before now. */
  ago: number;
  /** Seconds from creation to expiry. */
  expiresIn: number;
  /** Payments in USDT, each at some minutes after creation. */
  payments: { usdt: string; after: number }[];
  /** What the merchant did to it afterwards. */
  then?: 'cancel' | { mark: 'settled' | 'invalid'; reason: string; after: number };
}

const DEMO_INVOICES: DemoInvoice[] = [
  {
    orderId: 'ORD-5001',
    amount: '49.90',
    description: 'Wireless headphones',
    ago: 3 * DAY,
    expiresIn: 900,
    payments: [{ usdt: '49.9', after: 4 }],
  },
  {
    orderId: 'ORD-5002',
    amount: '120.00',
    description: 'Mechanical keyboard',
    ago: 2 * DAY + 5 * HOUR,
    expiresIn: 900,
    // Two goes: an exchange's withdrawal, then the rest from a wallet.
    payments: [
      { usdt: '70', after: 3 },
      { usdt: '50', after: 9 },
    ],
  },
  {
    orderId: 'ORD-5003',
    amount: '15.00',
    description: 'USB-C cable',
    ago: 2 * DAY,
    expiresIn: 900,
    payments: [{ usdt: '15.5', after: 6 }],
  },
  {
    orderId: 'ORD-5004',
    amount: '89.00',
    description: 'Desk lamp',
    ago: 36 * HOUR,
    expiresIn: 900,
    // After the expiry, inside the app's late window (60 minutes): settled, paid late.
    payments: [{ usdt: '89', after: 40 }],
  },
  {
    orderId: 'ORD-5005',
    amount: '240.00',
    description: 'Office chair',
    ago: 30 * HOUR,
    expiresIn: 900,
    payments: [{ usdt: '200', after: 7 }],
  },
  {
    orderId: 'ORD-5006',
    amount: '35.00',
    description: 'Phone case',
    ago: 26 * HOUR,
    expiresIn: 900,
    payments: [],
  },
  {
    orderId: 'ORD-5007',
    amount: '60.00',
    description: 'Webcam',
    ago: 20 * HOUR,
    expiresIn: 900,
    payments: [{ usdt: '55', after: 5 }],
    then: {
      mark: 'settled',
      reason: 'The customer paid the remaining 5.00 USD in store.',
      after: 120,
    },
  },
  {
    orderId: 'ORD-5008',
    amount: '18.00',
    description: 'Mouse pad',
    ago: 6 * HOUR,
    expiresIn: 3600,
    payments: [],
    then: 'cancel',
  },
  {
    orderId: 'ORD-5009',
    amount: '150.00',
    description: 'Monitor stand',
    ago: 50 * MINUTE,
    expiresIn: 86_400,
    payments: [{ usdt: '100', after: 12 }],
  },
  {
    orderId: 'ORD-5010',
    amount: '75.00',
    description: 'Laptop sleeve',
    ago: 8 * MINUTE,
    expiresIn: 86_400,
    payments: [],
  },
];

/** The demo app's invoices, in the order they happened; `now` is the seed's clock. */
export async function seedDemoInvoices(
  db: Db,
  gateway: DemoGateway,
  appId: string,
  now: number,
  sign: RequestSigner,
): Promise<void> {
  const chain = new LocalChainAdapter(db);
  const rates = new RateBook({ db, config: gateway.rates });
  const method = await db
    .selectFrom('payment_methods')
    .select('confirmations')
    .where('code', '=', METHOD)
    .executeTakeFirstOrThrow();
  const made = new Map<string, string>();
  // Invoices expire once the chain has been read past their expiry: the watcher's pass first.
  const expireOn = async (at: Date) => {
    await watchDeposits(db, chain, at);
    await expireInvoices(db, at);
  };
  for (const demo of DEMO_INVOICES) {
    const created = now - demo.ago;
    const invoice = await createInvoice(db, rates, gateway.xpub, {
      appId,
      amount: demo.amount,
      currency: 'USD',
      methods: [METHOD],
      orderId: demo.orderId,
      description: demo.description,
      expiresIn: demo.expiresIn,
      checkoutOrigin: gateway.origin,
      now: new Date(created),
      tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
    });
    made.set(demo.orderId, invoice.id);
    const address = invoice.payment_options[0]?.address;
    if (!address) throw new Error(`The demo invoice ${demo.orderId} has no address`);
    const expiry = created + demo.expiresIn * 1000;
    for (const [i, payment] of demo.payments.entries()) {
      const at = created + payment.after * MINUTE;
      // The watcher's and the expiry job's passes that would have run before this payment.
      if (at > expiry) await expireOn(new Date(expiry + MINUTE));
      await recordLocalTransfer(db, {
        to: address,
        amountMicro: decimalToMicro(payment.usdt),
        createdAt: new Date(at).toISOString(),
      });
      await watchDeposits(db, chain, new Date(at + MINUTE));
      const last = i === demo.payments.length - 1;
      if (last && now - at > HOUR) {
        await mineLocalBlocks(db, method.confirmations);
        await watchDeposits(db, chain, new Date(at + 5 * MINUTE));
      }
    }
    // The merchant's action and the expiry job's pass, in the order they happened.
    const then = demo.then;
    const act = async () => {
      if (then === 'cancel') {
        await cancelInvoice(db, appId, invoice.id, new Date(created + 10 * MINUTE));
      } else if (then) {
        const at = new Date(created + then.after * MINUTE);
        await markInvoice(db, appId, invoice.id, { status: then.mark, reason: then.reason }, at);
      }
    };
    const actsFirst =
      then === 'cancel' || (then !== undefined && created + then.after * MINUTE < expiry);
    if (actsFirst) await act();
    if (expiry < now) await expireOn(new Date(expiry + MINUTE));
    if (!actsFirst) await act();
  }
  const overpaid = made.get(OVERPAID);
  if (!overpaid) throw new Error(`The demo has no invoice ${OVERPAID}`);
  // A refund is paid from the app's operational wallet: the job that makes it has run by then.
  await provisionGasAddresses(db, gateway.xpub);
  await requestRefund(db, {
    appId,
    invoiceId: overpaid,
    amountKind: 'overpaid',
    reason: 'You paid 0.5 USDT more than the price: here it is back.',
    now: new Date(now - 2 * HOUR),
    rates,
    tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
    origin: gateway.origin,
    serverKey: gateway.serverKey,
    sign,
    // The demo's chain is the local one: no RPC to read balances over.
    readerFor: (trx) =>
      gasBalanceReader(
        {
          chainRpcUrl: undefined,
          usdtContract: undefined,
          chainRpcUrls: new Map(),
          chainTokenContracts: new Map(),
        },
        chain,
        trx,
      ),
  });
}
