import { parseUnits } from 'viem';
import { addUser } from '../../test/accounts';
import {
  eventTypesOf,
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { chainAdapterFor } from '../domain/chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { gasBalanceReader } from '../domain/chain/balances';
import { watchDeposits } from '../domain/payments/deposits';
import { expireInvoices } from '../domain/invoices/expiry';
import { IDEMPOTENCY_KEY_REUSED } from '../domain/payments/idempotency';
import { setTableRate } from '../domain/rates/table';
import { advanceRefunds } from '../domain/refunds/funding';

// Refunds through the gateway over HTTP, as a merchant's server sees them: what can be refunded
// and how much (full, the overpaid part, a custom amount in the token or in the invoice's
// currency at the rate then or now), the cap (also under concurrency), the claim link and its
// expiry, a merchant's address funded at once or awaiting funds until the wallet holds them,
// cancel, Idempotency-Key, and every bad input named by its field with nothing written.

const BASE = '/gateway/v1';
const HOST = 'pay.shop.test';
const SHOPPER = '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF';
const DAY = 86_400_000;

describe('gateway refunds', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  beforeAll(async () => {
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 8760, now: t.clock() });
  });

  const chain = () => chainAdapterFor(t.config, t.db, 56);
  const usdt = () => chain().tokenContract('0x55d398326f99059fF775485246999027B3197955');
  const transfer = (to: string, token: string | null, amount: string) =>
    recordLocalChainTransfer(t.db, {
      chainId: 56,
      token,
      to,
      amount: parseUnits(amount, 18),
      createdAt: t.clock().toISOString(),
    });

  /** A merchant with USDT (BEP20), an operational wallet of its own and a key. */
  async function merchant(abilities = ['invoices:write', 'refunds:write']) {
    serial += 1;
    const tag = `rf${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId, {
      startDate: new Date(t.clock().getTime() - DAY).toISOString(),
    });
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    const wallet = `0x${(0xa000 + serial).toString(16).padStart(40, '0')}`;
    await t.db
      .updateTable('app_payment_methods')
      .set({ gas_address: wallet, gas_index: 2000 + serial })
      .where('id', '=', `apm_${tag}`)
      .execute();
    const key = await insertApiKey(t, { id: `key_${tag}`, app_id: appId, abilities });
    return { appId, key, wallet };
  }

  let idem = 0;
  const send = (
    method: 'GET' | 'POST',
    url: string,
    key: string,
    payload?: unknown,
    idemKey?: string,
  ) => {
    idem += 1;
    return t.inject({
      method,
      url: `${BASE}${url}`,
      headers: {
        host: HOST,
        authorization: `Bearer ${key}`,
        ...(method === 'POST' ? { 'idempotency-key': idemKey ?? `refund-${idem}` } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  };
  const refund = (
    key: string,
    invoiceId: string,
    body: Record<string, unknown>,
    idemKey?: string,
  ) =>
    send(
      'POST',
      `/invoices/${invoiceId}/refunds`,
      key,
      { reason: 'Order cancelled', ...body },
      idemKey,
    );

  /** An invoice of `amount` `currency`, paid `paid` USDT and settled (or expired when short). */
  async function paidInvoice(key: string, amount: string, currency: string, paid: string | null) {
    const created = await send('POST', '/invoices', key, { amount, currency });
    expect(created.statusCode).toBe(201);
    const invoice = created.json<{ id: string; payment_options: { address: string }[] }>();
    const address = invoice.payment_options[0]?.address ?? '';
    if (paid !== null) {
      await transfer(address, usdt(), paid);
      await watchDeposits(t.db, chain(), t.clock());
      await mineLocalBlocks(t.db, 20);
      await watchDeposits(t.db, chain(), t.clock());
    }
    return { id: invoice.id, address };
  }

  const refundCount = async (appId: string) =>
    (await t.db.selectFrom('refunds').select('id').where('app_id', '=', appId).execute()).length;

  it('gives back the overpaid part through a claim link, readable by id and in the list', async () => {
    const { appId, key, wallet } = await merchant();
    const invoice = await paidInvoice(key, '10', 'USD', '15');
    const answer = await refund(key, invoice.id, { amount_kind: 'overpaid' });
    expect(answer.statusCode).toBe(201);
    const made = answer.json<Record<string, unknown>>();
    expect(made).toMatchObject({
      invoice_id: invoice.id,
      status: 'pending_claim',
      method: 'USDT-BEP20',
      chain_id: 56,
      amount: '5',
      amount_kind: 'overpaid',
      from_address: wallet,
      address: null,
      claim_url: expect.stringMatching(/^http:\/\/pay\.shop\.test\/refund\/[A-Za-z0-9_-]{32}$/),
      tx_hash: null,
    });
    expect(await eventTypesOf(t, String(made.id))).toEqual(['refund.created']);
    const read = await send('GET', `/refunds/${String(made.id)}`, key);
    expect(read.json()).toEqual(made);
    const list = await send('GET', `/refunds?invoice=${invoice.id}`, key);
    expect(list.json()).toEqual({ data: [made], next_cursor: null });
    // The token is kept hashed and sealed, never as it is.
    const row = await t.db
      .selectFrom('refunds')
      .selectAll()
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    const token = String(made.claim_url).split('/').at(-1) ?? '';
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('converts an amount in the invoice currency at the rate then, or at today’s', async () => {
    const { key } = await merchant();
    // 54 USDT for 50 EUR at 1.08 USD a euro.
    const invoice = await paidInvoice(key, '50', 'EUR', '54');
    const then = await refund(key, invoice.id, {
      amount_kind: 'custom',
      amount: '10.00',
      currency: 'EUR',
      rate: 'original',
    });
    expect(then.json()).toMatchObject({
      amount: '10.8',
      requested_amount: '10.00',
      rate_kind: 'original',
    });
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.2', maxAgeHours: 8760, now: t.clock() });
    // Past the process's few seconds of rate cache.
    t.clock.set(new Date(t.clock().getTime() + 60_000));
    try {
      const now = await refund(key, invoice.id, {
        amount_kind: 'custom',
        amount: '10.00',
        currency: 'EUR',
        rate: 'current',
      });
      expect(now.json()).toMatchObject({ amount: '12', rate_kind: 'current' });
    } finally {
      await setTableRate(t.db, {
        pair: 'EUR/USD',
        rate: '1.08',
        maxAgeHours: 8760,
        now: t.clock(),
      });
    }
  });

  it('never refunds more than was paid, also when two refunds race', async () => {
    const { appId, key } = await merchant();
    const invoice = await paidInvoice(key, '20', 'USD', '20');
    const [a, b] = await Promise.all([
      refund(key, invoice.id, { amount_kind: 'custom', amount: '15' }),
      refund(key, invoice.id, { amount_kind: 'custom', amount: '15' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const refused = (a.statusCode === 422 ? a : b).json<{
      error: { fields: Record<string, string[]> };
    }>();
    expect(refused.error.fields.amount).toEqual([
      'At most 5 USDT can be refunded in USDT-BEP20, what was paid less what was refunded already; 15 USDT was asked.',
    ]);
    expect(await refundCount(appId)).toBe(1);
    const rest = await refund(key, invoice.id, { amount_kind: 'full' });
    expect(rest.json()).toMatchObject({ amount: '5', amount_kind: 'full' });
    const none = await refund(key, invoice.id, { amount_kind: 'full' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      error: { fields: { amount_kind: ['Everything paid in USDT-BEP20 was refunded already.'] } },
    });
  });

  it('answers a retry with the same key with the first refund, and refuses another body', async () => {
    const { appId, key } = await merchant();
    const invoice = await paidInvoice(key, '10', 'USD', '10');
    const first = await refund(key, invoice.id, { amount_kind: 'custom', amount: '1' }, 'same');
    const again = await refund(key, invoice.id, { amount_kind: 'custom', amount: '1' }, 'same');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await refund(key, invoice.id, { amount_kind: 'custom', amount: '2' }, 'same');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      error: { fields: { 'Idempotency-Key': [IDEMPOTENCY_KEY_REUSED] } },
    });
    expect(await refundCount(appId)).toBe(1);
  });

  it('pays a merchant’s address once the wallet covers it: awaiting funds, then queued', async () => {
    const { key, wallet } = await merchant(['invoices:write', 'refunds:write', 'withdrawals:read']);
    const invoice = await paidInvoice(key, '10', 'USD', '10');
    const made = await refund(key, invoice.id, { amount_kind: 'full', address: SHOPPER });
    expect(made.statusCode).toBe(201);
    const waiting = made.json<{ id: string; status: string; waiting_message: string }>();
    expect(waiting).toMatchObject({
      status: 'awaiting_funds',
      address: SHOPPER,
      address_source: 'merchant',
    });
    expect(waiting.waiting_message).toContain(wallet);
    await transfer(wallet, usdt(), '10');
    await transfer(wallet, null, '0.01');
    await advanceRefunds(t.db, (db) => gasBalanceReader(t.config, chain(), db), t.clock());
    const queued = await send('GET', `/refunds/${waiting.id}`, key);
    expect(queued.json()).toMatchObject({ status: 'queued', waiting_message: null });
    const sendRow = await t.db
      .selectFrom('send_transactions')
      .select(['status', 'to_address', 'amount_raw', 'request_mac', 'from_address'])
      .where('refund_id', '=', waiting.id)
      .executeTakeFirstOrThrow();
    expect(sendRow).toMatchObject({
      status: 2,
      to_address: SHOPPER,
      amount_raw: parseUnits('10', 18).toString(),
      from_address: wallet,
      request_mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // A refund's send is not a withdrawal of the merchant's.
    expect((await send('GET', '/withdrawals', key)).json()).toMatchObject({ data: [] });
  });

  it('cancels a refund before anything is signed, and its amount is refundable again', async () => {
    const { key, wallet } = await merchant();
    const invoice = await paidInvoice(key, '10', 'USD', '10');
    const claim = (await refund(key, invoice.id, { amount_kind: 'full' })).json<{ id: string }>();
    const cancelled = await send('POST', `/refunds/${claim.id}/cancel`, key);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', claim_url: null });
    expect(await eventTypesOf(t, claim.id)).toEqual(['refund.created', 'refund.cancelled']);
    const again = await send('POST', `/refunds/${claim.id}/cancel`, key);
    expect(again.statusCode).toBe(409);
    await transfer(wallet, usdt(), '10');
    await transfer(wallet, null, '0.01');
    const queued = (await refund(key, invoice.id, { amount_kind: 'full', address: SHOPPER })).json<{
      id: string;
      status: string;
    }>();
    expect(queued.status).toBe('queued');
    expect((await send('POST', `/refunds/${queued.id}/cancel`, key)).json()).toMatchObject({
      status: 'cancelled',
    });
    const sendRow = await t.db
      .selectFrom('send_transactions')
      .select('status')
      .where('refund_id', '=', queued.id)
      .executeTakeFirstOrThrow();
    expect(sendRow.status).toBe(7);
  });

  it('expires an unclaimed link after 30 days', async () => {
    const { key } = await merchant();
    const invoice = await paidInvoice(key, '10', 'USD', '10');
    const claim = (await refund(key, invoice.id, { amount_kind: 'full' })).json<{ id: string }>();
    const reader = (db: Parameters<typeof gasBalanceReader>[2]) =>
      gasBalanceReader(t.config, chain(), db);
    await advanceRefunds(t.db, reader, new Date(t.clock().getTime() + 29 * DAY));
    expect((await send('GET', `/refunds/${claim.id}`, key)).json()).toMatchObject({
      status: 'pending_claim',
    });
    await advanceRefunds(t.db, reader, new Date(t.clock().getTime() + 31 * DAY));
    expect((await send('GET', `/refunds/${claim.id}`, key)).json()).toMatchObject({
      status: 'expired',
      claim_url: null,
    });
    expect(await eventTypesOf(t, claim.id)).toEqual(['refund.created', 'refund.expired']);
    // Its amount can be refunded again.
    expect((await refund(key, invoice.id, { amount_kind: 'full' })).statusCode).toBe(201);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const { appId, key } = await merchant();
    const open = await paidInvoice(key, '10', 'USD', null);
    const state = await refund(key, open.id, { amount_kind: 'full' });
    expect(state.statusCode).toBe(409);
    expect(state.json()).toMatchObject({ error: { code: 'invoice_state', invoice_status: 'new' } });
    const paid = await paidInvoice(key, '10', 'USD', '10');
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { amount_kind: 'custom' },
        'amount',
        'amount is required with amount_kind custom, like "10.00".',
      ],
      [
        { amount_kind: 'custom', amount: '11' },
        'amount',
        'At most 10 USDT can be refunded in USDT-BEP20, what was paid less what was refunded already; 11 USDT was asked.',
      ],
      [
        { amount_kind: 'custom', amount: '1', currency: 'XYZ' },
        'currency',
        "currency must be the invoice's currency (USD) or the token (USDT).",
      ],
      [
        { amount_kind: 'custom', amount: '1.001', currency: 'USD' },
        'amount',
        'USD has 2 decimals: the amount has more.',
      ],
      [
        { amount_kind: 'overpaid' },
        'amount_kind',
        'The invoice was not overpaid: refund it in full or a custom amount.',
      ],
      [
        { amount_kind: 'full', address: '0x1234' },
        'address',
        expect.stringContaining('Not a valid BNB Smart Chain') as unknown as string,
      ],
      [
        { amount_kind: 'full', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' },
        'address',
        expect.stringContaining('Not a valid') as unknown as string,
      ],
      [
        { amount_kind: 'full', address: paid.address },
        'address',
        "address is the invoice's own address: the refund would be paid to the gateway, not the shopper.",
      ],
      [
        { amount_kind: 'full', method: 'BNB-BSC' },
        'method',
        'The invoice was not paid in BNB-BSC: it was paid in USDT-BEP20.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const answer = await refund(key, paid.id, body);
      expect({ body, status: answer.statusCode }).toEqual({ body, status: 422 });
      expect(answer.json()).toMatchObject({
        error: { code: 'invalid_request', fields: { [field]: [message] } },
      });
    }
    // Expired with nothing paid: nothing to give back.
    t.clock.set(new Date(t.clock().getTime() + DAY));
    await watchDeposits(t.db, chain(), t.clock());
    await expireInvoices(t.db, t.clock());
    const nothing = await refund(key, open.id, { amount_kind: 'full' });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json()).toMatchObject({
      error: {
        fields: {
          amount_kind: ['Nothing confirmed was paid on this invoice: there is nothing to refund.'],
        },
      },
    });
    expect(await refundCount(appId)).toBe(0);
  });

  it('needs refunds:write to refund and refunds:read to read', async () => {
    const { key } = await merchant(['invoices:write']);
    const invoice = await paidInvoice(key, '10', 'USD', '10');
    expect((await refund(key, invoice.id, { amount_kind: 'full' })).statusCode).toBe(403);
    expect((await send('GET', '/refunds', key)).statusCode).toBe(403);
  });

  const creditsOf = (invoiceId: string) =>
    t.db
      .selectFrom('receive_transactions')
      .select(['chain_id', 'payment_method_id', 'deposit_status', 'amount_raw', 'address'])
      .select(['tnx_count', 'fee_percent'])
      .where('unique_id', '=', invoiceId)
      .execute();

  /** Past the invoice's expiry, both chains read past it: expired. */
  async function expire() {
    t.clock.set(new Date(t.clock().getTime() + DAY));
    await watchDeposits(t.db, chain(), t.clock());
    await watchDeposits(t.db, chainAdapterFor(t.config, t.db, 1), t.clock());
    await expireInvoices(t.db, t.clock());
  }

  it('takes in what an expired invoice was paid when it is refunded, once, to be swept to the payout address', async () => {
    const { key } = await merchant();
    const invoice = await paidInvoice(key, '50', 'USD', '20');
    await expire();
    expect((await send('GET', `/invoices/${invoice.id}`, key)).json()).toMatchObject({
      status: 'expired',
      exceptions: ['paid_partial'],
    });
    // Nothing settled: the 20 USDT are still at the invoice's address, nobody's credit.
    expect(await creditsOf(invoice.id)).toEqual([]);
    const part = await refund(key, invoice.id, { amount_kind: 'custom', amount: '5' });
    expect(part.statusCode).toBe(201);
    const credit = {
      chain_id: 56,
      payment_method_id: 'pm_usdt_bsc',
      deposit_status: 3,
      amount_raw: parseUnits('20', 18).toString(),
      address: invoice.address,
      // A deposit like any other, its fee included; not a transaction of its own.
      tnx_count: 0,
      fee_percent: expect.any(String),
    };
    expect(await creditsOf(invoice.id)).toEqual([credit]);
    const rest = await refund(key, invoice.id, { amount_kind: 'full' });
    expect(rest.json()).toMatchObject({ amount: '15' });
    expect(await creditsOf(invoice.id)).toEqual([credit]);
  });

  it('refunds a payment sent on another network in its own method, at the rate locked for the same token', async () => {
    const { appId, key } = await merchant();
    const invoice = await paidInvoice(key, '50', 'EUR', null);
    for (const method of ['pm_usdt_eth', 'pm_bnb']) {
      await insertAppMethod(t, {
        id: `apm_${appId}_${method}`,
        app_id: appId,
        payment_method_id: method,
      });
      await t.db
        .updateTable('app_payment_methods')
        .set({
          gas_address: `0x${(0xb000 + serial).toString(16).padStart(40, '0')}`,
          gas_index: 3000 + serial,
        })
        .where('id', '=', `apm_${appId}_${method}`)
        .execute();
    }
    // 10.8 USDT on Ethereum, and 0.05 BNB: neither offered by the invoice.
    const ethereum = chainAdapterFor(t.config, t.db, 1);
    await recordLocalChainTransfer(t.db, {
      chainId: 1,
      token: ethereum.tokenContract('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
      to: invoice.address,
      amount: parseUnits('10.8', 6),
      createdAt: t.clock().toISOString(),
    });
    await transfer(invoice.address, null, '0.05');
    await watchDeposits(t.db, ethereum, t.clock());
    await watchDeposits(t.db, chain(), t.clock());
    await mineLocalBlocks(t.db, 20, 1);
    await mineLocalBlocks(t.db, 20);
    await expire();
    const paid = (await send('GET', `/invoices/${invoice.id}`, key)).json();
    expect(paid).toMatchObject({ status: 'expired', paid: '0.00' });
    expect(paid.payments).toEqual([
      expect.objectContaining({ method: 'USDT-ERC20', status: 'confirmed', flag: 'wrong_network' }),
      expect.objectContaining({ method: 'BNB-BSC', status: 'confirmed', flag: 'wrong_asset' }),
    ]);
    // 5.00 EUR at the 1.08 USD the invoice locked for USDT: 5.4 USDT, on Ethereum.
    const back = await refund(key, invoice.id, {
      amount_kind: 'custom',
      amount: '5.00',
      currency: 'EUR',
      method: 'USDT-ERC20',
    });
    expect(back.statusCode).toBe(201);
    expect(back.json()).toMatchObject({ method: 'USDT-ERC20', chain_id: 1, amount: '5.4' });
    expect(await creditsOf(invoice.id)).toEqual([
      expect.objectContaining({
        chain_id: 1,
        payment_method_id: 'pm_usdt_eth',
        amount_raw: parseUnits('10.8', 6).toString(),
        address: invoice.address,
      }),
    ]);
    // No rate was locked for BNB: in BNB, or at the rate now.
    const bnb = await refund(key, invoice.id, {
      amount_kind: 'custom',
      amount: '5.00',
      currency: 'EUR',
      method: 'BNB-BSC',
    });
    expect(bnb.statusCode).toBe(422);
    expect(bnb.json()).toMatchObject({
      error: {
        fields: {
          rate: [
            'The invoice locked no rate for BNB: refund an amount in BNB, or in EUR at the current rate (rate current).',
          ],
        },
      },
    });
    const whole = await refund(key, invoice.id, { amount_kind: 'full', method: 'BNB-BSC' });
    expect(whole.json()).toMatchObject({ method: 'BNB-BSC', chain_id: 56, amount: '0.05' });
  });
});
