import { addUser } from '../../test/accounts';
import {
  insertApiKey,
  insertApp,
  insertAppMethod,
  insertReceive,
  insertSend,
  insertSubscription,
} from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';
import { recordEvent } from '../domain/webhooks/events';

// The gateway's cursors belong to the list that gave them: a cursor of one list handed to
// another is refused, never read as a position there, and the events feed never answers a
// position past the app's last event.

const BASE = '/gateway/v1';
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);

describe('gateway cursors', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });
  let serial = 0;

  /** An app with two accounts, two deposits, two withdrawals; a key that reads them all. */
  async function merchant() {
    serial += 1;
    const tag = `cur${serial}`;
    const now = t.clock().toISOString();
    const userId = await addUser(t, `merchant_${tag}`);
    await insertSubscription(t, userId);
    const appId = `app_${tag}`;
    await insertApp(t, { id: appId, user_id: userId, created_at: now });
    await insertAppMethod(t, { id: `apm_${tag}`, app_id: appId });
    const key = await insertApiKey(t, {
      id: `key_${tag}`,
      app_id: appId,
      abilities: ['accounts:write', 'deposits:read', 'withdrawals:read', 'webhooks:write'],
    });
    for (const n of [1, 2]) {
      const opened = await t.inject({
        method: 'POST',
        url: `${BASE}/accounts`,
        headers: { authorization: `Bearer ${key}` },
        payload: { unique_id: `order-${n}`, method: 'USDT-BEP20' },
      });
      expect(opened.statusCode).toBe(201);
      const at = new Date(t.clock().getTime() + n * 1000).toISOString();
      await insertReceive(t, {
        id: `rcv_${tag}_${n}`,
        app_id: appId,
        unique_id: `order-${n}`,
        amount_micro: 1_000_000,
        amount_raw: '1000000000000000000',
        deposit_status: 0,
        chain_id: 56,
        address: '0x9f2C4a6e8B0d2F4a6C8e0B2d4F6a8C0e2B4d6F8a',
        tx_hash: `0x${tag.padStart(8, '0')}${n.toString().padStart(56, '0')}`,
        log_index: 0,
        block_number: n,
        created_at: at,
      });
      await insertSend(t, {
        id: `wd_${tag}_${n}`,
        app_id: appId,
        unique_id: `payout-${n}`,
        amount_micro: 1_000_000,
        to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        amount_raw: '1000000000000000000',
        chain_id: 56,
        from_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
        status: 2,
        created_at: at,
        updated_at: at,
      });
    }
    return { appId, key };
  }

  const get = (url: string, key: string) =>
    t.inject({ method: 'GET', url: `${BASE}${url}`, headers: { authorization: `Bearer ${key}` } });

  /** The next_cursor of `list`'s first page of one row. */
  async function cursorOf(list: string, key: string): Promise<string> {
    const page = await get(`/${list}?limit=1`, key);
    expect(page.statusCode).toBe(200);
    const cursor = page.json<{ next_cursor: string | null }>().next_cursor;
    if (!cursor) throw new Error(`${list} gave no cursor`);
    return cursor;
  }

  it("refuses another list's cursor with 422 on cursor, saying whose it is", async () => {
    const { key } = await merchant();
    const cursors = {
      accounts: await cursorOf('accounts', key),
      deposits: await cursorOf('deposits', key),
      withdrawals: await cursorOf('withdrawals', key),
    };
    for (const [from, cursor] of Object.entries(cursors)) {
      // Its own list reads on from it.
      const own = await get(`/${from}?limit=1&cursor=${cursor}`, key);
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toHaveLength(1);
      for (const to of Object.keys(cursors).filter((list) => list !== from)) {
        const refused = await get(`/${to}?cursor=${cursor}`, key);
        expect(refused.statusCode).toBe(422);
        const message =
          `This cursor belongs to GET /${from}, not GET /${to}: pass the next_cursor of a ` +
          `GET /${to} page, or leave cursor out for the first page.`;
        expect(refused.json().error).toMatchObject({
          code: 'invalid_request',
          message,
          fields: { cursor: [message] },
          request_id: REQUEST_ID,
        });
      }
    }
  });

  it('refuses a cursor of the earlier form (no list in it) rather than reading it', async () => {
    const { key } = await merchant();
    // What the gateway gave before cursors named their list: base64url of [created_at, id].
    const page = (await get('/accounts?limit=1', key)).json<{
      data: { created_at: string }[];
    }>();
    const earlier = Buffer.from(JSON.stringify([page.data[0]?.created_at, 'aa_zzzzzzzz'])).toString(
      'base64url',
    );
    for (const list of ['accounts', 'deposits', 'withdrawals']) {
      const refused = await get(`/${list}?cursor=${earlier}`, key);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.fields).toEqual({
        cursor: [
          'This cursor was given by an earlier version of the gateway: leave cursor out to ' +
            'start again from the first page.',
        ],
      });
    }
    const garbage = await get('/deposits?cursor=not-a-cursor', key);
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().error.fields).toEqual({
      cursor: [
        'The cursor is not one this API gave: pass the next_cursor of the previous page, or ' +
          'leave cursor out for the first page.',
      ],
    });
  });

  it("refuses an events position past the app's last event, and answers only real positions", async () => {
    const { appId, key } = await merchant();
    const empty = await get('/events', key);
    expect(empty.json()).toEqual({ data: [], next: '0', has_more: false });
    const past = (after: string, last: number) =>
      `after ${after} is past this app's last event (${last}): pass the next of an earlier ` +
      'page, or 0 to read from the first event.';
    const beforeAny = await get('/events?after=5', key);
    expect(beforeAny.statusCode).toBe(422);
    expect(beforeAny.json().error).toMatchObject({
      code: 'invalid_request',
      fields: { after: [past('5', 0)] },
    });

    for (const n of [1, 2, 3]) {
      await t.db.transaction().execute((trx) =>
        recordEvent(trx, {
          appId,
          type: 'test.ping',
          uniqueId: null,
          data: { message: `ping ${n}` },
          now: t.clock(),
        }),
      );
    }
    const all = await get('/events', key);
    expect(all.json()).toMatchObject({ next: '3', has_more: false });
    expect((await get('/events?after=3', key)).json()).toEqual({
      data: [],
      next: '3',
      has_more: false,
    });
    for (const after of ['4', '999999', '3000000000']) {
      const refused = await get(`/events?after=${after}`, key);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.fields).toEqual({ after: [past(after, 3)] });
    }
  });
});
