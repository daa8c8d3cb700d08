import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEther, parseUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSend, insertSubscription } from '../../test/appRows';
import { credit } from '../../test/moneyFixtures';
import {
  OPERATOR_EMAIL,
  registerApp,
  runRegistrations,
  startTestSigner,
  type TestSigner,
} from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import type { Db } from '../db/connection';
import { chainAdapterFor } from '../domain/chain';
import { gasBalanceReader } from '../domain/chain/balances';
import {
  localBalance,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../domain/chain/localAdapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { readOutbox } from '../domain/mailer';
import { completeDeposits } from '../domain/payments/depositCompletion';
import { watchDeposits } from '../domain/payments/deposits';
import { openAccount } from '../domain/payments/accounts';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { sendWithdrawals } from '../domain/payments/withdrawalSending';
import { macWithdrawalsAtUpgrade, requestWithdrawal } from '../domain/payments/withdrawals';
import { getWithdrawal } from '../domain/payments/withdrawalReads';
import { appDetails } from '../domain/apps/appDetails';
import { purchasePackage, registerPlansAtUpgrade } from '../domain/billing/subscriptions';
import { localChains } from '../domain/payments/testDeposits';
import { withdrawalView } from '../domain/payments/views';
import { requestSigner } from './client/requestMac';
import { runSignerCommand } from './server/commands';
import { SignerStore, signerStoreDir } from './server/store';
import { importSharedSettings } from './server/storeImport';

// The signer takes its authority from no row of the shared database. Whoever can write that
// database (an SQL injection, leaked credentials, a tampered backup, a compromised web process)
// edits an accepted withdrawal, or inserts one nobody asked for: the signer finds the row does
// not match the MAC the web process made when it accepted it, signs nothing, records the refusal
// and alerts the operator and the merchant; the withdrawal ends Unsuccessful (signer_refused) and
// its reservation is released. An honest withdrawal still goes out. Payout addresses and holds
// come from the signer's own store, registered through its socket and held by its own clock:
// clearing the hold columns of the database, or registering an address with valid MACs as a
// compromised web process could, sends no sweep anywhere before the signer's hold ends.

// Each pass reads and writes the chain tables: slow on PostgreSQL on a busy machine.
jest.setTimeout(120_000);

const BSC_USDT = '0x55d398326f99059fF775485246999027B3197955';
const ATTACKER = privateKeyToAddress(`0x${'66'.repeat(32)}`);
const usdt = (amount: string) => parseUnits(amount, 18);

let t: TestApp;
let signer: TestSigner;
beforeAll(async () => {
  t = await createTestApp();
  signer = await startTestSigner(t);
});
afterAll(async () => {
  await signer?.close();
  await t?.close();
});

let serial = 0;
/** A merchant's app with USDT-BEP20, a whitelist, its operational wallet funded with `tokens`. */
async function merchant(tokens = '500') {
  serial += 1;
  const appId = `app_auth${serial}`;
  const methodId = `apm_auth${serial}`;
  const username = `authority_${serial}`;
  const userId = await addUser(t, username);
  await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
  await t.db
    .updateTable('apps')
    .set({ whitelist_ip: '203.0.113.7' })
    .where('id', '=', appId)
    .execute();
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: methodId, app_id: appId });
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const { gas_address: gas } = await t.db
    .selectFrom('app_payment_methods')
    .select('gas_address')
    .where('id', '=', methodId)
    .executeTakeFirstOrThrow();
  if (!gas) throw new Error('no gas address');
  await mint(null, gas, parseEther('1'));
  await mint(BSC_USDT, gas, usdt(tokens));
  await registerApp(t, signer, appId);
  const payee = privateKeyToAddress(`0x${(1200 + serial).toString(16).padStart(64, '0')}`);
  return { appId, userId, methodId, gas, payee, username, email: `${username}@example.com` };
}

function mint(token: string | null, to: string, amount: bigint) {
  return recordLocalChainTransfer(t.db, {
    chainId: 56,
    token,
    to,
    amount,
    createdAt: t.clock().toISOString(),
  });
}

const reader = (db: Db) => gasBalanceReader(t.config, chainAdapterFor(t.config, db, 56), db);

