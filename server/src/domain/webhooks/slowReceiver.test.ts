import { addUser } from '../../../test/accounts';
import {
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../../test/appRows';
import { until } from '../../../test/until';
import { startReceiver, startSilentReceiver } from '../../../test/webhookReceiver';
import { testAppPerBlock } from '../../../test/withTestApp';
import { depositWatcherTask, webhookDeliveryTask } from '../../jobs';
import { startWorker } from '../../jobs/worker';
import { chainAdapterFor } from '../chain';
import { mineLocalBlocks, recordLocalTransfer } from '../chain/localAdapter';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount } from '../payments/accounts';
import { webhookDeps } from './delivery';
import { rotateWebhookSecret } from './secrets';

// One merchant's webhook receiver that never answers, flooded with test events, while another
// merchant's deposit goes through: the worker runs as a server process runs it (its loops, the
// jobs' lanes), under a clock that only the test moves, so the watcher takes one turn per step.

describe('a receiver that never answers', () => {
  const t = testAppPerBlock({ env: { WEBHOOK_ALLOW_PRIVATE: '1' } });

  async function merchant(tag: string, callbackUrl: string) {
    const userId = await addUser(t, `slow_${tag}`);
    const appId = `app_slow_${tag}`;
    await insertApp(t, {
      id: appId,
      user_id: userId,
      created_at: t.clock().toISOString(),
      callback_url: callbackUrl,
    });
    await insertAppMethod(t, { id: `apm_slow_${tag}`, app_id: appId });
    await insertSubscription(t, userId);
    await rotateWebhookSecret(t.db, t.config.secretKey, appId, t.clock());
    return appId;
  }

  it("holds up neither another app's deposit credit nor its webhooks", async () => {
    t.clock.set(new Date());
    const silent = await startSilentReceiver();
    const receiver = await startReceiver();
    const flooder = await merchant('flooder', silent.url());
    const key = await insertApiKey(t, {
      id: 'key_slow_flooder',
      app_id: flooder,
      abilities: ['webhooks:write'],
    });
    const shop = await merchant('shop', receiver.url());
    const { account } = await openAccount(t.db, resolveWalletXpub(t.config), {
      appId: shop,
      uniqueId: 'order-1',
      code: 'USDT-BEP20',
      now: t.clock(),
    });
    // A receiver that never answers: this worker waits as long as the test lasts.
    const hangs = { ...webhookDeps(t.config, t.db, t.clock), timeoutMs: 600_000 };
    const chain = chainAdapterFor(t.config, t.db);
    const worker = await startWorker({
      db: t.db,
      tasks: [depositWatcherTask(t.db, chain, t.clock), webhookDeliveryTask(hangs, t.config.jobs)],
      log: { error: jest.fn(), warn: jest.fn() },
      clock: t.clock,
      pollMs: 10,
    });
    const statuses: number[] = [];
    const flood = Array.from({ length: 20 }, () =>
      t
        .inject({
          method: 'POST',
          url: '/gateway/v1/webhooks/test',
          headers: { authorization: `Bearer ${key}` },
        })
        .then((answer) => statuses.push(answer.statusCode)),
    );
    const shopDeposit = () =>
      t.db
        .selectFrom('receive_transactions')
        .select('deposit_status')
        .where('app_id', '=', shop)
        .executeTakeFirst();
    const shopHooks = () => receiver.received.map((hook) => JSON.parse(hook.body).type as string);
    const watcher = () =>
      t.db
        .selectFrom('jobs')
        .select(['run_at', 'locked_until'])
        .where('kind', '=', `deposits.watch:${chain.chainId}`)
        .executeTakeFirstOrThrow();
    /** Waits for the watcher's turn (due or running) to end: its next one is in the future. */
    const turnEnded = () =>
      until(async () => {
        const row = await watcher();
        return row.locked_until === null && Number(row.run_at) > t.clock().getTime();
      }, "the watcher's turn to end");
    /** Moves the clock to the watcher's next turn, and waits for that turn to end. */
    async function watcherTurn() {
      const next = Number((await watcher()).run_at);
      t.clock.set(new Date(Math.max(next, t.clock().getTime())));
      worker.nudge();
      await turnEnded();
    }
    try {
      // Each test event is refused, or its first POST (within the request) hangs.
      await until(async () => statuses.length + silent.count() === 20, 'the flood to land');
      const inline = silent.count();
      // The test events' own jobs come due: the worker's POSTs hang too.
      t.clock.advance(61_000);
      worker.nudge();
      await until(async () => silent.count() >= inline + 2, 'the worker to reach the receiver');
      await turnEnded();

      await recordLocalTransfer(t.db, {
        to: account.address,
        amountMicro: 25_500_000n,
        createdAt: t.clock().toISOString(),
      });
      // The watcher's next turn sees the deposit.
      await watcherTurn();
      await until(
        async () => (await shopDeposit())?.deposit_status === 0 && shopHooks().length === 1,
        'the deposit pending and its webhook delivered',
      );
      // Deep enough at the turn after: credited.
      await mineLocalBlocks(t.db, 14);
      await watcherTurn();
      await until(
        async () => (await shopDeposit())?.deposit_status === 3 && shopHooks().length === 2,
        'the deposit credited and its webhook delivered',
      );
      expect(shopHooks()).toEqual(['deposit.pending', 'deposit.confirmed']);
      // The flooding app's deliveries beyond its share never started.
      expect(silent.count()).toBe(inline + 2);
    } finally {
      await silent.close();
      await Promise.all(flood);
      await worker.stop();
      await receiver.close();
    }
    // Five test events a minute per app; the rest were refused.
    expect(statuses.sort()).toEqual([...Array(5).fill(200), ...Array(15).fill(429)]);
  }, 60_000);
});
