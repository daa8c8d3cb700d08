import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { createTestApp, testClock, type TestApp, type TestClock } from '../../../test/testApp';
import { tronAddressFromEvm } from '../chain/addresses';
import { gasProvisioningTask } from '../../jobs';
import { gasAddressFor } from './gasProvisioner';
import { startWorker } from '../../jobs/worker';
import { deriveEvmAddress } from '../chain/hdWallet';

const account = HDKey.fromMasterSeed(
  mnemonicToSeedSync('test test test test test test test test test test test junk'),
).derive("m/44'/60'/0'");
const XPUB = account.publicExtendedKey;

describe('gas addresses', () => {
  it('derive on branch 1, apart from the deposit addresses of branch 0', () => {
    const gas = gasAddressFor(XPUB, 'EVM', 0);
    expect(gas).toBe(deriveEvmAddress(account.deriveChild(1).publicExtendedKey, 0));
    expect(gas).not.toBe(deriveEvmAddress(XPUB, 0));
    expect(gasAddressFor(XPUB, 'EVM', 1)).not.toBe(gas);
    expect(gasAddressFor(XPUB, 'TRON', 0)).toBe(tronAddressFromEvm(gas));
  });
});

describe('the provisioning job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: null, gas_index: null })
      .execute();
  });

  const pending = async () =>
    (
      await t.db
        .selectFrom('app_payment_methods')
        .select('id')
        .where('gas_address', 'is', null)
        .execute()
    ).length;
  const workerFor = async (xpub: string, clock: TestClock) => {
    const log = { error: jest.fn(), warn: jest.fn() };
    const worker = await startWorker({
      db: t.db,
      tasks: [gasProvisioningTask(t.db, xpub)],
      log,
      clock,
      pollMs: 0,
    });
    return { log, worker };
  };

  it('fills gas addresses at its first turn and gives each method its own index', async () => {
    expect(await pending()).toBe(4); // the demo app's methods, live and in its test mode
    const clock = testClock();
    const { log, worker } = await workerFor(XPUB, clock);
    expect(await worker.drain()).toBe(1);
    expect(await pending()).toBe(0);
    const rows = await t.db
      .selectFrom('app_payment_methods')
      .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
      .select(['gas_index', 'gas_address', 'network_type'])
      .orderBy('gas_index')
      .execute();
    expect(rows.map((r) => r.gas_index)).toEqual([0, 1, 2, 3]);
    for (const row of rows) {
      expect(row.gas_address).toBe(gasAddressFor(XPUB, row.network_type, row.gas_index ?? -1));
    }
    // The next turn is 3 s later.
    expect(await worker.drain()).toBe(0);
    clock.advance(3_000);
    expect(await worker.drain()).toBe(1);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs a failing run, keeps the error on the job and tries again at its next turn', async () => {
    const clock = testClock();
    const { log, worker } = await workerFor('not-an-xpub', clock);
    expect(await worker.drain()).toBe(1);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error), kind: 'gas.provision' }),
      'Job failed',
    );
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'gas.provision')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'queued', locked_by: null });
    expect(job.last_error).toMatch(/Error/);
    clock.advance(3_000);
    expect(await worker.drain()).toBe(1);
    expect(log.error).toHaveBeenCalledTimes(2);
    expect(await pending()).toBe(4);
  });
});
