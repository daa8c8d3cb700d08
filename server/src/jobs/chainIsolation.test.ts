import { parseEther, parseUnits } from 'viem';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../test/appRows';
import { registerApp, startTestSigner, type TestSigner } from '../../test/signer';
import { createTestApp, type TestApp } from '../../test/testApp';
import { until } from '../../test/until';
import { startReceiver, type WebhookReceiver } from '../../test/webhookReceiver';
import { chainAdapterFor } from '../domain/chain';
import type { ChainAdapter } from '../domain/chain/adapter';
import { mineLocalBlocks, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { PAYMENT_METHODS } from '../domain/chain/paymentMethods';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { openAccount } from '../domain/payments/accounts';
import { watchDeposits } from '../domain/payments/deposits';
import { provisionGasAddresses } from '../domain/payments/gasProvisioner';
import { webhookDeps } from '../domain/webhooks/delivery';
import { rotateWebhookSecret } from '../domain/webhooks/secrets';
import { signerEndpoint } from '../signer/client/client';
import { systemClock } from '../domain/time';
import { backgroundTasks, depositCompletionTask, depositWatcherTask, webhookDeliveryTask } from '.';
import { startWorker, type Worker } from './worker';

// One chain's outage holds up no other chain. Chain 56's providers stop answering while a
// deposit there waits for its sweep: its watcher and the signer's calls on it hang. Meanwhile a
// deposit on chain 1 is found, credited, announced to the merchant's receiver and swept, by the
// same background jobs and the same signer, as if nothing were wrong: every chain has its own
// jobs (deposits.watch, deposits.complete, withdrawals.send) and its own lane in the signer.

jest.setTimeout(60_000);

const methodOf = (id: string) => {
  const method = PAYMENT_METHODS.find((m) => m.id === id);
  if (!method?.token_contract_address || !method.code || method.confirmations === undefined) {
    throw new Error(`No token method ${id}`);
  }
  return {
    id: method.id,
    code: method.code,
    chainId: method.chain_id,
    token: method.token_contract_address,
    decimals: method.decimals,
    confirmations: method.confirmations,
  };
};
const BSC_USDT = methodOf('pm_usdt_bsc');
const ETH_USDT = methodOf('pm_usdt_eth');

let t: TestApp;
let signer: TestSigner;
let receiver: WebhookReceiver;
const hangs = new Set<number>();
beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
  signer = await startTestSigner(t, {}, { hangs });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await signer?.close();
  await t?.close();
});

/** A chain adapter whose provider never answers a head, until `release`. */
function hanging(adapter: ChainAdapter): { adapter: ChainAdapter; release(): void } {
  let release: (error: Error) => void = () => {};
  const hung = new Promise<never>((_, reject) => {
    release = reject;
  });
  hung.catch(() => {});
  return {
    adapter: Object.assign(Object.create(adapter) as ChainAdapter, { latestBlock: () => hung }),
    release: () => release(new Error('the provider was stopped')),
  };
}

const statusOf = async (address: string) =>
  (
    await t.db
      .selectFrom('receive_transactions')
      .select('deposit_status')
      .where('address', '=', address)
      .executeTakeFirst()
  )?.deposit_status;

