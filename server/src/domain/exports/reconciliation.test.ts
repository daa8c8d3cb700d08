import { parse } from 'csv-parse/sync';
import { parseEther, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { registerApp, startTestSigner, type TestSigner } from '../../../test/signer';
import { createTestApp, type TestApp } from '../../../test/testApp';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../chain/localAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { createInvoice, getInvoice } from '../invoices/invoices';
import { openAccount } from '../payments/accounts';
import { completeDeposits, followCompletedSweeps } from '../payments/depositCompletion';
import { watchDeposits } from '../payments/deposits';
import { provisionGasAddresses } from '../payments/gasProvisioner';
import { RateBook } from '../rates/rates';
import { exportCsv, planExport } from './stream';

// The reconciliation export on the local chain, every row made by the gateway's own paths: an
// account's deposit and an invoice's payments seen by the watcher, credited, and swept by the
// signer (the fee leg to the gateway, the rest to the payout address), each row saying how far
// it got and leaving empty what has not happened yet.

// Each pass reads and writes the chain tables: slow on PostgreSQL on a busy machine.
jest.setTimeout(120_000);

const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
const PAYOUT = privateKeyToAddress(`0x${'51'.repeat(32)}`);
const FEE_ADDRESS = privateKeyToAddress(`0x${'77'.repeat(32)}`);
const APP = 'app_recon';

let t: TestApp;
let signer: TestSigner;
let accountId = '';
let accountAddress = '';

beforeAll(async () => {
  t = await createTestApp();
  signer = await startTestSigner(t, { feeAddress: FEE_ADDRESS });
  const userId = await addUser(t, 'recon_merchant');
  await insertApp(t, { id: APP, user_id: userId, created_at: t.clock().toISOString() });
  await insertSubscription(t, userId); // Starter: 1 % fee
  await insertAppMethod(t, { id: 'apm_recon', app_id: APP });
  await t.db
    .updateTable('app_payment_methods')
    .set({ collect_address: PAYOUT })
    .where('id', '=', 'apm_recon')
    .execute();
  const xpub = resolveWalletXpub(t.config);
  await provisionGasAddresses(t.db, xpub);
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('id', '=', 'apm_recon')
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  await mint(null, gas, parseEther('1'));
  const { account } = await openAccount(t.db, xpub, {
    appId: APP,
    uniqueId: 'customer-7',
    code: 'USDT-BEP20',
    now: t.clock(),
  });
  accountAddress = account.address;
  ({ id: accountId } = await t.db
    .selectFrom('app_accounts')
    .select('id')
    .where('app_id', '=', APP)
    .where('address', '=', accountAddress)
    .executeTakeFirstOrThrow());
  await registerApp(t, signer, APP);
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
});

function mint(token: string | null, to: string, amount: bigint) {
  return recordLocalChainTransfer(t.db, {
    chainId: 56,
    token,
    to,
    amount,
    createdAt: t.clock().toISOString(),
  });
}

const chain = () => chainAdapterFor(t.config, t.db, 56);
const watch = () => watchDeposits(t.db, chain(), t.clock());
const later = (ms: number) => t.clock.set(new Date(t.clock().getTime() + ms));

/** The export's records, as an accountant's spreadsheet reads them: one object per row. */
async function exported(range: { from?: string } = {}): Promise<Record<string, string>[]> {
  const plan = planExport({ kind: 'reconciliation', ...range });
  let text = '';
  for await (const piece of exportCsv({ db: t.db, ownerId: APP, feeLeg: true }, plan, {
    bom: false,
  })) {
    text += piece;
  }
  return parse(text, { columns: true }) as Record<string, string>[];
}

/** Runs the completion job until nothing moves (the local chain mines at once). */
async function sweepAll() {
  for (let i = 0; i < 6; i += 1) await completeDeposits(t.db, signer.client, t.clock());
}

const txHash = expect.stringMatching(/^0x[0-9a-f]{64}$/);

describe('the reconciliation export', () => {
  let depositId = '';
  let invoiceId = '';

  it("follows an account's deposit from its arrival to its sweep, empty cells for steps ahead", async () => {
    await mint(BSC_USDT, accountAddress, parseUnits('100', 18));
    await watch();
    const [seen] = await exported();
    expect(seen).toMatchObject({
      livemode: 'yes',
      method: 'USDT-BEP20',
      chain_id: '56',
      amount: '100',
      tx_hash: txHash,
      invoice_id: '',
      account_id: accountId,
      unique_id: 'customer-7',
      status: 'received',
      fee_amount: '',
      fee_tx_hash: '',
      sweep_tx_hash: '',
      swept_at: '',
      payout_amount: '',
      payout_address: '',
      final_at: '',
    });
    depositId = seen?.deposit_id ?? '';
    expect(seen?.id).toBe(depositId);

    await mineLocalBlocks(t.db, 15, 56);
    await watch();
    expect((await exported())[0]).toMatchObject({ id: depositId, status: 'confirmed' });

    await sweepAll();
    const [swept] = await exported();
    const deposit = await t.db
      .selectFrom('receive_transactions')
      .select(['collect_txid', 'process_datetime'])
      .where('id', '=', depositId)
      .executeTakeFirstOrThrow();
    const fee = await t.db
      .selectFrom('chain_txs')
      .select('tx_hash')
      .where('ref_id', '=', depositId)
      .where('purpose', '=', 'sweep_fee')
      .executeTakeFirstOrThrow();
    expect(swept).toMatchObject({
      id: depositId,
      status: 'swept',
      fee_amount: '1',
      fee_tx_hash: fee.tx_hash,
      sweep_tx_hash: deposit.collect_txid,
      swept_at: deposit.process_datetime,
      payout_amount: '99',
      payout_address: PAYOUT,
      final_at: '',
    });
    expect(swept?.fee_tx_hash).not.toBe(swept?.sweep_tx_hash);
  });

  it('marks the row final once the sweep is', async () => {
    await mineLocalBlocks(t.db, 100, 56);
    await followCompletedSweeps(
      {
        db: t.db,
        signer: signer.client,
        head: () => chain().latestBlock(),
      },
      t.clock(),
    );
    const { swept_final_at: finalAt } = await t.db
      .selectFrom('receive_transactions')
      .select('swept_final_at')
      .where('id', '=', depositId)
      .executeTakeFirstOrThrow();
    expect(finalAt).not.toBeNull();
    expect((await exported())[0]).toMatchObject({
      id: depositId,
      status: 'final',
      final_at: finalAt,
    });
  });

  it("has a row per invoice payment, each tied to the invoice's credit and its sweep", async () => {
    later(60_000);
    const since = t.clock().toISOString();
    const invoice = await createInvoice(
      t.db,
      new RateBook({ db: t.db, config: t.config }),
      resolveWalletXpub(t.config),
      {
        appId: APP,
        amount: '30',
        currency: 'USDT',
        orderId: 'order-42',
        expiresIn: 900,
        checkoutOrigin: 'https://pay.example.com',
        now: t.clock(),
        tokenOnChain: (_chainId, listed) => chain().tokenContract(listed),
      },
    );
    invoiceId = invoice.id;
    const address = invoice.payment_options[0]?.address ?? '';
    await mint(BSC_USDT, address, parseUnits('10', 18));
    later(1000);
    await mint(BSC_USDT, address, parseUnits('20', 18));
    await watch();

    const pending = await exported({ from: since });
    expect(pending.map((r) => [r.amount, r.status, r.deposit_id])).toEqual([
      ['20', 'received', ''],
      ['10', 'received', ''],
    ]);
    expect(pending.every((r) => r.invoice_id === invoiceId && r.unique_id === 'order-42')).toBe(
      true,
    );
    expect(pending.every((r) => r.account_id === '' && (r.id ?? '').startsWith('ipay_'))).toBe(
      true,
    );

    await mineLocalBlocks(t.db, 20, 56);
    await watch();
    expect(await getInvoice(t.db, APP, invoiceId)).toMatchObject({ status: 'settled' });
    const credited = await exported({ from: since });
    const creditId = credited[0]?.deposit_id ?? '';
    expect(creditId).toMatch(/^rcv_/);
    // The credit is its payments' rows, not a row of its own.
    expect(credited.map((r) => [r.amount, r.status, r.deposit_id])).toEqual([
      ['20', 'confirmed', creditId],
      ['10', 'confirmed', creditId],
    ]);

    await sweepAll();
    const swept = await exported({ from: since });
    // One sweep of the credit: both payments show its fee and payout, once per sweep_tx_hash.
    expect(swept).toEqual([
      expect.objectContaining({ amount: '20', status: 'swept', fee_amount: '0.3' }),
      expect.objectContaining({ amount: '10', status: 'swept', fee_amount: '0.3' }),
    ]);
    expect(new Set(swept.map((r) => r.sweep_tx_hash)).size).toBe(1);
    expect(swept[0]).toMatchObject({
      sweep_tx_hash: txHash,
      fee_tx_hash: txHash,
      payout_amount: '29.7',
      payout_address: PAYOUT,
    });
  });

  it("lists every payment of the app once, newest first, and none of another app's", async () => {
    const all = await exported();
    expect(all.map((r) => r.id)).toHaveLength(3);
    expect(new Set(all.map((r) => r.id)).size).toBe(3);
    expect(all.at(-1)?.id).toBe(depositId);
    expect(all.slice(0, 2).every((r) => r.invoice_id === invoiceId)).toBe(true);
    const plan = planExport({ kind: 'reconciliation' });
    let other = '';
    for await (const piece of exportCsv({ db: t.db, ownerId: 'app_other', feeLeg: true }, plan, {
      bom: false,
    })) {
      other += piece;
    }
    expect(parse(other)).toHaveLength(1);
  });
});
