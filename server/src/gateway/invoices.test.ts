import { addUser } from '../../test/accounts';
import {
  eventTypesOf,
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertSubscription,
} from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { INVOICE_BRANCH } from '../domain/invoices/invoices';
import { deriveEvmAddress } from '../domain/chain/hdWallet';
import { tronAddressFromEvm } from '../domain/chain/addresses';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { IDEMPOTENCY_KEY_REUSED } from '../domain/payments/idempotency';
import { setTableRate } from '../domain/rates/table';
import { parseUnits } from 'viem';
import { chainAdapterFor } from '../domain/chain';
import { recordLocalChainTransfer } from '../domain/chain/localAdapter';
import { specUsdt } from '../domain/chain/specChains';
import { watchDeposits } from '../domain/payments/deposits';

// Invoices through the gateway over HTTP, as a merchant's server sees them: what a new invoice
// holds (its own address, each method's locked rate, amount due and EIP-681 URI), the list and
// its filters, every bad input named by its field with nothing created, the plan's 402, no rate
// no invoice (503), Idempotency-Key, cancel and mark with their 409s, and GET /rates.

const BASE = '/gateway/v1';
const HOST = 'pay.shop.test';
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);
const docUrl = (code: string) => `http://${HOST}${BASE}/docs#section/${code}`;
const USDT_BSC = '0x55d398326f99059fF775485246999027B3197955';

