import { createTestClient, http, parseUnits, type Address } from 'viem';
import { addUser } from '../../../test/accounts';
import {
  eventTypesOf,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../../test/appRows';
import { startFaultProxy, type FaultProxy } from '../../../test/chain/faultProxy';
import { startLocalNode, type LocalNode } from '../../../test/chain/localNode';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { chainAdapterFor } from '../chain';
import { resolveWalletXpub } from '../chain/walletKey';
import { watchDeposits } from '../payments/deposits';
import { RateBook } from '../rates/rates';
import { setTableRate } from '../rates/table';
import { expireInvoices } from './expiry';
import { createInvoice, getInvoice } from './invoices';

// An outage of the gateway's only RPC provider for the whole life of an invoice: a Hardhat node
// stands in for BNB Smart Chain, reached through a fault proxy that vanishes from its port and
// comes back. The shopper's wallet reaches the chain another way and pays. The server's clock
// passes the expiry while the watcher cannot read; the invoice must wait for the chain's clock.

jest.setTimeout(180_000);

const usdt = (amount: string) => parseUnits(amount, 18);
const MINUTE = 60_000;

let node: LocalNode;
let token: Address;
let provider: FaultProxy;
let t: TestApp;
beforeAll(async () => {
  node = await startLocalNode();
  token = await node.deployToken(18, usdt('1000000'));
  provider = await startFaultProxy(node.url);
  t = await createTestApp({ env: { CHAIN_RPC_URL: provider.url, USDT_CONTRACT: token } });
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
  await node?.stop();
});

const chain = () => chainAdapterFor(t.config, t.db, 56);
const watch = () => watchDeposits(t.db, chain(), t.clock());
/** The time of the chain's newest block. */
async function chainTime(): Promise<Date> {
  const block = await node.publicClient.getBlock();
  return new Date(Number(block.timestamp) * 1000);
}
/** The chain's clock moves on (its next block is `seconds` later). */
async function passOnChain(seconds: number): Promise<void> {
  await createTestClient({ mode: 'hardhat', transport: http(node.url) }).increaseTime({ seconds });
  await node.mine(1);
}

let serial = 0;
/** 49.90 EUR (53.9 USDT BEP20), expiring in 5 minutes, made at the chain's present. */
async function newInvoice() {
  serial += 1;
  const userId = await addUser(t, `outage_${serial}`);
  const appId = `app_outage_${serial}`;
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: `apm_outage_${serial}`, app_id: appId });
  const invoice = await createInvoice(
    t.db,
    new RateBook({ db: t.db, config: t.config }),
    resolveWalletXpub(t.config),
    {
      appId,
      amount: '49.90',
      currency: 'EUR',
      expiresIn: 300,
      checkoutOrigin: 'https://pay.example.com',
      now: t.clock(),
      tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
    },
  );
  return {
    appId,
    id: invoice.id,
    address: (invoice.payment_options[0]?.address ?? '') as Address,
    expiresAt: new Date(invoice.expires_at),
  };
}
const invoice = (i: { appId: string; id: string }) => getInvoice(t.db, i.appId, i.id);

describe('an RPC outage across an invoice’s whole life (Hardhat behind a fault proxy)', () => {
  beforeEach(async () => {
    t.clock.set(await chainTime());
    await watch(); // the watcher is up to date when the invoice is made
  });

  it('settles a payment mined before the expiry and seen after it on time: no invoice.expired, no paid_late', async () => {
    const paid = await newInvoice();
    await provider.vanish();
    // The shopper pays at once, through their own wallet's provider.
    await node.transfer(token, paid.address, usdt('53.9'));
    const minedAt = await chainTime();
    expect(minedAt.getTime()).toBeLessThan(paid.expiresAt.getTime());
    // Ten minutes on, on the chain and on the server: the expiry is past; the watcher cannot read.
    await passOnChain(600);
    await node.mine(14);
    t.clock.set(await chainTime());
    await expect(watch()).rejects.toThrow();
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await invoice(paid)).toMatchObject({ status: 'new', exceptions: [] });

    // The provider is back: the watcher catches up from its cursor.
    await provider.reappear();
    await watch();
    expect(await invoice(paid)).toMatchObject({
      status: 'settled',
      exceptions: [],
      payments: [expect.objectContaining({ late: false, status: 'confirmed' })],
    });
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await eventTypesOf(t, paid.id)).toEqual([
      'invoice.created',
      'invoice.payment_received',
      'invoice.processing',
      'invoice.settled',
    ]);
  });

  it('expires invoices once the chain is read past their expiry; a payment mined after it is paid_late', async () => {
    const late = await newInvoice();
    const unpaid = await newInvoice();
    await provider.vanish();
    // Seven minutes on the chain: two past the expiry, inside the 60-minute late window.
    await passOnChain(420);
    await node.transfer(token, late.address, usdt('53.9'));
    expect((await chainTime()).getTime()).toBeGreaterThan(late.expiresAt.getTime());
    t.clock.set(new Date((await chainTime()).getTime() + MINUTE));
    await expect(watch()).rejects.toThrow();
    expect(await expireInvoices(t.db, t.clock())).toBe(0);
    expect(await invoice(unpaid)).toMatchObject({ status: 'new' });
    expect(await invoice(late)).toMatchObject({ status: 'new' });

    await provider.reappear();
    await watch();
    expect(await invoice(late)).toMatchObject({
      status: 'processing',
      exceptions: ['paid_late'],
      payments: [expect.objectContaining({ late: true })],
    });
    expect(await eventTypesOf(t, late.id)).toEqual([
      'invoice.created',
      'invoice.expired',
      'invoice.payment_received',
      'invoice.processing',
    ]);
    // The watcher has read the chain past the unpaid one's expiry: the job expires it now.
    expect(await expireInvoices(t.db, t.clock())).toBe(1);
    expect(await invoice(unpaid)).toMatchObject({ status: 'expired', exceptions: [] });
    expect(await eventTypesOf(t, unpaid.id)).toEqual(['invoice.created', 'invoice.expired']);
  });
});