it("chain 56's providers hang: a deposit on chain 1 is credited, announced and swept as usual", async () => {
  // The real time: the worker schedules by it, and the deliveries' timestamps are checked by it.
  t.clock.set(new Date());
  const userId = await addUser(t, 'isolated');
  const appId = 'app_isolated';
  await insertApp(t, {
    id: appId,
    user_id: userId,
    created_at: t.clock().toISOString(),
    callback_url: receiver.url(),
  });
  await insertSubscription(t, userId);
  await insertAppMethod(t, { id: 'apm_iso_bsc', app_id: appId, payment_method_id: BSC_USDT.id });
  await insertAppMethod(t, { id: 'apm_iso_eth', app_id: appId, payment_method_id: ETH_USDT.id });
  await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
  await provisionGasAddresses(t.db, resolveWalletXpub(t.config));
  const gasWallets = await t.db
    .selectFrom('app_payment_methods')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
    .select(['app_payment_methods.gas_address', 'payment_methods.chain_id'])
    .where('app_id', '=', appId)
    .execute();
  for (const { gas_address: gas, chain_id: chainId } of gasWallets) {
    if (!gas) throw new Error('no operational wallet');
    await recordLocalChainTransfer(t.db, {
      chainId,
      token: null,
      to: gas,
      amount: parseEther('1'),
      createdAt: t.clock().toISOString(),
    });
  }
  await registerApp(t, signer, appId);
  const pay = async (method: typeof BSC_USDT, uniqueId: string, amount: string) => {
    const { account } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId,
      uniqueId,
      code: method.code,
      now: t.clock(),
    });
    await recordLocalChainTransfer(t.db, {
      chainId: method.chainId,
      token: method.token,
      to: account.address,
      amount: parseUnits(amount, method.decimals),
      createdAt: t.clock().toISOString(),
    });
    await mineLocalBlocks(t.db, method.confirmations, method.chainId);
    return account.address;
  };

  // A deposit on chain 56, credited while its providers answered, waits for its sweep.
  const waiting = await pay(BSC_USDT, 'customer-bsc', '40');
  const bsc = chainAdapterFor(t.config, t.db, 56);
  await watchDeposits(t.db, bsc, t.clock());
  expect(await statusOf(waiting)).toBe(3);
  // Then they stop answering: the watcher's reads and the signer's calls on chain 56 hang.
  hangs.add(56);
  const stalled = hanging(bsc);
  const paid = await pay(ETH_USDT, 'customer-eth', '25');

  const log = { error: jest.fn(), warn: jest.fn() };
  const endpoint = signerEndpoint({
    dataDir: t.dataDir,
    signer: { socket: signer.socketPath, tls: undefined },
  });
  let worker: Worker | undefined;
  try {
    worker = await startWorker({
      db: t.db,
      tasks: [
        depositWatcherTask(t.db, stalled.adapter, systemClock),
        depositWatcherTask(t.db, chainAdapterFor(t.config, t.db, 1), systemClock),
        depositCompletionTask(
          { db: t.db, signer: signer.client, head: () => stalled.adapter.latestBlock() },
          endpoint,
          systemClock,
          56,
        ),
        depositCompletionTask(
          {
            db: t.db,
            signer: signer.client,
            head: () => chainAdapterFor(t.config, t.db, 1).latestBlock(),
          },
          endpoint,
          systemClock,
          1,
        ),
        webhookDeliveryTask(webhookDeps(t.config, t.db, systemClock), t.config.jobs),
      ],
      log,
      clock: systemClock,
      pollMs: 20,
    });
    // Chain 1's blocks keep coming, as a live chain's do (its gas top-up and sweep get mined).
    await until(async () => {
      await mineLocalBlocks(t.db, 1, 1);
      return (await statusOf(paid)) === 1;
    }, "chain 1's deposit swept");
    await until(
      async () =>
        receiver.received.some(
          (hook) => (JSON.parse(hook.body) as { type?: string }).type === 'deposit.confirmed',
        ),
      "chain 1's deposit.confirmed delivered",
    );
    const confirmed = receiver.received
      .map((hook) => JSON.parse(hook.body) as { type: string; data: { address?: string } })
      .filter((hook) => hook.type === 'deposit.confirmed');
    // (Chain 56's, credited before its outage, goes out too: a delivery waits on no chain.)
    expect(confirmed.map((hook) => hook.data.address).sort()).toEqual([paid, waiting].sort());
    // Chain 56's deposit is where it was: nothing of it moved, nothing failed.
    expect(await statusOf(waiting)).toBe(3);
    expect(log.error).not.toHaveBeenCalled();
  } finally {
    stalled.release();
    await signer.close();
    await worker?.stop();
  }
  // Minutes on, chain 56 still unread while chain 1 is read: /healthz names chain 56 degraded.
  t.clock.advance((t.config.chainLagDegradedSeconds + 1) * 1000);
  await watchDeposits(t.db, chainAdapterFor(t.config, t.db, 1), t.clock());
  const health = await t.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode).toBe(200);
  const { status, chains } = health.json<{ status: string; chains: { chain_id: number }[] }>();
  expect(status).toBe('degraded');
  expect(chains).toContainEqual({
    chain_id: 56,
    name: 'BNB Smart Chain',
    lag_seconds: t.config.chainLagDegradedSeconds + 1,
    lag_blocks: 0,
  });
  expect(chains.map((chain) => chain.chain_id)).not.toContain(1);
});

it('every EVM chain has its own watcher, deposit completion and withdrawal jobs', () => {
  const kinds = backgroundTasks(t.config, t.db).map((task) => task.kind);
  for (const chainId of [56, 1, 137]) {
    expect(kinds).toEqual(
      expect.arrayContaining([
        `deposits.watch:${chainId}`,
        `deposits.complete:${chainId}`,
        `withdrawals.send:${chainId}`,
      ]),
    );
  }
  expect(kinds).not.toContain('deposits.complete');
  expect(kinds).not.toContain('withdrawals.send');
});
