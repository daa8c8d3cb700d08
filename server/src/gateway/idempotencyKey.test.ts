import { recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';
import { IDEMPOTENCY_KEY_REUSED } from '../domain/payments/idempotency';
import { insertMerchantApp } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';

// POST /withdrawals and its Idempotency-Key as a developer sees them: the header is spelled one
// way in every refusal's `fields`, and a replayed answer says it is one (Stripe's
// `Idempotent-Replayed: true`).

const BASE = '/gateway/v1';
const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const UNIT = 10n ** 18n;
const DAY = 86_400_000;

describe('the Idempotency-Key of a withdrawal', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  /** An app that may withdraw USDT (BEP20), its operational wallet funded; its key. */
  async function merchant(): Promise<string> {
    serial += 1;
    const tag = `idem${serial}`;
    const { key } = await insertMerchantApp(
      t,
      tag,
      ['withdrawals:write'],
      new Date(t.clock().getTime() - DAY).toISOString(),
    );
    const wallet = `0x${(0xe000 + serial).toString(16).padStart(40, '0')}`;
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: wallet, gas_index: 3000 + serial })
      .where('id', '=', `apm_${tag}`)
      .execute();
    for (const token of [specUsdt(56)?.contract ?? null, null]) {
      await recordLocalChainTransfer(t.db, {
        chainId: 56,
        token,
        to: wallet,
        amount: token ? 25n * UNIT : UNIT / 100n,
        createdAt: t.clock().toISOString(),
      });
    }
    return key;
  }

  const withdraw = (key: string, headers: Record<string, string>, amount = '1') =>
    t.inject({
      method: 'POST',
      url: `${BASE}/withdrawals`,
      headers: { authorization: `Bearer ${key}`, ...headers },
      payload: { unique_id: 'payout-1', method: 'USDT-BEP20', to_address: TO, amount },
    });

  it('answers a replay with Idempotent-Replayed: true, and the first answer without it', async () => {
    const key = await merchant();
    const first = await withdraw(key, { 'idempotency-key': 'payout-1' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await withdraw(key, { 'idempotency-key': 'payout-1' });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
  });

  it('names the header Idempotency-Key in fields, whether it is missing, malformed or reused', async () => {
    const key = await merchant();
    const missing = await withdraw(key, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.fields).toEqual({
      'Idempotency-Key': [
        'Send an Idempotency-Key header: a key of your choice, unique per withdrawal, like "payout-1-attempt".',
      ],
    });

    const spaced = await withdraw(key, { 'idempotency-key': 'payout 1' });
    expect(spaced.statusCode).toBe(422);
    expect(spaced.json().error.fields).toEqual({
      'Idempotency-Key': [
        'Idempotency-Key must be printable ASCII without spaces, like "payout-1-attempt".',
      ],
    });

    expect((await withdraw(key, { 'idempotency-key': 'payout-2' })).statusCode).toBe(201);
    const reused = await withdraw(key, { 'idempotency-key': 'payout-2' }, '2');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.fields).toEqual({ 'Idempotency-Key': [IDEMPOTENCY_KEY_REUSED] });
  });
});
