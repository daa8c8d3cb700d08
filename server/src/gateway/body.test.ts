import { newApiKey } from '../domain/apps/apiKeys';
import { addUser } from '../../test/accounts';
import { insertApp, insertAppMethod } from '../../test/appRows';
import { testAppPerBlock } from '../../test/withTestApp';

/** Every gateway error names its request. */
const REQUEST_ID = expect.stringMatching(/^req_[0-9a-z]{26}$/);

// A gateway operation whose body is missing is refused in the envelope, never reached without
// it (found by the contract tool: POST /accounts with no body answered 500).

describe('gateway request without its body', () => {
  const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '1000' } });

  async function keyOfNewApp() {
    const now = t.clock().toISOString();
    const userId = await addUser(t, 'merchant_body');
    await insertApp(t, { id: 'app_body', user_id: userId, created_at: now, whitelist_ip: null });
    await insertAppMethod(t, {
      id: 'apm_body',
      app_id: 'app_body',
      deposit_status: 1,
      withdraw_status: 0,
    });
    const key = newApiKey();
    await t.db
      .insertInto('api_keys')
      .values({
        id: 'key_body',
        app_id: 'app_body',
        token_name: 'Server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['accounts:write']),
        created_at: now,
      })
      .execute();
    return key.key;
  }

  it('answers 415 without a content type and 400 for an empty JSON body', async () => {
    const key = await keyOfNewApp();
    const send = (headers: Record<string, string>) =>
      t.inject({
        method: 'POST',
        url: '/gateway/v1/accounts',
        headers: { authorization: `Bearer ${key}`, ...headers },
        payload: '',
      });
    const bare = await send({});
    expect(bare.statusCode).toBe(415);
    expect(bare.json()).toEqual({
      error: {
        code: 'unsupported_media_type',
        message: 'Send the body as application/json.',
        request_id: REQUEST_ID,
      },
    });
    const empty = await send({ 'content-type': 'application/json' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('bad_request');
  });
});
