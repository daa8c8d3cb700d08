import type { NewUser } from '../src/db/schema';
import { NEW_ACCOUNT_BLANKS } from '../src/domain/account/auth';
import { newId } from '../src/domain/ids';
import type { TestApp } from './testApp';

/** A second account (sign it in with `t.authHeader(username)`). */
export async function addUser(
  t: TestApp,
  username: string,
  overrides: Partial<NewUser> = {},
): Promise<string> {
  const id = newId('usr');
  await t.db
    .insertInto('users')
    .values({
      id,
      username,
      email: `${username}@example.com`,
      name: 'Other Merchant',
      password_hash: 'x',
      pin_hash: 'x',
      sponsor_id: null,
      ...NEW_ACCOUNT_BLANKS,
      phone: '+33612345678',
      country: 'FR',
      created_at: t.clock().toISOString(),
      ...overrides,
    })
    .execute();
  return id;
}
