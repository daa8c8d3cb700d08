import { newId } from '../src/domain/ids';
import { postEntry } from '../src/domain/ledger';
import { decimalToMicro } from '../src/domain/money';
import type { TestApp } from './testApp';

// Accounts with money for the wallet and subscription tests.

/** A fresh account (no deposits, no plan); returns its id and Authorization header. */
export async function addMerchant(
  t: TestApp,
  username: string,
): Promise<{ id: string; headers: { authorization: string } }> {
  const id = newId('usr');
  await t.db
    .insertInto('users')
    .values({
      id,
      username,
      email: `${username}@example.com`,
      name: `Merchant ${username}`,
      password_hash: 'x',
      pin_hash: 'x',
      sponsor_id: null,
      gender: null,
      dob: null,
      phone: null,
      country: 'IN',
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
    })
    .execute();
  return { id, headers: await t.authHeader(username) };
}

/** Credits `amount` USDT straight to the ledger (what a confirmed deposit does). */
export async function credit(t: TestApp, userId: string, amount: string): Promise<void> {
  await postEntry(t.db, {
    userId,
    tnx: newId('tx'),
    amountMicro: decimalToMicro(amount),
    type: 'credit',
    source: 'test',
    createdAt: t.clock().toISOString(),
  });
}
