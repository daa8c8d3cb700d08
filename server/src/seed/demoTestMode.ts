import type { Db } from '../db/connection';
import { hashApiKey, KEY_PREFIX, TOKEN_PERMISSIONS } from '../domain/apps/apiKeys';
import { LocalChainAdapter } from '../domain/chain/localAdapter';
import { createInvoice } from '../domain/invoices/invoices';
import { watchDeposits } from '../domain/payments/deposits';
import { RateBook } from '../domain/rates/rates';
import { confirmPayment, simulatePayment } from '../domain/testMode/simulations';
import { openTestMode } from '../domain/testMode/testApps';
import type { RequestSigner } from '../signer/client/requestMac';
import type { DemoGateway } from './demoApps';

// The Demo Store's test mode, so that docs/gateway.md's quick start needs no chain and no key to
// make: a published test key, and test invoices made and paid through the test helpers' own
// code (one settled, one waiting for the reader's first simulated payment).

/**
 * The demo's test key, published in docs/gateway.md: a test key moves no real money, and where
 * the demo is not seeded (production) an earlier version's copy is revoked (seed/index.ts).
 */
export const DEMO_TEST_KEY = `${KEY_PREFIX.test}demo0store0quick0start0key0000000`;
export const DEMO_TEST_KEY_ID = 'key_demo_test';

/** The test network of the demo's USDT (BEP20): BNB Smart Chain Testnet, on the local chain. */
const TEST_CHAIN = 97;
const MINUTE = 60_000;
const DAY = 86_400_000;

export async function seedDemoTestMode(
  db: Db,
  input: {
    userId: string;
    liveAppId: string;
    gateway: DemoGateway | undefined;
    now: number;
    sign: RequestSigner;
  },
): Promise<void> {
  const { now } = input;
  const opened = new Date(now - 20 * DAY).toISOString();
  const testApp = await openTestMode(db, input.userId, input.liveAppId, opened, input.sign);
  await db
    .insertInto('api_keys')
    .values({
      id: DEMO_TEST_KEY_ID,
      app_id: testApp.id,
      token_name: 'Quick start (test)',
      token_hash: hashApiKey(DEMO_TEST_KEY),
      token_prefix: DEMO_TEST_KEY.slice(0, KEY_PREFIX.test.length + 6),
      abilities: JSON.stringify(TOKEN_PERMISSIONS.map((p) => p.value)),
      created_at: opened,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  // Test invoices need the test network on the local chain (no CHAIN_RPC_URLS entry for 97).
  const gateway = input.gateway;
  if (!gateway?.testLocalChain) return;

  const chain = new LocalChainAdapter(db, TEST_CHAIN);
  const local = new Map([[TEST_CHAIN, chain]]);
  const rates = new RateBook({ db, config: gateway.rates });
  const invoice = (orderId: string, amount: string, at: number, expiresIn: number) =>
    createInvoice(db, rates, gateway.xpub, {
      appId: testApp.id,
      amount,
      currency: 'USD',
      // Priced in USDT alone: the demo has no TRX rate (nor do its live invoices).
      methods: ['USDT-BEP20'],
      orderId,
      description: 'A test order',
      expiresIn,
      checkoutOrigin: gateway.origin,
      now: new Date(at),
      tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
    });

  // Paid in full and confirmed at once, as a developer's first test run does.
  const paidAt = now - 2 * DAY;
  const settled = await invoice('TEST-1001', '25', paidAt, 3600);
  const payment = await simulatePayment(db, local, {
    appId: testApp.id,
    invoiceId: settled.id,
    scenario: 'full',
    now: new Date(paidAt + MINUTE),
  });
  await watchDeposits(db, chain, new Date(paidAt + 2 * MINUTE));
  await confirmPayment(db, local, { appId: testApp.id, txHash: payment.txHash });
  await watchDeposits(db, chain, new Date(paidAt + 3 * MINUTE));
  // Open for a day from the first start, for a simulated payment from the portal or the API.
  await invoice('TEST-1002', '12.5', now - MINUTE, 86_400);
}