/** The gateway's own path: checked, reserved, MACed, queued (2). */
const withdraw = (appId: string, to: string, amount: string) =>
  requestWithdrawal(t.db, reader, {
    appId,
    uniqueId: `payout-${serial}-${amount}`,
    code: 'USDT-BEP20',
    toAddress: to,
    amount,
    now: t.clock(),
    sign: requestSigner(t.config.signerRequestKey),
  });

/** The withdrawal job's passes; what it counted as signer_refused. */
async function sendPasses(n: number) {
  const refused: string[] = [];
  const deps = {
    db: t.db,
    signer: signer.client,
    head: () => chainAdapterFor(t.config, t.db, 56).latestBlock(),
    signerRefused: (request: string) => refused.push(request),
  };
  for (let i = 0; i < n; i += 1) await sendWithdrawals(deps, t.clock());
  return refused;
}

const withdrawal = (id: string) =>
  t.db
    .selectFrom('send_transactions')
    .select(['status', 'signed_tx', 'tx_hash', 'failure_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** What the signer signed for a row, in both of its records. */
const signedFor = async (id: string) => ({
  chainTxs: await t.db.selectFrom('chain_txs').select('id').where('ref_id', '=', id).execute(),
  signerLog: await t.db.selectFrom('signer_log').select('id').where('ref_id', '=', id).execute(),
});

const refusalsOf = (id: string) =>
  t.db
    .selectFrom('signer_refusals')
    .select(['request', 'app_id', 'reason'])
    .where('ref_id', '=', id)
    .execute();

/** The alert mails about `id`, by recipient. */
const alertsAbout = (id: string) =>
  readOutbox(t.dataDir)
    .filter((m) => m.text.includes(id))
    .map((m) => ({ to: m.to, subject: m.subject }))
    .sort((a, b) => a.to.localeCompare(b.to));

const ALERT = 'Alert: the signer refused a payment it could not trust';

describe('a withdrawal row the gateway did not accept is refused, signed never', () => {
  it('an accepted withdrawal edited in the database (destination and amount): refused, nothing moves', async () => {
    const { appId, gas, payee, email } = await merchant('500');
    const { id } = await withdraw(appId, payee, '2');
    // Whoever writes the database sends it elsewhere, for more.
    await t.db
      .updateTable('send_transactions')
      .set({ to_address: ATTACKER, amount_raw: usdt('50').toString() })
      .where('id', '=', id)
      .execute();
    expect(await sendPasses(2)).toEqual(['withdrawal']);
    expect(await withdrawal(id)).toMatchObject({
      status: 6,
      signed_tx: null,
      tx_hash: null,
      failure_reason: 'signer_refused',
    });
    expect(await signedFor(id)).toEqual({ chainTxs: [], signerLog: [] });
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(0n);
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('500'));
    expect(await refusalsOf(id)).toEqual([
      {
        request: 'withdrawal',
        app_id: appId,
        reason: expect.stringMatching(/does not match its MAC/),
      },
    ]);
    expect(alertsAbout(id)).toEqual(
      [OPERATOR_EMAIL, email].sort().map((to) => ({ to, subject: ALERT })),
    );
    // Unsuccessful and unsigned, it reserves nothing: the wallet's whole balance can go out.
    const honest = await withdraw(appId, payee, '500');
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect((await withdrawal(honest.id)).status).toBe(1);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('500'));
  });

  it.each([
    ['no MAC', null],
    ['a made-up MAC', 'ab'.repeat(32)],
  ])(
    'a withdrawal row nobody requested, inserted at Processing Transfer with %s: refused, nothing moves',
    async (_, mac) => {
      const { appId, gas, email } = await merchant('500');
      const id = `wd_inserted_${serial}`;
      const at = t.clock().toISOString();
      await insertSend(t, {
        id,
        app_id: appId,
        amount_micro: 100_000_000,
        to_address: ATTACKER,
        status: 3,
        created_at: at,
        updated_at: at,
        unique_id: 'nobody',
        chain_id: 56,
        from_address: gas,
        amount_raw: usdt('100').toString(),
        gas_reserve_raw: '0',
        request_mac: mac,
      });
      expect(await sendPasses(1)).toEqual(['withdrawal']);
      expect(await withdrawal(id)).toMatchObject({
        status: 6,
        signed_tx: null,
        failure_reason: 'signer_refused',
      });
      expect(await signedFor(id)).toEqual({ chainTxs: [], signerLog: [] });
      expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
      expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('500'));
      expect(await refusalsOf(id)).toEqual([
        {
          request: 'withdrawal',
          app_id: appId,
          reason: mac === null ? expect.stringMatching(/carries no MAC/) : expect.any(String),
        },
      ]);
      expect(alertsAbout(id)).toEqual(
        [OPERATOR_EMAIL, email].sort().map((to) => ({ to, subject: ALERT })),
      );
    },
  );

  it('a paid withdrawal set back in the database, its transactions deleted there, is not paid again', async () => {
    const { appId, gas, payee } = await merchant('500');
    const { id } = await withdraw(appId, payee, '20');
    await sendPasses(1);
    await mineLocalBlocks(t.db, 15, 56);
    await sendPasses(1);
    expect((await withdrawal(id)).status).toBe(1);
    // Its MAC still matches: only the signer's own record says it was paid.
    await t.db
      .updateTable('send_transactions')
      .set({ status: 3, signed_tx: null, tx_hash: null, nonce: null, broadcast_at: null })
      .where('id', '=', id)
      .execute();
    await t.db.deleteFrom('chain_txs').where('ref_id', '=', id).execute();
    await t.db.deleteFrom('signer_log').where('ref_id', '=', id).execute();
    await sendPasses(2);
    expect(await signedFor(id)).toEqual({ chainTxs: [], signerLog: [] });
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('20'));
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('480'));
  });

  it('a MAC copied from another withdrawal does not vouch for this one', async () => {
    const { appId, gas, payee } = await merchant('500');
    const accepted = await withdraw(appId, payee, '1');
    const { request_mac: mac } = await t.db
      .selectFrom('send_transactions')
      .select('request_mac')
      .where('id', '=', accepted.id)
      .executeTakeFirstOrThrow();
    const id = `wd_copied_${serial}`;
    const at = t.clock().toISOString();
    await insertSend(t, {
      id,
      app_id: appId,
      amount_micro: 1_000_000,
      to_address: payee,
      status: 3,
      created_at: at,
      updated_at: at,
      unique_id: `payout-${serial}-1`,
      chain_id: 56,
      from_address: gas,
      amount_raw: usdt('1').toString(),
      gas_reserve_raw: '0',
      request_mac: mac,
    });
    await sendPasses(1);
    expect(await withdrawal(id)).toMatchObject({ status: 6, failure_reason: 'signer_refused' });
    expect(await signedFor(id)).toEqual({ chainTxs: [], signerLog: [] });
    // The one the gateway accepted goes out.
    expect((await withdrawal(accepted.id)).status).toBe(5);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('1'));
  });
});

