import { addUser } from '../../test/accounts';
import {
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertReceive,
  insertSend,
} from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { getWithdrawal } from '../domain/payments/withdrawalReads';
import { emitWithdrawalEvent } from '../domain/webhooks/events';

// What docs/gateway.md and gateway.yaml say the answers look like, held against the answers.

const BASE = '/gateway/v1';

describe('the gateway as its reference describes it', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  async function merchant(abilities: string[]) {
    serial += 1;
    const tag = `doc${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    const key = await insertApiKey(t, { id: `key_${tag}`, app_id: appId, abilities });
    return { appId, tag, key };
  }

  const get = (url: string, key: string) =>
    t.inject({ method: 'GET', url: `${BASE}${url}`, headers: { authorization: `Bearer ${key}` } });

  it("prints a deposit's amount exact, and /balances' totals with six decimals, truncated", async () => {
    const { appId, tag, key } = await merchant(['deposits:read', 'balances:read']);
    const amounts = [
      ['25500000000000000000', 25_500_000],
      ['1000000900000000000', 1_000_000],
    ] as const;
    for (const [i, [raw, micro]] of amounts.entries()) {
      await insertReceive(t, {
        id: `rcv_${tag}_${i}`,
        app_id: appId,
        unique_id: 'order-1',
        amount_micro: micro,
        amount_raw: raw,
        deposit_status: 3,
        chain_id: 56,
        address: '0x9f2C4a6e8B0d2F4a6C8e0B2d4F6a8C0e2B4d6F8a',
        tx_hash: `0x${tag}${i.toString().padStart(60, '0')}`,
        log_index: 0,
        block_number: 1,
        created_at: new Date(t.clock().getTime() + i * 1000).toISOString(),
      });
    }
    const deposits = (await get('/deposits', key)).json<{ data: { amount: string }[] }>();
    expect(deposits.data.map((d) => d.amount).sort()).toEqual(['1.0000009', '25.5']);
    expect((await get('/balances', key)).json()).toEqual({
      data: [{ method: 'USDT-BEP20', received: '26.500000', credited: '26.500000' }],
    });
  });

  it('lists withdrawal events in GET /events, as the webhooks section says it does', async () => {
    const { appId, tag, key } = await merchant(['webhooks:write']);
    const now = t.clock().toISOString();
    await insertSend(t, {
      id: `wd_${tag}`,
      app_id: appId,
      unique_id: 'payout-1',
      amount_micro: 10_000_000,
      amount_raw: '10000000000000000000',
      chain_id: 56,
      from_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      status: 2,
      created_at: now,
      updated_at: now,
    });
    const withdrawal = await getWithdrawal(t.db, appId, `wd_${tag}`);
    await t.db
      .transaction()
      .execute((trx) => emitWithdrawalEvent(trx, appId, withdrawal, t.clock()));
    const page = await get('/events', key);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toEqual([
      expect.objectContaining({
        type: 'withdrawal.queued',
        data: expect.objectContaining({ id: `wd_${tag}`, amount: '10', status: 2 }),
      }),
    ]);
  });
});
