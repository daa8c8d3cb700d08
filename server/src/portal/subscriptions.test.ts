import { balanceMicro } from '../domain/billing/ledger';
import { addMerchant, credit } from '../../test/moneyFixtures';
import { coded, expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';

// Packages, purchases, cancellation and the purchase history through HTTP, on a seeded database
// (Starter 19, Business 49, Enterprise 149 USDT, 30 days each).

const DAY = 86_400_000;

type Headers = { authorization: string };

describe('subscriptions', () => {
  // One app for the file (seeding is slow); every case uses its own accounts.
  const t = testAppPerBlock();

  const packages = (headers: Headers) => t.call('listPackages', { headers });
  const purchase = (headers: Headers, body: object) => t.call('purchasePackage', { headers, body });
  const cancel = (headers: Headers, id: string) =>
    t.call('cancelSubscription', { params: { id }, headers });
  const history = (headers: Headers, page?: number) =>
    t.call('listSubscriptions', { query: { page }, headers });
  const ledgerRows = (userId: string) =>
    t.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', userId).execute();

  // First: later cases move the clock past the demo plan's end.
  it('seeds the demo account with a Starter plan paid from its deposits', async () => {
    const headers = await t.authHeader();
    const current = (await packages(headers)).json().current_subscription;
    expect(current).toMatchObject({ package_id: 'pkg_starter', status: 1 });
    expect(Date.parse(current.end_date) - t.clock().getTime()).toBeGreaterThan(9 * DAY);
    const rows = (await history(headers)).json().data.data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ package: 'Starter', username: 'demo', status: 1 });
  });

  it('lists the packages cheapest first with no current subscription for a new account', async () => {
    const { headers } = await addMerchant(t, 'newbie');
    const res = await packages(headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((p: { name: string }) => p.name)).toEqual([
      'Starter',
      'Business',
      'Enterprise',
    ]);
    expect(body.data[0]).toEqual({
      id: 'pkg_starter',
      name: 'Starter',
      price: 19,
      duration_days: 30,
      fees: 1,
      tnx_limit: 1000,
      daily_tnx_limit: 100,
      app_count: 1,
    });
    expect(body.current_subscription).toBeNull();
  });

  it('buys a plan from the balance: one debit, one subscription, in force for its duration', async () => {
    const m = await addMerchant(t, 'buyer');
    await credit(t, m.id, '50');
    const res = await purchase(m.headers, { package_id: 'pkg_business' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(coded({ status: true, msg: 'Package purchased successfully' }));
    expect(await balanceMicro(t.db, m.id)).toBe(1_000_000n);
    const debit = (await ledgerRows(m.id)).find((e) => e.type === 'debit');
    expect(debit).toMatchObject({ amount_micro: 49_000_000, source: 'subscription' });
    const current = (await packages(m.headers)).json().current_subscription;
    expect(current).toMatchObject({ package_id: 'pkg_business', price: 49, status: 1 });
    expect(Date.parse(current.end_date) - t.clock().getTime()).toBe(30 * DAY);
    // The invoice of the purchase is the ledger reference of the debit.
    const row = (await history(m.headers)).json().data.data[0];
    expect(debit?.tnx).toBe(row.invoice_id);
    expect(row).toMatchObject({ package: 'Business', price: 49, status: 1, duration_days: 30 });
  });

  it('refuses a purchase the balance does not cover, clearly, changing nothing', async () => {
    const m = await addMerchant(t, 'short');
    await credit(t, m.id, '20');
    const res = await purchase(m.headers, { package_id: 'pkg_business' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(
      coded({
        status: false,
        msg:
          'Insufficient balance: the Business plan costs 49.00 USDT now and your wallet holds ' +
          '20.00 USDT. Please deposit USDT first.',
        errors: {},
      }),
    );
    expect(await ledgerRows(m.id)).toHaveLength(1);
    const subs = await t.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', m.id)
      .execute();
    expect(subs).toEqual([]);
  });

  it('asks for a plan and refuses unknown ones', async () => {
    const m = await addMerchant(t, 'picky');
    const missing = await purchase(m.headers, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().msg).toBe('Please select your plan first');
    const empty = await purchase(m.headers, { package_id: '' });
    expect(empty.json().errors).toEqual({ package_id: ['Please select your plan first'] });
    const unknown = await purchase(m.headers, { package_id: 'pkg_nope' });
    expectFieldErrors(unknown, { package_id: ['The selected plan does not exist.'] });
  });

  it('upgrades and downgrades by replacing the plan in force; a downgrade needs a reason', async () => {
    const m = await addMerchant(t, 'mover');
    await credit(t, m.id, '300');
    expect((await purchase(m.headers, { package_id: 'pkg_business' })).statusCode).toBe(200);

    const same = await purchase(m.headers, { package_id: 'pkg_business' });
    expect(same.statusCode).toBe(409);
    expect(same.json().msg).toBe('You are already subscribed to this plan.');

    t.clock.advance(1000);
    const up = await purchase(m.headers, { package_id: 'pkg_enterprise' });
    expect(up.json()).toEqual(coded({ status: true, msg: 'Plan upgraded successfully' }));

    t.clock.advance(1000);
    const noReason = await purchase(m.headers, { package_id: 'pkg_starter', remarks: '  ' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json()).toEqual({
      status: false,
      msg: 'Please Enter Reason for Downgrade',
      errors: { remarks: ['Please Enter Reason for Downgrade'] },
    });
    const down = await purchase(m.headers, {
      package_id: 'pkg_starter',
      remarks: 'Lower volume this quarter',
    });
    expect(down.json()).toEqual(coded({ status: true, msg: 'Plan downgraded successfully' }));

    // Prorated by unused whole days (29 of 30 each time), credits rounded down to the cent:
    // Enterprise cost 149 - 49 * 29/30 (47.36) = 101.64; Starter cost nothing and gave back
    // 149 * 29/30 (144.03) - 19 = 125.03.
    expect(await balanceMicro(t.db, m.id)).toBe(274_390_000n);
    const ledger = (await ledgerRows(m.id)).map((e) => [e.type, e.amount_micro]);
    expect(ledger).toEqual(
      expect.arrayContaining([
        ['debit', 49_000_000],
        ['debit', 101_640_000],
        ['credit', 125_030_000],
      ]),
    );
    const subs = await t.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', m.id)
      .orderBy('created_at')
      .execute();
    expect(subs.map((s) => [s.package_id, s.replaced_at !== null])).toEqual([
      ['pkg_business', true],
      ['pkg_enterprise', true],
      ['pkg_starter', false],
    ]);
    expect(subs[2]?.remarks).toBe('Lower volume this quarter');
    expect(new Set(subs.map((s) => s.invoice_id)).size).toBe(3);
    // Replaced plans read as Expired in the history; the one in force is Active.
    const rows = (await history(m.headers)).json().data.data;
    // Each row says how a plan ended and what it credited, and what each purchase paid.
    expect(
      rows.map((r: Record<string, unknown>) => [
        r.package,
        r.status,
        r.replaced_by,
        r.credit,
        r.paid,
      ]),
    ).toEqual([
      ['Starter', 1, null, 0, 0],
      ['Enterprise', 0, 'downgrade', 144.03, 101.64],
      ['Business', 0, 'upgrade', 47.36, 49],
    ]);
  });

  it('prices a change before paying, and charges exactly the price it showed', async () => {
    const quote = (headers: Headers, packageId: string) =>
      t.call('getPurchaseQuote', { query: { package_id: packageId }, headers });
    const m = await addMerchant(t, 'quoter');
    await credit(t, m.id, '60');
    const fresh = await quote(m.headers, 'pkg_business');
    expect(fresh.json().data).toEqual({
      package_id: 'pkg_business',
      kind: 'new',
      price: 49,
      credit: 0,
      unused_days: 0,
      replaced_package: null,
      amount_due: 49,
      refund: 0,
      balance: 60,
      payable: true,
    });
    expect((await purchase(m.headers, { package_id: 'pkg_starter' })).statusCode).toBe(200);
    expect((await quote(m.headers, 'pkg_starter')).statusCode).toBe(409);
    expectFieldErrors(await quote(m.headers, 'pkg_nope'), {
      package_id: ['The selected plan does not exist.'],
    });

    // Ten days and an hour into Starter (19 USDT): 19 whole days unused, 19 * 19/30 = 12.03.
    t.clock.advance(10 * DAY + 3_600_000);
    m.headers = await t.authHeader('quoter'); // the session idled out over those days
    const upgrade = (await quote(m.headers, 'pkg_business')).json().data;
    expect(upgrade).toMatchObject({
      kind: 'upgrade',
      credit: 12.03,
      unused_days: 19,
      replaced_package: 'Starter',
      amount_due: 36.97,
      balance: 41,
      payable: true,
    });
    const enterprise = (await quote(m.headers, 'pkg_enterprise')).json().data;
    expect(enterprise).toMatchObject({ amount_due: 136.97, payable: false });

    // A day later the quote the merchant saw is stale: refused, nothing charged.
    t.clock.advance(DAY);
    m.headers = await t.authHeader('quoter');
    const stale = await purchase(m.headers, { package_id: 'pkg_business', amount_due: 36.97 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().msg).toBe(
      'The amount due is now 37.60 USDT. Please review it and pay again; nothing was charged.',
    );
    expect(await balanceMicro(t.db, m.id)).toBe(41_000_000n);
    const paid = await purchase(m.headers, { package_id: 'pkg_business', amount_due: 37.6 });
    expect(paid.json().msg).toBe('Plan upgraded successfully');
    expect(await balanceMicro(t.db, m.id)).toBe(3_400_000n);
  });

  it('credits a canceled plan still in force when another is chosen', async () => {
    const m = await addMerchant(t, 'chooser');
    await credit(t, m.id, '70');
    expect((await purchase(m.headers, { package_id: 'pkg_business' })).statusCode).toBe(200);
    const { id } = (await packages(m.headers)).json().current_subscription;
    expect((await cancel(m.headers, id)).statusCode).toBe(200);
    t.clock.advance(15 * DAY);
    m.headers = await t.authHeader('chooser');
    // Business (49) canceled with 15 of 30 days left: 24.50 credited; Starter (19) is covered
    // and 5.50 goes back to the wallet; choosing is not a downgrade, so no reason is asked.
    const res = await purchase(m.headers, { package_id: 'pkg_starter' });
    expect(res.json().msg).toBe('Package purchased successfully');
    expect(await balanceMicro(t.db, m.id)).toBe(26_500_000n);
    const rows = (await history(m.headers)).json().data.data;
    expect(rows[1]).toMatchObject({ package: 'Business', replaced_by: 'downgrade', credit: 24.5 });
    expect(rows[0]).toMatchObject({ package: 'Starter', paid: 0, status: 1 });
  });

  it('cancels without refund and keeps access until end_date; then the plan expires', async () => {
    const m = await addMerchant(t, 'leaver');
    await credit(t, m.id, '19');
    await purchase(m.headers, { package_id: 'pkg_starter' });
    const current = (await packages(m.headers)).json().current_subscription;

    const res = await cancel(m.headers, current.id);
    expect(res.json()).toEqual(coded({ status: true, msg: 'Subscription canceled successfully' }));
    expect(await balanceMicro(t.db, m.id)).toBe(0n);
    const after = (await packages(m.headers)).json().current_subscription;
    expect(after).toMatchObject({ id: current.id, status: 2, end_date: current.end_date });
    expect((await history(m.headers)).json().data.data[0].status).toBe(2);

    const again = await cancel(m.headers, current.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('This subscription is already canceled.');

    t.clock.advance(30 * DAY);
    const later = await t.authHeader('leaver'); // the first session has gone idle meanwhile
    expect((await packages(later)).json().current_subscription).toBeNull();
    expect((await history(later)).json().data.data[0].status).toBe(0);
    const ended = await cancel(later, current.id);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().msg).toBe('This subscription has already ended.');
  });

  it("answers 404 for another account's subscription and leaves it alone", async () => {
    const owner = await addMerchant(t, 'owner');
    const other = await addMerchant(t, 'other');
    await credit(t, owner.id, '19');
    await purchase(owner.headers, { package_id: 'pkg_starter' });
    const { id } = (await packages(owner.headers)).json().current_subscription;
    const res = await cancel(other.headers, id);
    expect(res.statusCode).toBe(404);
    expect((await packages(owner.headers)).json().current_subscription.status).toBe(1);
  });

  it('buys again after cancelling: the canceled plan is replaced, no downgrade reason needed', async () => {
    const m = await addMerchant(t, 'returner');
    await credit(t, m.id, '68');
    await purchase(m.headers, { package_id: 'pkg_business' });
    const { id } = (await packages(m.headers)).json().current_subscription;
    await cancel(m.headers, id);
    t.clock.advance(1000);
    const res = await purchase(m.headers, { package_id: 'pkg_starter' });
    expect(res.json()).toEqual(coded({ status: true, msg: 'Package purchased successfully' }));
    expect((await packages(m.headers)).json().current_subscription).toMatchObject({
      package_id: 'pkg_starter',
      status: 1,
    });
  });

  it('never overspends: 20 purchases at once, only the one the balance covers succeeds', async () => {
    const m = await addMerchant(t, 'racer');
    await credit(t, m.id, '60');
    // Business (49) fits; Enterprise (149, or 100 after Business's credit) never does, and a
    // second Business is the plan already active.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        purchase(m.headers, { package_id: i % 2 === 0 ? 'pkg_enterprise' : 'pkg_business' }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409 || c === 422)).toBe(true);
    expect(await balanceMicro(t.db, m.id)).toBe(11_000_000n);
    const debits = (await ledgerRows(m.id)).filter((e) => e.type === 'debit');
    expect(debits.map((d) => d.amount_micro)).toEqual([49_000_000]);
    const subs = await t.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', m.id)
      .execute();
    expect(subs.map((s) => [s.package_id, s.replaced_at])).toEqual([['pkg_business', null]]);
  });

  describe('with an Idempotency-Key', () => {
    const buyWithKey = (headers: Headers, key: string, body: object) =>
      t.call('purchasePackage', { headers: { ...headers, 'idempotency-key': key }, body });
    const debitsOf = async (userId: string) =>
      (await ledgerRows(userId)).filter((e) => e.type === 'debit');

    it('answers a retry with the first answer and buys once', async () => {
      const m = await addMerchant(t, 'retrier');
      await credit(t, m.id, '100');
      const first = await buyWithKey(m.headers, 'k-1', { package_id: 'pkg_business' });
      const retry = await buyWithKey(m.headers, 'k-1', { package_id: 'pkg_business' });
      // Without the key, buying the active plan again is refused: the retry was replayed.
      expect([first.statusCode, retry.statusCode]).toEqual([200, 200]);
      expect(retry.json()).toEqual(coded({ status: true, msg: 'Package purchased successfully' }));
      expect((await purchase(m.headers, { package_id: 'pkg_business' })).statusCode).toBe(409);
      expect(await debitsOf(m.id)).toHaveLength(1);
      expect(await balanceMicro(t.db, m.id)).toBe(51_000_000n);
    });

    it('buys once when the same request arrives 8 times at once', async () => {
      const m = await addMerchant(t, 'clicker');
      await credit(t, m.id, '100');
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          buyWithKey(m.headers, 'click', { package_id: 'pkg_starter' }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes).toContain(200);
      // Each retry either waited for the first answer or heard that it is still running.
      expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
      for (const r of results.filter((r) => r.statusCode === 409)) {
        expect(r.json().msg).toBe(
          'A request with this Idempotency-Key is still being processed. Retry in a moment.',
        );
      }
      expect(await debitsOf(m.id)).toHaveLength(1);
    });

    it('refuses the key with another request, and keys are per account', async () => {
      const m = await addMerchant(t, 'reuser');
      await credit(t, m.id, '200');
      expect(
        (await buyWithKey(m.headers, 'order-7', { package_id: 'pkg_starter' })).statusCode,
      ).toBe(200);
      const other = await buyWithKey(m.headers, 'order-7', { package_id: 'pkg_enterprise' });
      expectFieldErrors(other, {
        'Idempotency-Key': ['This Idempotency-Key was already used with a different request.'],
      });
      const n = await addMerchant(t, 'neighbour');
      await credit(t, n.id, '200');
      expect(
        (await buyWithKey(n.headers, 'order-7', { package_id: 'pkg_enterprise' })).json(),
      ).toEqual(coded({ status: true, msg: 'Package purchased successfully' }));
      expect(await debitsOf(m.id)).toHaveLength(1);
      expect(await debitsOf(n.id)).toHaveLength(1);
    });

    it('keeps no answer for a refusal: the retry after a deposit buys', async () => {
      const m = await addMerchant(t, 'topper');
      await credit(t, m.id, '10');
      expect((await buyWithKey(m.headers, 'k-2', { package_id: 'pkg_starter' })).statusCode).toBe(
        422,
      );
      await credit(t, m.id, '10');
      expect((await buyWithKey(m.headers, 'k-2', { package_id: 'pkg_starter' })).json()).toEqual(
        coded({
          status: true,
          msg: 'Package purchased successfully',
        }),
      );
      expect(await balanceMicro(t.db, m.id)).toBe(1_000_000n);
    });

    it('refuses a key that is empty, too long or not printable ASCII', async () => {
      const m = await addMerchant(t, 'sloppy');
      for (const key of ['', 'k'.repeat(256), 'two words']) {
        const res = await buyWithKey(m.headers, key, { package_id: 'pkg_starter' });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ status: false });
      }
      expect(await debitsOf(m.id)).toHaveLength(0);
    });
  });

  it('pages the history 10 at a time, newest first, with first_page_url', async () => {
    const m = await addMerchant(t, 'regular');
    await credit(t, m.id, '1000');
    const ids = ['pkg_starter', 'pkg_business'];
    for (let i = 0; i < 23; i += 1) {
      t.clock.advance(1000);
      const res = await purchase(m.headers, { package_id: ids[i % 2] ?? '', remarks: 'x' });
      expect(res.statusCode).toBe(200);
    }
    const first = (await history(m.headers)).json().data;
    expect(first).toMatchObject({
      current_page: 1,
      last_page: 3,
      per_page: 10,
      from: 1,
      to: 10,
      total: 23,
      first_page_url: t.urlOf('listSubscriptions', { query: { page: 1 } }),
    });
    expect(first.data[0]).toMatchObject({
      name: 'Merchant regular',
      username: 'regular',
      status: 1,
    });
    expect(first.data.slice(1).every((r: { status: number }) => r.status === 0)).toBe(true);
    const last = (await history(m.headers, 3)).json().data;
    expect(last).toMatchObject({ current_page: 3, from: 21, to: 23 });
    expect(last.data).toHaveLength(3);
    // Invoice numbers run on per year, newest first across the pages.
    const pages = [first, (await history(m.headers, 2)).json().data, last];
    const numbers = pages
      .flatMap((p) => p.data)
      .map((r: { invoice_id: string }) => {
        expect(r.invoice_id).toMatch(new RegExp(`^INV-${t.clock().getUTCFullYear()}-\\d{6}$`));
        return Number(r.invoice_id.slice(-6));
      });
    expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] ?? 0) - i));
    const past = (await history(m.headers, 9)).json().data;
    expect(past).toMatchObject({ data: [], from: null, to: null, total: 23 });
    expect((await history(m.headers, 0)).statusCode).toBe(422);
  });

  it('refuses a page number past 1000000 (422), never a 500', async () => {
    const m = await addMerchant(t, 'far_pager');
    const url = t.urlOf('listSubscriptions');
    for (const page of ['1e308', '1e19', '922337203685477581', '1000001']) {
      const res = await t.inject({ method: 'GET', url: `${url}?page=${page}`, headers: m.headers });
      expect([page, res.statusCode]).toEqual([page, 422]);
      expect(res.json()).toEqual({
        status: false,
        msg: 'The page may not be greater than 1000000.',
        errors: { page: ['The page may not be greater than 1000000.'] },
      });
    }
    const last = await history(m.headers, 1000000);
    expect(last.statusCode).toBe(200);
    expect(last.json().data).toMatchObject({ current_page: 1000000, data: [], from: null });
  });
});