describe('the upgrade that brings the MACs', () => {
  const applied = (status: 'Success' | 'NotExecuted') => ({
    results: [{ migrationName: '0300_signer_request_macs', direction: 'Up' as const, status }],
  });

  it('vouches once for the withdrawals then in flight; a row without a MAC later is refused', async () => {
    const { appId, payee } = await merchant('500');
    const inFlight = await withdraw(appId, payee, '3');
    const done = await withdraw(appId, payee, '4');
    // As the rows were before the upgrade: no MAC; one of them already Completed.
    await t.db
      .updateTable('send_transactions')
      .set({ request_mac: null })
      .where('id', 'in', [inFlight.id, done.id])
      .execute();
    await t.db
      .updateTable('send_transactions')
      .set({ status: 1 })
      .where('id', '=', done.id)
      .execute();
    const sign = requestSigner(t.config.signerRequestKey);
    // A start that applies nothing new vouches for nothing.
    expect(await macWithdrawalsAtUpgrade(t.db, applied('NotExecuted'), sign)).toBe(0);
    await macWithdrawalsAtUpgrade(t.db, applied('Success'), sign);
    const macs = await t.db
      .selectFrom('send_transactions')
      .select(['id', 'request_mac'])
      .where('id', 'in', [inFlight.id, done.id])
      .execute();
    expect(Object.fromEntries(macs.map((m) => [m.id, m.request_mac !== null]))).toEqual({
      [inFlight.id]: true,
      [done.id]: false,
    });
    await sendPasses(1);
    expect((await withdrawal(inFlight.id)).status).toBe(5);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('3'));
    // After the upgrade, a row that lost its MAC is not vouched for again.
    const later = await withdraw(appId, payee, '5');
    await t.db
      .updateTable('send_transactions')
      .set({ request_mac: null })
      .where('id', '=', later.id)
      .execute();
    await sendPasses(1);
    expect(await withdrawal(later.id)).toMatchObject({
      status: 6,
      failure_reason: 'signer_refused',
    });
  });
});

