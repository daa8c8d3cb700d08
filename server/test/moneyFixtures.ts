import { newId } from '../src/domain/ids';
import { postEntry } from '../src/domain/billing/ledger';
import { decimalToMicro } from '../src/domain/money';
import { addUser } from './accounts';
import type { TestApp } from './testApp';

// Accounts with money for the wallet and subscription tests.

/** A fresh account (no deposits, no plan); returns its id and Authorization header. */
export async function addMerchant(
  t: TestApp,
  username: string,
): Promise<{ id: string; headers: { authorization: string } }> {
  const id = await addUser(t, username, {
    name: `Merchant ${username}`,
    phone: null,
    country: 'IN',
  });
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

/** syncBalance's answer when it found a deposit, with the balance after it. */
export function depositFound(balance: number) {
  return { status: true, balance, is_new: true, msg: 'New Deposit Found !!' };
}
