import { parseEther, parseUnits } from 'viem';
import type { Db } from '../src/db/connection';
import { chainAdapterFor } from '../src/domain/chain';
import { gasBalanceReader } from '../src/domain/chain/balances';
import { mineLocalBlocks, recordLocalChainTransfer } from '../src/domain/chain/localAdapter';
import { specUsdt } from '../src/domain/chain/specChains';
import { resolveWalletXpub } from '../src/domain/chain/walletKey';
import { createInvoice, getInvoice } from '../src/domain/invoices/invoices';
import { provisionGasAddresses } from '../src/domain/payments/gasProvisioner';
import { watchDeposits } from '../src/domain/payments/deposits';
import { RateBook } from '../src/domain/rates/rates';
import { setTableRate } from '../src/domain/rates/table';
import { requestRefund } from '../src/domain/refunds/refunds';
import { requestSigner } from '../src/signer/client/requestMac';
import { addUser } from './accounts';
import { insertApp, insertAppMethod, insertSubscription } from './appRows';
import type { TestApp } from './testApp';

// Refunds made the way the gateway makes them: an invoice paid in USDT (BEP20) on the local
// chain and settled through the deposit watcher, then refunded in full with a claim link.

/** Where the local chain has BNB Smart Chain's USDT. */
const USDT = specUsdt(56)?.contract ?? '';

/** The pieces a refund's request and claim take, on the test app's local chain. */
export function refundDeps(t: Pick<TestApp, 'db' | 'config'>) {
  const chain = (db: Db = t.db) => chainAdapterFor(t.config, db, 56);
  return {
    /** The local chain's BNB Smart Chain USDT contract. */
    usdt: chain().tokenContract(USDT),
    tokenOnChain: (_chainId: number, listed: string) => chain().tokenContract(listed),
    readerFor: (db: Db) => gasBalanceReader(t.config, chain(db), db),
    sign: requestSigner(t.config.signerRequestKey),
    chain,
  };
}

/**
 * A merchant `app_<tag>` (named `appName`) whose invoice of 49.90 EUR was paid 53.9 USDT and
 * settled, refunded in full with a claim link (reason "The mug arrived broken"); its operational
 * wallet holds 1 BNB and 100 USDT unless `funded` is false.
 */
export async function settledRefundLink(
  t: TestApp,
  tag: string,
  options: { funded?: boolean; appName?: string } = {},
) {
  const deps = refundDeps(t);
  const mint = (token: string | null, to: string, amount: bigint) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token,
      to,
      amount,
      createdAt: t.clock().toISOString(),
    });
  const userId = await addUser(t, `refunder_${tag}`);
  await insertSubscription(t, userId);
  const appId = `app_${tag}`;
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  if (options.appName !== undefined) {
    await t.db
      .updateTable('apps')
      .set({ app_name: options.appName })
      .where('id', '=', appId)
      .execute();
  }
  await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no operational wallet');
  if (options.funded !== false) {
    await mint(null, gas, parseEther('1'));
    await mint(deps.usdt, gas, parseUnits('100', 18));
  }
  await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
  const rates = new RateBook({ db: t.db, config: t.config });
  const invoice = await createInvoice(t.db, rates, resolveWalletXpub(t.config), {
    appId,
    amount: '49.90',
    currency: 'EUR',
    expiresIn: 900,
    checkoutOrigin: 'https://pay.example.com',
    now: t.clock(),
    tokenOnChain: deps.tokenOnChain,
  });
  const paidTo = invoice.payment_options[0]?.address ?? '';
  await mint(deps.usdt, paidTo, parseUnits('53.9', 18));
  await watchDeposits(t.db, deps.chain(), t.clock());
  await mineLocalBlocks(t.db, 15, 56);
  await watchDeposits(t.db, deps.chain(), t.clock());
  const settled = await getInvoice(t.db, appId, invoice.id);
  if (settled.status !== 'settled') throw new Error(`invoice ${settled.status}, not settled`);
  const made = await requestRefund(t.db, {
    appId,
    invoiceId: invoice.id,
    amountKind: 'full',
    reason: 'The mug arrived broken',
    now: t.clock(),
    origin: 'https://pay.example.com',
    serverKey: t.config.secretKey,
    rates,
    sign: deps.sign,
    tokenOnChain: deps.tokenOnChain,
    readerFor: deps.readerFor,
  });
  const token = made.claimUrl?.split('/refund/')[1] ?? '';
  return { appId, id: made.refund.id, token, gas, paidTo };
}