describe("sweeps go only where the signer's store says, when it says", () => {
  const HOLD = 24 * 3_600_000;
  const NEW_PAYOUT = privateKeyToAddress(`0x${'55'.repeat(32)}`);

  /** A customer's USDT deposit of `amount` to the app, credited (3) by the watcher. */
  async function creditedDeposit(
    appId: string,
    amount: string,
  ): Promise<{ id: string; address: string }> {
    const { account } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId: `customer-${serial}`,
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    await mint(BSC_USDT, account.address, usdt(amount));
    const chain = chainAdapterFor(t.config, t.db, 56);
    await watchDeposits(t.db, chain, t.clock());
    await mineLocalBlocks(t.db, 15, 56);
    await watchDeposits(t.db, chain, t.clock());
    const row = await t.db
      .selectFrom('receive_transactions')
      .select(['id', 'deposit_status'])
      .where('address', '=', account.address)
      .executeTakeFirstOrThrow();
    expect(row.deposit_status).toBe(3);
    return { id: row.id, address: account.address };
  }

  const passes = async (n: number) => {
    for (let i = 0; i < n; i += 1) await completeDeposits(t.db, signer.client, t.clock());
  };
  const depositStatus = async (id: string) =>
    (
      await t.db
        .selectFrom('receive_transactions')
        .select('deposit_status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).deposit_status;
  const sweepsOf = (id: string) =>
    t.db
      .selectFrom('chain_txs')
      .select(['to_address'])
      .where('ref_id', '=', id)
      .where('purpose', 'in', ['sweep', 'sweep_fee'])
      .execute();

  it('a payout address changed through the API, its hold columns cleared in the database: no sweep until the signer’s hold ends', async () => {
    const { appId, methodId, username, email } = await merchant('0');
    const headers = await t.authHeader(username);
    const changed = await t.call('updatePaymentMethod', {
      headers,
      body: { id: methodId, user_app_id: appId, type: 'address', collect_address: NEW_PAYOUT },
    });
    expect(changed.statusCode).toBe(200);
    // The change reaches the signer (the job queued with it), which holds it from its own clock.
    await runRegistrations(t, signer);
    const until = new Date(t.clock().getTime() + HOLD).toISOString();
    expect(
      await t.db
        .selectFrom('app_payment_methods')
        .select('payout_hold_until')
        .where('id', '=', methodId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ payout_hold_until: until });
    // Whoever writes the database clears the holds.
    await t.db
      .updateTable('app_payment_methods')
      .set({ payout_hold_until: null })
      .where('id', '=', methodId)
      .execute();
    await t.db
      .updateTable('apps')
      .set({ whitelist_hold_until: null })
      .where('id', '=', appId)
      .execute();
    const deposit = await creditedDeposit(appId, '100');
    await passes(4);
    // Topped up with gas, and waiting: nothing swept, nothing moved.
    expect(await depositStatus(deposit.id)).toBe(4);
    expect(await sweepsOf(deposit.id)).toEqual([]);
    expect(await localBalance(t.db, 56, BSC_USDT, deposit.address)).toBe(usdt('100'));
    expect(await localBalance(t.db, 56, BSC_USDT, NEW_PAYOUT)).toBe(0n);
    expect(await refusalsOf(deposit.id)).toEqual([
      {
        request: 'sweep',
        app_id: appId,
        reason: `A sweep to ${NEW_PAYOUT} was asked for while the signer holds that payout address until ${until}: the hold was cleared in the database, or the web process is compromised.`,
      },
    ]);
    expect(alertsAbout(deposit.id)).toEqual(
      [OPERATOR_EMAIL, email].sort().map((to) => ({ to, subject: ALERT })),
    );
    // Once the signer's hold is over, the sweep goes to the new address.
    t.clock.advance(HOLD + 1);
    await passes(3);
    expect(await depositStatus(deposit.id)).toBe(1);
    expect(await localBalance(t.db, 56, BSC_USDT, NEW_PAYOUT)).toBe(usdt('100'));
    expect(await sweepsOf(deposit.id)).toEqual([{ to_address: NEW_PAYOUT }]);
  });

  it('a web process holding the MAC key registers its own address: the signer holds it, tells the merchant, and sweeps nothing there', async () => {
    const { appId, email } = await merchant('0');
    const sign = requestSigner(t.config.signerRequestKey);
    const at = t.clock().toISOString();
    const registration = {
      kind: 'payout' as const,
      appId,
      paymentMethodId: 'pm_usdt_bsc',
      address: ATTACKER,
      at,
    };
    const until = new Date(t.clock().getTime() + HOLD).toISOString();
    expect(
      await signer.client.request({
        op: 'registerPayout',
        appId,
        paymentMethodId: 'pm_usdt_bsc',
        address: ATTACKER,
        at,
        mac: sign(registration),
      }),
    ).toEqual({ state: 'registered', heldUntil: until });
    // The signer itself tells the merchant and the operator.
    const notices = readOutbox(t.dataDir).filter((m) => m.text.includes(ATTACKER));
    expect(notices.map((m) => m.to).sort()).toEqual([OPERATOR_EMAIL, email].sort());
    expect(notices[0]?.subject).toBe(`Notice: a change of app ${appId} takes effect on ${until}`);
    // It writes its address in the database too, without a hold, and lets the sweep run.
    await t.db
      .updateTable('app_payment_methods')
      .set({ collect_address: ATTACKER, payout_hold_until: null })
      .where('app_id', '=', appId)
      .execute();
    const deposit = await creditedDeposit(appId, '40');
    await passes(4);
    expect(await depositStatus(deposit.id)).toBe(4);
    expect(
      await signer.client.request({ op: 'sweep', depositId: deposit.id, to: ATTACKER }),
    ).toEqual({
      state: 'waiting',
      reason: `The payout address was changed: sweeps to it are held until ${until}.`,
    });
    expect(await sweepsOf(deposit.id)).toEqual([]);
    expect(await localBalance(t.db, 56, BSC_USDT, ATTACKER)).toBe(0n);
    // Nor to an address it never registered, and a registration without the key's MAC is refused.
    const other = privateKeyToAddress(`0x${'44'.repeat(32)}`);
    expect(
      await signer.client.request({ op: 'sweep', depositId: deposit.id, to: other }),
    ).toMatchObject({
      state: 'refused',
      code: 'signer_refused',
    });
    expect(
      await signer.client.request({
        op: 'registerPayout',
        appId,
        paymentMethodId: 'pm_usdt_bsc',
        address: other,
        at: new Date(t.clock().getTime() + 1).toISOString(),
        mac: 'ab'.repeat(32),
      }),
    ).toMatchObject({ state: 'refused', code: 'signer_refused' });
    expect(signer.store.payout(appId, 'pm_usdt_bsc', t.clock().getTime()).pending?.address).toBe(
      ATTACKER.toLowerCase(),
    );
    expect(await localBalance(t.db, 56, BSC_USDT, other)).toBe(0n);
  });
});

describe("the signer's first start on an existing deployment", () => {
  it('imports the payout addresses and whitelist holds from the shared database, once', async () => {
    const { appId, methodId } = await merchant('0');
    const now = t.clock().getTime();
    const held = new Date(now + 5 * 3_600_000).toISOString();
    await t.db
      .updateTable('app_payment_methods')
      .set({ collect_address: ATTACKER, payout_hold_until: held })
      .where('id', '=', methodId)
      .execute();
    await t.db
      .updateTable('apps')
      .set({ whitelist_hold_until: held })
      .where('id', '=', appId)
      .execute();
    const dir = mkdtempSync(path.join(tmpdir(), 'signer-import-'));
    const store = SignerStore.open(path.join(dir, 'signer'));
    try {
      const imported = await importSharedSettings(store, t.db, t.clock());
      expect(imported?.payouts).toBeGreaterThan(0);
      expect(store.payout(appId, 'pm_usdt_bsc', now)).toEqual({
        inEffect: null,
        pending: { address: ATTACKER.toLowerCase(), effectiveAt: Date.parse(held) },
      });
      expect(store.withdrawalHold(appId, now)).toEqual({
        registered: true,
        empty: false,
        until: Date.parse(held),
      });
      // Done once: what the database says later is not taken.
      await t.db
        .updateTable('app_payment_methods')
        .set({ payout_hold_until: null })
        .where('id', '=', methodId)
        .execute();
      expect(await importSharedSettings(store, t.db, t.clock())).toBeNull();
      expect(store.payout(appId, 'pm_usdt_bsc', now).inEffect).toBeNull();
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the daily cap the web process cannot lift', () => {
  const HOLD = 24 * 3_600_000;
  const command = (...args: string[]) => {
    const lines: string[] = [];
    const code = runSignerCommand(args, signerStoreDir(t.config), (l) => lines.push(l), t.clock());
    return { code, lines };
  };
  /** Who got mails of that subject. */
  const mailsTitled = (subject: string) =>
    readOutbox(t.dataDir)
      .filter((m) => m.subject === subject)
      .map((m) => m.to)
      .sort();
  const waitingOf = async (appId: string, id: string) =>
    withdrawalView(await getWithdrawal(t.db, appId, id)).waiting_reason;

  it('beyond the cap a withdrawal waits held for approval; approved it goes out, rejected it ends Unsuccessful', async () => {
    // No plan registered: the smallest plan's cap, 10,000 USDT a day.
    const { appId, userId, gas, payee, email } = await merchant('30000');
    const first = await withdraw(appId, payee, '6000');
    // Asked for after it: sent after it, so it is the one beyond the cap.
    t.clock.advance(1);
    const second = await withdraw(appId, payee, '5000');
    await sendPasses(1);
    expect((await withdrawal(first.id)).status).toBe(5);
    expect(await withdrawal(second.id)).toMatchObject({ status: 3, signed_tx: null });
    const listed = command('list');
    expect(listed.code).toBe(0);
    const approvalId = /^(apr_\S+)/.exec(
      listed.lines.find((l) => l.includes(second.id)) ?? '',
    )?.[1];
    expect(approvalId).toBeDefined();
    const message = `Beyond the app's daily cap of 10000 USDT-BEP20 (6000 USDT-BEP20 sent in the last 24 hours): this withdrawal of 5000 USDT-BEP20 waits for the gateway operator's approval (${approvalId}).`;
    // The merchant's server sees why (the gateway's withdrawal), and both are told, once.
    expect(await waitingOf(appId, second.id)).toEqual({ code: 'held_for_approval', message });
    // The merchant's Send list says it under the status.
    const portal = await appDetails(t.db, userId, appId, {}, localChains(t.config, t.db), {
      nowIso: t.clock().toISOString(),
      feeLeg: false,
    });
    expect(Object.fromEntries(portal.send.data.map((s) => [s.id, s.waiting_reason]))).toEqual({
      [second.id]: message,
      [first.id]: null,
    });
    await sendPasses(2);
    expect((await withdrawal(second.id)).status).toBe(3);
    expect(
      readOutbox(t.dataDir)
        .filter(
          (m) => m.subject === `Approval needed: withdrawal ${second.id} is beyond the daily cap`,
        )
        .map((m) => m.to)
        .sort(),
    ).toEqual([OPERATOR_EMAIL, email].sort());
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('6000'));
    // The operator approves it on the signer's host: that one goes through the cap.
    expect(command('approve', approvalId ?? '')).toEqual({
      code: 0,
      lines: [`Approved ${approvalId}: it goes out at the withdrawal job's next pass.`],
    });
    await sendPasses(2);
    expect((await withdrawal(second.id)).status).toBe(5);
    expect(await waitingOf(appId, second.id)).toBeNull();
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('11000'));
    // The signer tells both of the decision, once.
    expect(mailsTitled(`Approved: withdrawal ${second.id} goes out`)).toEqual(
      [OPERATOR_EMAIL, email].sort(),
    );
    // Another one beyond it, rejected: Unsuccessful, nothing signed, its reservation released.
    const third = await withdraw(appId, payee, '4000');
    await sendPasses(1);
    const rejected = /^(apr_\S+)/.exec(
      command('list').lines.find((l) => l.includes(third.id)) ?? '',
    )?.[1];
    expect(command('reject', rejected ?? '').code).toBe(0);
    expect(command('reject', rejected ?? '')).toEqual({
      code: 1,
      lines: [`No pending approval ${rejected} (npm run signer -- list shows them).`],
    });
    await sendPasses(1);
    expect(await withdrawal(third.id)).toMatchObject({
      status: 6,
      signed_tx: null,
      failure_reason: `The operator rejected withdrawal ${third.id} (${rejected}), held beyond the app's daily cap.`,
    });
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('11000'));
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('19000'));
    expect(command('list').lines).toEqual(['(none)']);
    expect(mailsTitled(`Rejected: withdrawal ${third.id} was not sent`)).toEqual(
      [OPERATOR_EMAIL, email].sort(),
    );
  });

  it('a request left undecided expires: refused, nothing sent, both told; the operator can no longer approve it', async () => {
    const { appId, payee, gas, email } = await merchant('30000');
    const big = await withdraw(appId, payee, '12000');
    await sendPasses(1);
    const listed = command('list').lines.find((l) => l.includes(big.id)) ?? '';
    const approvalId = /^(apr_\S+)/.exec(listed)?.[1] ?? '';
    const expiresAt = new Date(t.clock().getTime() + 72 * 3_600_000).toISOString();
    expect(listed).toContain(`, refused unless decided by ${expiresAt}`);
    expect(
      readOutbox(t.dataDir).find(
        (m) => m.subject === `Approval needed: withdrawal ${big.id} is beyond the daily cap`,
      )?.text,
    ).toContain(`Unanswered by ${expiresAt}, the signer refuses it.`);
    // A moment before its time it still waits; at its time it is refused.
    t.clock.advance(72 * 3_600_000 - 1);
    await sendPasses(1);
    expect((await withdrawal(big.id)).status).toBe(3);
    t.clock.advance(1);
    expect(command('approve', approvalId)).toEqual({
      code: 1,
      lines: [
        `Approval ${approvalId} expired at ${expiresAt}, undecided: the signer refuses the withdrawal. The merchant can ask for it again.`,
      ],
    });
    await sendPasses(2);
    expect(await withdrawal(big.id)).toMatchObject({
      status: 6,
      signed_tx: null,
      failure_reason: `The withdrawal ${big.id}, held beyond the app's daily cap, was not approved by ${expiresAt} (${approvalId}): the signer refuses it.`,
    });
    expect(await localBalance(t.db, 56, BSC_USDT, gas)).toBe(usdt('30000'));
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(0n);
    expect(mailsTitled(`Expired: withdrawal ${big.id} was not sent`)).toEqual(
      [OPERATOR_EMAIL, email].sort(),
    );
    expect(command('list').lines).toEqual(['(none)']);
  });

  it("a plan ends by the signer's clock: past it the smallest plan's cap, whatever the database says", async () => {
    const { appId, userId, payee } = await merchant('100000');
    // The merchant moves up to Business through the portal's own path; its end goes to the signer.
    await credit(t, userId, '100');
    const bought = await purchasePackage(t.db, {
      userId,
      packageId: 'pkg_business',
      now: t.clock(),
      sign: requestSigner(t.config.signerRequestKey),
    });
    expect(bought).toMatchObject({ ok: true, kind: 'upgrade' });
    await runRegistrations(t, signer);
    const { end_date: end } = await t.db
      .selectFrom('subscriptions')
      .select('end_date')
      .where('id', '=', bought.ok ? bought.subscriptionId : '')
      .executeTakeFirstOrThrow();
    // A raise: in effect after the signer's hold. Then Business's 50,000 a day.
    t.clock.advance(HOLD + 1);
    const within = await withdraw(appId, payee, '40000');
    await sendPasses(1);
    expect((await withdrawal(within.id)).status).toBe(5);
    // Whoever writes the database lengthens the plan; the signer keeps the end it was told.
    await t.db
      .updateTable('subscriptions')
      .set({ end_date: '2999-01-01T00:00:00.000Z' })
      .where('user_id', '=', userId)
      .execute();
    t.clock.set(new Date(Date.parse(end) + 1));
    const after = await withdraw(appId, payee, '20000');
    await sendPasses(1);
    expect(await withdrawal(after.id)).toMatchObject({ status: 3, signed_tx: null });
    expect((await waitingOf(appId, after.id))?.message).toMatch(
      /^Beyond the app's daily cap of 10000 USDT-BEP20 \(0 USDT-BEP20 sent in the last 24 hours\)/,
    );
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('40000'));
  });

  it('the upgrade that brings plan ends registers every app’s plan again, with its end', async () => {
    const { appId, userId, payee } = await merchant('100000');
    // A plan the signer was told of before plans carried an end (none here: registered as v1).
    await t.db
      .updateTable('subscriptions')
      .set({ package_id: 'pkg_business' })
      .where('user_id', '=', userId)
      .execute();
    const { end_date: end } = await t.db
      .selectFrom('subscriptions')
      .select('end_date')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const migrated = {
      results: [
        {
          migrationName: '0470_signer_plan_ends',
          direction: 'Up' as const,
          status: 'Success' as const,
        },
      ],
    };
    const sign = requestSigner(t.config.signerRequestKey);
    expect(await registerPlansAtUpgrade(t.db, migrated, sign, t.clock())).toBeGreaterThan(0);
    expect(await registerPlansAtUpgrade(t.db, { results: [] }, sign, t.clock())).toBe(0);
    await runRegistrations(t, signer);
    t.clock.advance(HOLD + 1);
    const within = await withdraw(appId, payee, '40000');
    await sendPasses(1);
    expect((await withdrawal(within.id)).status).toBe(5);
    // Past the end it was registered with, though the database says the plan runs on.
    await t.db
      .updateTable('subscriptions')
      .set({ end_date: '2999-01-01T00:00:00.000Z' })
      .where('user_id', '=', userId)
      .execute();
    t.clock.set(new Date(Date.parse(end) + 1));
    const after = await withdraw(appId, payee, '20000');
    await sendPasses(1);
    expect((await waitingOf(appId, after.id))?.code).toBe('held_for_approval');
  });

  it('a web process with the key registers a bigger plan: the cap stays until the signer’s hold is over; the operator’s cap prevails', async () => {
    const { appId, payee } = await merchant('60000');
    const sign = requestSigner(t.config.signerRequestKey);
    const at = t.clock().toISOString();
    const until = new Date(t.clock().getTime() + 30 * 86_400_000).toISOString();
    const plan = { kind: 'plan' as const, appId, packageId: 'pkg_enterprise', until, at };
    expect(
      await signer.client.request({
        op: 'registerPlan',
        appId,
        packageId: 'pkg_enterprise',
        until,
        at,
        mac: sign(plan),
      }),
    ).toEqual({
      state: 'registered',
      heldUntil: new Date(t.clock().getTime() + HOLD).toISOString(),
    });
    const big = await withdraw(appId, payee, '20000');
    await sendPasses(1);
    expect(await withdrawal(big.id)).toMatchObject({ status: 3, signed_tx: null });
    expect((await waitingOf(appId, big.id))?.code).toBe('held_for_approval');
    // The operator lowers the app's cap: it holds whatever the plan.
    expect(command('cap', appId, 'USDT-BEP20', '500')).toEqual({
      code: 0,
      lines: [`The daily cap of app ${appId} for USDT-BEP20 is now 500 USDT-BEP20.`],
    });
    // Past the hold the plan's 250,000 would allow it, the operator's 500 does not.
    t.clock.advance(HOLD + 1);
    await sendPasses(1);
    expect((await withdrawal(big.id)).status).toBe(3);
    command('cap', appId, 'USDT-BEP20', '250000');
    await sendPasses(1);
    expect((await withdrawal(big.id)).status).toBe(5);
    expect(await localBalance(t.db, 56, BSC_USDT, payee)).toBe(usdt('20000'));
  });
});
