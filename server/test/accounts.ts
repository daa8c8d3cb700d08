import type { NewUser } from '../src/db/schema';
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
      gender: null,
      dob: null,
      phone: '+33612345678',
      country: 'FR',
      landmark: null,
      city: null,
      state: null,
      pincode: null,
      address_line1: null,
      address_line2: null,
      avatar: null,
      created_at: t.clock().toISOString(),
      last_login_at: null,
      previous_login_at: null,
      ...overrides,
    })
    .execute();
  return id;
}
