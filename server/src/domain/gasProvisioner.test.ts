import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { createTestApp, type TestApp } from '../../test/testApp';
import { tronAddressFromEvm } from './addresses';
import { gasAddressFor, startGasProvisioner } from './gasProvisioner';
import { deriveEvmAddress } from './hdWallet';

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
  afterEach(() => jest.useRealTimers());

  const pending = async () =>
    (
      await t.db
        .selectFrom('app_payment_methods')
        .select('id')
        .where('gas_address', 'is', null)
        .execute()
    ).length;

  it('fills gas addresses on its interval and gives each method its own index', async () => {
    expect(await pending()).toBe(2); // the demo app's methods
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const log = { error: jest.fn() };
    const job = startGasProvisioner({ db: t.db, xpub: XPUB, intervalMs: 1_000, log });
    await jest.advanceTimersByTimeAsync(999);
    expect(await pending()).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    await job.stop();
    expect(await pending()).toBe(0);
    const rows = await t.db
      .selectFrom('app_payment_methods')
      .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
      .select(['gas_index', 'gas_address', 'network_type'])
      .orderBy('gas_index')
      .execute();
    expect(rows.map((r) => r.gas_index)).toEqual([0, 1]);
    for (const row of rows) {
      expect(row.gas_address).toBe(gasAddressFor(XPUB, row.network_type, row.gas_index ?? -1));
    }
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs a failing run and keeps going', async () => {
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: null, gas_index: null })
      .execute();
    const log = { error: jest.fn() };
    // Real time: a run waits on the database, which fake timers do not (PostgreSQL is a socket).
    const job = startGasProvisioner({ db: t.db, xpub: 'not-an-xpub', intervalMs: 20, log });
    const deadline = Date.now() + 10_000;
    while (log.error.mock.calls.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await job.stop();
    expect(log.error.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'Gas address provisioning failed',
    );
    expect(await pending()).toBe(2);
  });
});
