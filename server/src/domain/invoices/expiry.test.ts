import { parseUnits } from 'viem';
import { addUser } from '../../../test/accounts';
import {
  eventTypesOf,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../chain/localAdapter';
import { specUsdt } from '../chain/specChains';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { expireInvoices } from './expiry';
import { createInvoice, getInvoice } from './invoices';

// The expiry by the chain's clock, on the local chain: while the watcher has not read the chain
// past an invoice's expiry, the invoice stays new whatever the server's clock says; a payment
// mined before the expiry and seen after it settles the invoice on time. One mined after it is
// late as ever, and an invoice waits for a stuck watcher only so long.

const USDT = specUsdt(56)?.contract ?? '';
const MINUTE = 60_000;

describe('invoices expire by the chain clock', () => {
  const t = testAppPerBlock();
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
  });

  const chain = () => chainAdapterFor(t.config, t.db, 56);
  /** The watcher's pass, at the server's time. */
  const watch = () => watchDeposits(t.db, chain(), t.clock());
  /** A transfer mined at `at` (the watcher, if down, does not see it). */
  const pay = (to: string, usdt: string, at: Date = t.clock()) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token: chain().tokenContract(USDT),
      to,
      amount: parseUnits(usdt, 18),
      createdAt: at.toISOString(),
    });

  /** 49.90 EUR (53.9 USDT BEP20), expiring in 15 minutes; the watcher has read the chain. */
  async function newInvoice() {
    serial += 1;
    const userId = await addUser(t, `clocked_${serial}`);
    await insertSubscription(t, userId);
    const appId = `app_clock_${serial}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_clock_${serial}`, app_id: appId });
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId,
        amount: '49.90',
        currency: 'EUR',
        expiresIn: 900,
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
      },
    );
    await watch();
    return { appId, id: invoice.id, address: invoice.payment_options[0]?.address ?? '' };
  }

  it('keeps an invoice open while the chain is unread past its expiry; paid before it, it settles on time', async () => {
    const { appId, id, address } = await newInvoice();
    // The watcher is down from here on. The shopper pays at minute 10, before the expiry.
    t.clock.advance(10 * MINUTE);
    await pay(address, '53.9');
    t.clock.advance(20 * MINUTE); // minute 30: the expiry (minute 15) has passed on the server
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'new', exceptions: [] });

    // The watcher is back and reads on: the payment counts, on time.
    await watch();
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'processing',
      exceptions: [],
    });
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    await mineLocalBlocks(t.db, 14);
    await watch();
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'settled', exceptions: [] });
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);
  });

  it('expires an unpaid invoice once the watcher has read the chain past its expiry', async () => {
    const { appId, id } = await newInvoice();
    t.clock.advance(20 * MINUTE);
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'new' });
    await watch();
    expect(await expireInvoices(t.db, t.clock())).toBe(1);
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'expired', exceptions: [] });
    expect(await eventTypesOf(t, id)).toEqual(['invoice.created', 'invoice.expired']);
  });

  it('a payment mined after the expiry while the watcher was down: expired first, then paid_late', async () => {
    const { appId, id, address } = await newInvoice();
    t.clock.advance(20 * MINUTE);
    await pay(address, '53.9'); // minute 20: five minutes late, in the late window
    t.clock.advance(5 * MINUTE);
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    await watch();
    expect(await getInvoice(t.db, appId, id)).toMatchObject({
      status: 'processing',
      exceptions: ['paid_late'],
    });
    expect(await eventTypesOf(t, id)).toEqual([
      'invoice.created',
      'invoice.expired',
      'invoice.payment_received',
      'invoice.processing',
    ]);
  });

  it('expires an invoice anyway once its chain has been unread for the longest wait', async () => {
    const { appId, id } = await newInvoice();
    const maxWaitMinutes = 60;
    t.clock.advance(60 * MINUTE); // minute 60: 45 minutes past the expiry
    expect(await expireInvoices(t.db, t.clock(), { maxWaitMinutes })).toBe(0);
    t.clock.advance(15 * MINUTE); // minute 75: an hour past it
    expect(await expireInvoices(t.db, t.clock(), { maxWaitMinutes })).toBe(1);
    expect(await getInvoice(t.db, appId, id)).toMatchObject({ status: 'expired' });
    // The default wait is a day: an invoice unread for less stays open.
    const other = await newInvoice();
    t.clock.advance(24 * 60 * MINUTE); // a day since it was made: 15 minutes short of the wait
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await getInvoice(t.db, other.appId, other.id)).toMatchObject({ status: 'new' });
    t.clock.advance(15 * MINUTE);
    expect(await expireInvoices(t.db, t.clock())).toBe(1);
    expect(await getInvoice(t.db, other.appId, other.id)).toMatchObject({ status: 'expired' });
  });
});