describe('gateway invoices', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;
  /** When the table's rates were set: the time a rate through them carries. */
  let ratesAt = '';

  beforeAll(async () => {
    ratesAt = t.clock().toISOString();
    await setTableRate(t.db, { pair: 'EUR/USD', rate: '1.08', maxAgeHours: 24, now: t.clock() });
    await setTableRate(t.db, { pair: 'BNB/USD', rate: '600', maxAgeHours: 24, now: t.clock() });
    await setTableRate(t.db, { pair: 'USD/INR', rate: '84', maxAgeHours: 24, now: t.clock() });
  });

  /** A merchant with a package, USDT (BEP20), BNB and USDT (TRC20) enabled, and a key. */
  async function merchant(
    options: { abilities?: string[]; subscribed?: boolean; bnbDeposits?: 0 | 1 } = {},
  ) {
    serial += 1;
    const tag = `inv${serial}`;
    const userId = await addUser(t, `merchant_${tag}`);
    if (options.subscribed !== false) await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: `apm_${tag}_usdt`, app_id: appId });
    for (const [method, deposits] of [
      ['pm_bnb', options.bnbDeposits ?? 1],
      ['pm_usdt_tron', 1],
    ] as const) {
      await t.db
        .insertInto('app_payment_methods')
        .values({
          id: `apm_${tag}_${method}`,
          app_id: appId,
          payment_method_id: method,
          collect_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
          gas_address: null,
          gas_index: null,
          deposit_status: deposits,
          withdraw_status: 0,
          created_at: t.clock().toISOString(),
        })
        .execute();
    }
    const key = await insertApiKey(t, {
      id: `key_${tag}`,
      app_id: appId,
      abilities: options.abilities ?? ['invoices:write', 'webhooks:write'],
    });
    return { appId, key };
  }

  const send = (
    method: 'GET' | 'POST',
    url: string,
    key: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.inject({
      method,
      url: `${BASE}${url}`,
      headers: { host: HOST, authorization: `Bearer ${key}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const order = {
    amount: '49.90',
    currency: 'EUR',
    order_id: 'order-1042',
    description: 'Two mugs',
    metadata: { z: 1, a: [true, null], note: 'déjà vu' },
    redirect_url: 'https://shop.example.com/thanks',
  };
  const invoiceCount = async (appId: string) =>
    Number(
      (
        await t.db
          .selectFrom('invoices')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('app_id', '=', appId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a body whose strings hold half a surrogate pair, and keeps a whole pair', async () => {
    const { appId, key } = await merchant();
    // Bodies as written, escapes and all.
    const post = (body: string) =>
      send('POST', '/invoices', key, body, { 'content-type': 'application/json' });
    // JSON's escapes can write what no text holds: half of a UTF-16 pair, in a value or a key.
    for (const half of [
      '{"amount":"5","currency":"USDT","description":"a\\ud800b"}',
      '{"amount":"5","currency":"USDT","order_id":"o\\udc00"}',
      '{"amount":"5","currency":"USDT","metadata":{"k\\uDBFF":"v"}}',
    ]) {
      const res = await post(half);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 'bad_request',
          message: 'The request body is not valid JSON.',
          doc_url: docUrl('bad_request'),
          request_id: REQUEST_ID,
        },
      });
    }
    expect(await invoiceCount(appId)).toBe(0);
    // A whole pair, escaped or not, is text: stored and answered as sent.
    const whole = await post(
      '{"amount":"5","currency":"USDT","description":"\\ud83d\\ude80 🚀","metadata":{"k":"\\uD83D\\uDE80"}}',
    );
    expect(whole.statusCode).toBe(201);
    expect(whole.json()).toMatchObject({ description: '🚀 🚀', metadata: { k: '🚀' } });
    const read = await send('GET', `/invoices/${whole.json().id}`, key);
    expect(read.json()).toMatchObject({ description: '🚀 🚀', metadata: { k: '🚀' } });
  });

  it('creates an invoice at an address of its own, each method priced at a locked rate', async () => {
    const { appId, key } = await merchant();
    const res = await send('POST', '/invoices', key, order);
    expect(res.statusCode).toBe(201);
    const invoice = res.json();
    const row = await t.db
      .selectFrom('invoices')
      .select('derivation_index')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    const evm = deriveEvmAddress(resolveWalletXpub(t.config), row.derivation_index, [
      INVOICE_BRANCH,
    ]);
    const now = t.clock().toISOString();
    expect(invoice).toEqual({
      livemode: true,
      id: expect.stringMatching(/^inv_[0-9a-z]{26}$/),
      status: 'new',
      exceptions: [],
      invalid_reason: null,
      mark_reason: null,
      amount: '49.90',
      currency: 'EUR',
      paid: '0.00',
      due: '49.90',
      overpaid: null,
      order_id: 'order-1042',
      description: 'Two mugs',
      buyer_email: null,
      metadata: { z: 1, a: [true, null], note: 'déjà vu' },
      redirect_url: 'https://shop.example.com/thanks',
      checkout_url: `http://${HOST}/pay/${invoice.id}`,
      payment_link_id: null,
      underpayment_tolerance: '0',
      late_window_minutes: 60,
      created_at: now,
      expires_at: new Date(t.clock().getTime() + 900_000).toISOString(),
      updated_at: now,
      payment_options: [
        {
          method: 'USDT-BEP20',
          chain_id: 56,
          token_contract: USDT_BSC,
          address: evm,
          // 49.90 EUR at 1.08 USD is 53.892 USD: rounded up to the cent.
          amount_due: '53.9',
          rate: '0.925925925925925926',
          rate_source: 'peg:USDT/USD+table:EUR/USD',
          rate_at: ratesAt,
          payment_uri: `ethereum:${USDT_BSC}@56/transfer?address=${evm}&uint256=53900000000000000000`,
          paid: '0',
          due: '53.9',
          refunded: '0',
        },
        {
          method: 'BNB-BSC',
          chain_id: 56,
          token_contract: null,
          address: evm,
          amount_due: '0.08982',
          rate: '555.555555555555555556',
          rate_source: 'table:BNB/USD+table:EUR/USD',
          rate_at: ratesAt,
          payment_uri: `ethereum:${evm}@56?value=89820000000000000`,
          paid: '0',
          due: '0.08982',
          refunded: '0',
        },
        {
          method: 'USDT-TRC20',
          chain_id: 0,
          token_contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          address: tronAddressFromEvm(evm),
          amount_due: '53.9',
          rate: '0.925925925925925926',
          rate_source: 'peg:USDT/USD+table:EUR/USD',
          rate_at: ratesAt,
          payment_uri: null,
          paid: '0',
          due: '53.9',
          refunded: '0',
        },
      ],
      payments: [],
      refunds: [],
    });
    // What GET answers, and what the invoice.created webhook carries, is the same object.
    expect((await send('GET', `/invoices/${invoice.id}`, key)).json()).toEqual(invoice);
    expect(await eventTypesOf(t, invoice.id)).toEqual(['invoice.created']);
    const events = (await send('GET', '/events', key)).json();
    expect(events.data).toEqual([
      expect.objectContaining({ type: 'invoice.created', app_id: appId, data: invoice }),
    ]);

    // The next invoice gets the next address; the metadata comes back in the order sent.
    const next = (await send('POST', '/invoices', key, { amount: '5', currency: 'USDT' })).json();
    expect(next.payment_options[0]).toMatchObject({
      rate: '1',
      rate_source: 'same:USDT/USDT',
      amount_due: '5',
    });
    expect(next.payment_options[0].address).not.toBe(evm);
    expect(JSON.stringify(invoice.metadata)).toBe('{"z":1,"a":[true,null],"note":"déjà vu"}');
  });

  it('takes the methods asked, in the app order, and refuses one it cannot use', async () => {
    const { appId, key } = await merchant({ bnbDeposits: 0 });
    const res = await send('POST', '/invoices', key, {
      amount: '1000',
      currency: 'INR',
      methods: ['USDT-TRC20', 'USDT-BEP20'],
      expires_in: 3600,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().payment_options.map((o: { method: string }) => o.method)).toEqual([
      'USDT-BEP20',
      'USDT-TRC20',
    ]);
    // 1000 INR at 84 INR a dollar: 11.9047... USDT, rounded up.
    expect(res.json().payment_options[0]).toMatchObject({ amount_due: '11.91', rate: '84' });
    // Not asked: every method with For Deposit on (BNB's is off).
    const all = (await send('POST', '/invoices', key, { amount: '1', currency: 'USD' })).json();
    expect(all.payment_options.map((o: { method: string }) => o.method)).toEqual([
      'USDT-BEP20',
      'USDT-TRC20',
    ]);
    const before = await invoiceCount(appId);
    const refused = await send('POST', '/invoices', key, {
      amount: '1',
      currency: 'USD',
      methods: ['BNB-BSC', 'USDT-ERC20'],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields).toEqual({
      methods: [
        'Deposits of BNB-BSC are switched off for this app.',
        'The app has not enabled USDT-ERC20.',
      ],
    });
    expect(await invoiceCount(appId)).toBe(before);
  });

  const REFUSALS: [Record<string, unknown>, Record<string, string[]>][] = [
    [{ amount: '0' }, { amount: ['amount must be above 0, like "49.90".'] }],
    [{ amount: '1000000000.01' }, { amount: ['amount must be at most 1000000000, like "49.90".'] }],
    [{ amount: '49.901' }, { amount: ['EUR has 2 decimals: amount has more (49.901).'] }],
    [
      { amount: '1.5', currency: 'JPY' },
      { amount: ['JPY has 0 decimals: amount has more (1.5).'] },
    ],
    [{ amount: '-1' }, { amount: ['amount must be a decimal string like "49.90".'] }],
    [{ amount: 49.9 }, { amount: ['amount must be a decimal string like "49.90".'] }],
    [
      { currency: 'XYZ' },
      {
        currency: [
          'currency must be one of USD, EUR, GBP, INR, JPY, CAD, AUD, CHF, USDT, USDC, BNB, ETH, POL, TRX, like "EUR"; XYZ is not one.',
        ],
      },
    ],
    [
      { currency: 'eur' },
      { currency: ['currency must be a currency code in capitals, like "EUR".'] },
    ],
    [
      { expires_in: 299 },
      { expires_in: ['expires_in must be a whole number of seconds from 300 to 86400, like 900.'] },
    ],
    [
      { expires_in: 86_401 },
      { expires_in: ['expires_in must be a whole number of seconds from 300 to 86400, like 900.'] },
    ],
    ...['javascript:alert(1)', 'data:text/html,hi', 'ftp://shop.example.com', 'https://'].map(
      (url) =>
        [
          { redirect_url: url },
          {
            redirect_url: [
              'redirect_url must be an http(s) URL, like "https://shop.example.com/thanks".',
            ],
          },
        ] as [Record<string, unknown>, Record<string, string[]>],
    ),
    [{ metadata: ['a'] }, { metadata: ['metadata must be a JSON object, like {"cart": "42"}.'] }],
    [{ metadata: 'cart' }, { metadata: ['metadata must be a JSON object, like {"cart": "42"}.'] }],
    [
      { metadata: { blob: 'x'.repeat(4100) } },
      { metadata: ['metadata must be at most 4 KB of JSON (4096 bytes); this is 4111.'] },
    ],
    [
      { order_id: 'o'.repeat(129) },
      { order_id: ['order_id must be at most 128 characters, like "order-1042".'] },
    ],
    [
      { buyer_email: 'not an address' },
      { buyer_email: ['buyer_email must be an e-mail address, like "ada@example.com".'] },
    ],
    [
      { methods: [] },
      { methods: ['methods must name at least one method, like ["USDT-BEP20"], or be left out.'] },
    ],
  ];

  it.each(REFUSALS)(
    'refuses %j with 422 naming the field, and creates nothing',
    async (change, fields) => {
      const { appId, key } = await merchant();
      const res = await send('POST', '/invoices', key, { ...order, ...change });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: {
          code: 'invalid_request',
          message: Object.values(fields)[0]?.[0],
          doc_url: docUrl('invalid_request'),
          fields,
          request_id: REQUEST_ID,
        },
      });
      expect(await invoiceCount(appId)).toBe(0);
    },
  );

  it('answers 402 when the plan has no room, and 503 naming the pair without a fresh rate', async () => {
    const unpaid = await merchant({ subscribed: false });
    const refused = await send('POST', '/invoices', unpaid.key, order);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({
      code: 'no_package',
      message:
        'The merchant has no active package: subscribe to a package to create invoices. Deposits to existing addresses are still credited.',
    });
    expect(await invoiceCount(unpaid.appId)).toBe(0);

    const { appId, key } = await merchant();
    const noRate = await send('POST', '/invoices', key, { ...order, currency: 'GBP' });
    expect(noRate.statusCode).toBe(503);
    expect(noRate.json()).toEqual({
      error: {
        code: 'rate_unavailable',
        message:
          'No fresh rate for GBP/USD (table: no GBP/USD is set): an invoice is never priced with a stale rate. Retry in a minute.',
        doc_url: docUrl('rate_unavailable'),
        pair: 'GBP/USD',
        request_id: REQUEST_ID,
      },
    });
    expect(await invoiceCount(appId)).toBe(0);
  });

  it('honours Idempotency-Key as withdrawals do', async () => {
    const { appId, key } = await merchant();
    const first = await send('POST', '/invoices', key, order, {
      'idempotency-key': 'order-1042-1',
    });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(
      'POST',
      '/invoices',
      key,
      // The same fields in another order are the same request.
      Object.fromEntries(Object.entries(order).reverse()),
      { 'idempotency-key': 'order-1042-1' },
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await send(
      'POST',
      '/invoices',
      key,
      { ...order, amount: '50' },
      {
        'idempotency-key': 'order-1042-1',
      },
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().error.fields).toEqual({ 'Idempotency-Key': [IDEMPOTENCY_KEY_REUSED] });
    // Without a key, every request is a new invoice.
    await send('POST', '/invoices', key, order);
    expect(await invoiceCount(appId)).toBe(2);
  });

  it('lists invoices newest first, filtered by status, order id and time, page by page', async () => {
    const { key } = await merchant();
    const ids: string[] = [];
    for (const orderId of ['order-a', 'order-b', 'order-a']) {
      ids.push((await send('POST', '/invoices', key, { ...order, order_id: orderId })).json().id);
      t.clock.advance(1_000);
    }
    await send('POST', `/invoices/${ids[1]}/cancel`, key);
    const page = async (query: string) => {
      const res = await send('GET', `/invoices${query}`, key);
      expect(res.statusCode).toBe(200);
      return res.json() as { data: { id: string }[]; next_cursor: string | null };
    };
    expect((await page('')).data.map((i) => i.id)).toEqual([...ids].reverse());
    expect((await page('?order_id=order-a')).data.map((i) => i.id)).toEqual([ids[2], ids[0]]);
    expect((await page('?status=invalid')).data.map((i) => i.id)).toEqual([ids[1]]);
    const first = await page('?limit=2');
    expect(first.data.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    const second = await page(`?limit=2&cursor=${first.next_cursor}`);
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    const deposits = await send('GET', `/deposits?cursor=${first.next_cursor}`, key);
    expect(deposits.statusCode).toBe(403);
    const foreign = await send(
      'GET',
      '/invoices?cursor=WyJkZXBvc2l0cyIsIjIwMjYtMTEtMDFUMDA6MDA6MDBaIiwieCJd',
      key,
    );
    expect(foreign.statusCode).toBe(422);
    expect(Object.keys(foreign.json().error.fields)).toEqual(['cursor']);
    expect((await page(`?from=${new Date(t.clock().getTime() + 1).toISOString()}`)).data).toEqual(
      [],
    );
  });

  it('cancels a new invoice once, and answers 409 with the status otherwise', async () => {
    const { key } = await merchant();
    const { id } = (await send('POST', '/invoices', key, order)).json();
    const cancelled = await send('POST', `/invoices/${id}/cancel`, key);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      id,
      status: 'invalid',
      invalid_reason: 'cancelled',
      exceptions: [],
    });
    expect(await eventTypesOf(t, id)).toEqual(['invoice.created', 'invoice.invalid']);
    const again = await send('POST', `/invoices/${id}/cancel`, key);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: {
        code: 'invoice_state',
        message: 'The invoice is invalid: only a new invoice can be cancelled.',
        doc_url: docUrl('invoice_state'),
        invoice_status: 'invalid',
        request_id: REQUEST_ID,
      },
    });
    const other = await merchant();
    expect((await send('POST', `/invoices/${id}/cancel`, other.key)).statusCode).toBe(404);
    expect((await send('GET', `/invoices/${id}`, other.key)).statusCode).toBe(404);
    expect((await send('GET', '/invoices/inv_nothing', key)).statusCode).toBe(404);
  });

  it('answers a read kept until a row of the invoice changes, whoever writes it', async () => {
    const { appId, key } = await merchant();
    const created = (await send('POST', '/invoices', key, order)).json();
    const read = async () => {
      const res = await send('GET', `/invoices/${created.id}`, key);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    expect(await read()).toEqual(created);
    // Kept now: the same answer again, byte for byte.
    expect(await read()).toEqual(created);

    // A payment the watcher records, written outside the gateway.
    const option = created.payment_options[0];
    await t.db
      .insertInto('invoice_payments')
      .values({
        id: `ipay_${created.id}`,
        invoice_id: created.id,
        app_id: appId,
        payment_method_id: 'pm_usdt_bsc',
        chain_id: option.chain_id,
        tx_hash: `0x${'ab'.repeat(32)}`,
        log_index: 0,
        block_number: 100,
        amount_raw: '10000000000000000000',
        value: '9.25',
        confirmations: 1,
        status: 'pending',
        late: 0,
        created_at: t.clock().toISOString(),
        seen_at: t.clock().toISOString(),
      })
      .execute();
    const paid = await read();
    expect(paid.paid).toBe('9.25');
    expect(paid.payments).toEqual([expect.objectContaining({ amount: '10', status: 'pending' })]);
    expect(paid.payment_options[0].paid).toBe('10');

    // Its confirmations, an option's row and the invoice's own row, each seen at once.
    await t.db
      .updateTable('invoice_payments')
      .set({ confirmations: 5 })
      .where('invoice_id', '=', created.id)
      .execute();
    expect((await read()).payments[0].confirmations).toBe(5);
    await t.db
      .updateTable('invoice_payment_options')
      .set({ rate_source: 'table:EUR/USDT' })
      .where('invoice_id', '=', created.id)
      .where('position', '=', 0)
      .execute();
    expect((await read()).payment_options[0].rate_source).toBe('table:EUR/USDT');
    await t.db
      .updateTable('invoices')
      .set({ status: 'expired', paid_partial: 1 })
      .where('id', '=', created.id)
      .execute();
    expect(await read()).toMatchObject({ status: 'expired', exceptions: ['paid_partial'] });
  });

  it("marks an invoice settled or invalid, the merchant's reason kept, and a settled one no more", async () => {
    const { key } = await merchant();
    const { id } = (await send('POST', '/invoices', key, order)).json();
    const reason = 'Paid by bank transfer instead.';
    const marked = await send('POST', `/invoices/${id}/mark`, key, { status: 'settled', reason });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({
      status: 'settled',
      exceptions: ['marked'],
      mark_reason: reason,
      invalid_reason: null,
    });
    expect(await eventTypesOf(t, id)).toEqual(['invoice.created', 'invoice.settled']);
    const refused = await send('POST', `/invoices/${id}/mark`, key, { status: 'invalid', reason });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'invoice_state',
      message: 'The invoice is settled: it cannot be marked any more.',
      invoice_status: 'settled',
    });

    const other = (await send('POST', '/invoices', key, order)).json();
    const invalid = await send('POST', `/invoices/${other.id}/mark`, key, {
      status: 'invalid',
      reason: 'Fraud suspected.',
    });
    expect(invalid.json()).toMatchObject({
      status: 'invalid',
      invalid_reason: 'marked',
      mark_reason: 'Fraud suspected.',
      exceptions: ['marked'],
    });
    const bad = await send('POST', `/invoices/${other.id}/mark`, key, { status: 'expired' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toEqual({
      status: ['status must be settled or invalid, like "settled".'],
      reason: ['Reason is required'],
    });
  });

  it('accepts a payment in a token the invoice did not ask for at the rate now, once; one on a network the app lacks is a 422', async () => {
    const { key } = await merchant();
    const { id, payment_options: options } = (
      await send('POST', '/invoices', key, { ...order, methods: ['USDT-BEP20'] })
    ).json();
    const address = options[0].address as string;
    // 0.05 BNB instead of USDT (BNB at 600 USD, the euro at 1.08 USD), then USDT on Ethereum.
    for (const [chainId, token, amount] of [
      [56, null, parseUnits('0.05', 18)],
      [1, specUsdt(1)?.contract ?? '', parseUnits('5', 6)],
    ] as const) {
      const chain = chainAdapterFor(t.config, t.db, chainId);
      await recordLocalChainTransfer(t.db, {
        chainId,
        token: token === null ? null : chain.tokenContract(token),
        to: address,
        amount,
        createdAt: t.clock().toISOString(),
      });
      await watchDeposits(t.db, chain, t.clock());
    }
    const found = (await send('GET', `/invoices/${id}`, key)).json();
    // Seen in the same instant: in the order of their blocks.
    expect(found.payments).toEqual([
      expect.objectContaining({ method: 'USDT-ERC20', flag: 'wrong_network', value: '0.00' }),
      expect.objectContaining({ method: 'BNB-BSC', flag: 'wrong_asset', value: '0.00' }),
    ]);
    const [usdt, bnb] = found.payments as { id: string }[];
    const accept = (payment: { id: string } | undefined) =>
      send('POST', `/invoices/${id}/payments/${payment?.id ?? ''}/accept`, key);
    const accepted = await accept(bnb);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'new',
      exceptions: ['paid_partial'],
      paid: '27.77',
      due: '22.13',
      payments: [
        expect.objectContaining({ value: '0.00', accepted: false }),
        expect.objectContaining({ value: '27.77', accepted: true }),
      ],
    });
    const again = await accept(bnb);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'conflict',
      message: 'This payment already counts toward the invoice.',
    });
    const lacking = await accept(usdt);
    expect(lacking.statusCode).toBe(422);
    expect(lacking.json().error).toMatchObject({
      code: 'invalid_request',
      message:
        "Add USDT-ERC20 to the app's payment methods first: its payout address receives this payment.",
    });
    const unknown = await send('POST', `/invoices/${id}/payments/ipay_nosuchpayment/accept`, key);
    expect(unknown.statusCode).toBe(404);
    // Reading is not enough.
    const { key: reader } = await merchant({ abilities: ['invoices:read'] });
    expect(
      (
        await accept(bnb).then(() =>
          send('POST', `/invoices/${id}/payments/${usdt?.id ?? ''}/accept`, reader),
        )
      ).statusCode,
    ).toBe(403);
  });

  it('shows the rates a new invoice would lock, and refuses a currency it does not take', async () => {
    const { key } = await merchant({ abilities: ['invoices:read'] });
    const rates = await send('GET', '/rates?currency=EUR', key);
    expect(rates.statusCode).toBe(200);
    const now = ratesAt;
    expect(rates.json()).toEqual({
      currency: 'EUR',
      data: [
        {
          method: 'USDT-BEP20',
          rate: '0.925925925925925926',
          rate_source: 'peg:USDT/USD+table:EUR/USD',
          rate_at: now,
        },
        {
          method: 'BNB-BSC',
          rate: '555.555555555555555556',
          rate_source: 'table:BNB/USD+table:EUR/USD',
          rate_at: now,
        },
        {
          method: 'USDT-TRC20',
          rate: '0.925925925925925926',
          rate_source: 'peg:USDT/USD+table:EUR/USD',
          rate_at: now,
        },
      ],
    });
    expect((await send('GET', '/rates?currency=XYZ', key)).statusCode).toBe(422);
    expect((await send('GET', '/rates?currency=GBP', key)).json().error).toMatchObject({
      code: 'rate_unavailable',
      pair: 'GBP/USD',
    });
    // invoices:read reads; creating needs invoices:write.
    const create = await send('POST', '/invoices', key, order);
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toMatchObject({
      code: 'ability_missing',
      message: 'This API key lacks the invoices:write ability.',
    });
    const list = await send(
      'GET',
      '/invoices',
      (await merchant({ abilities: ['deposits:read'] })).key,
    );
    expect(list.json().error.message).toBe('This API key lacks the invoices:read ability.');
  });
});
