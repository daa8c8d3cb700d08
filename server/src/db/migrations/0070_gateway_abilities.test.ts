import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { up } from './0070_gateway_abilities';

describe('migration 0070: gateway ability names', () => {
  const t = testAppPerBlock();

  it('gives keys made before the gateway the same powers under the new names', async () => {
    const userId = await addUser(t, 'old_keys');
    const now = new Date().toISOString();
    await insertApp(t, { id: 'app_old', user_id: userId, created_at: now });
    const key = (id: string, abilities: string[]) => ({
      id,
      app_id: 'app_old',
      token_name: id,
      token_hash: `hash-${id}`,
      token_prefix: 'csl_live_abc',
      abilities: JSON.stringify(abilities),
      created_at: now,
    });
    await t.db
      .insertInto('api_keys')
      .values([
        key('key_old', ['address.create', 'deposit.read', 'withdraw.create', 'withdraw.read']),
        key('key_balance', ['balance.read']),
        key('key_new', ['methods:read', 'accounts:write']),
      ])
      .execute();
    // Migrations take the untyped database they run on.
    await up(t.db as unknown as Kysely<unknown>);
    const rows = await t.db
      .selectFrom('api_keys')
      .select(['id', 'abilities'])
      .where('app_id', '=', 'app_old')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, JSON.parse(r.abilities)])).toEqual([
      ['key_balance', ['balances:read']],
      ['key_new', ['methods:read', 'accounts:write']],
      ['key_old', ['accounts:write', 'deposits:read', 'withdrawals:write', 'withdrawals:read']],
    ]);
  });
});
