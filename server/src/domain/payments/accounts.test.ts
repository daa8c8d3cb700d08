import { insertMerchantApp } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { engineOf, openDb } from '../../db/connection';
import { resolveWalletXpub } from '../chain/walletKey';
import { openAccount, SHARED_INSERT_ROWS } from './accounts';

// A flash sale's deposit accounts: the creations of one process that arrive together are written
// by one statement, and each still gets its own answer.

const t = testAppPerBlock({ env: { GATEWAY_RATE_LIMIT_MAX: '100000' } });

/** Opens `appId`'s USDT-BEP20 accounts through a database of its own that notes each statement. */
function tracedOpening(appId: string) {
  const statements: string[] = [];
  const db = openDb(
    { dataDir: t.storeEnv.DATA_DIR, databaseUrl: t.storeEnv.DATABASE_URL },
    { log: (event) => void statements.push(event.query.sql) },
  );
  const open = (uniqueId: string) =>
    openAccount(db, resolveWalletXpub(t.config), {
      appId,
      uniqueId,
      code: 'USDT-BEP20',
      now: t.clock(),
    });
  return { db, statements, open };
}

it('writes creations that arrive together in one statement, each customer once', async () => {
  const { appId } = await insertMerchantApp(t, 'sale', ['accounts:write']);
  const { db, statements, open } = tracedOpening(appId);
  try {
    // Ten customers, one of them asked for twice at once (a client's retry).
    const customers = [...Array.from({ length: 10 }, (_, i) => `buyer-${i}`), 'buyer-3'];
    const opened = await Promise.all(customers.map(open));

    // On SQLite the reads before the insert answer at once, so all eleven reach it in one turn;
    // on PostgreSQL they reach it as their round trips come back, a few at a time.
    const inserts = statements.filter((q) => /^insert into "app_accounts"/.test(q));
    if (engineOf(db) === 'sqlite') expect(inserts).toHaveLength(1);
    expect(opened.filter((o) => o.created)).toHaveLength(10);
    const addresses = opened.map((o) => o.account.address);
    expect(new Set(addresses).size).toBe(10);
    // Both asks for the same customer answer its one account.
    expect(addresses[10]).toBe(addresses[3]);
    const rows = await t.db
      .selectFrom('app_accounts')
      .select(['unique_id', 'address'])
      .where('app_id', '=', appId)
      .orderBy('unique_id')
      .execute();
    expect(rows).toHaveLength(10);
    expect(rows.find((r) => r.unique_id === 'buyer-3')?.address).toBe(addresses[3]);
  } finally {
    await db.destroy();
  }
});

it('starts another statement past the rows one takes, and every creation gets its account', async () => {
  const { appId } = await insertMerchantApp(t, 'rush', ['accounts:write']);
  const { db, statements, open } = tracedOpening(appId);
  try {
    const customers = Array.from({ length: SHARED_INSERT_ROWS + 1 }, (_, i) => `rush-${i}`);
    const opened = await Promise.all(customers.map(open));
    if (engineOf(db) === 'sqlite') {
      expect(statements.filter((q) => /^insert into "app_accounts"/.test(q))).toHaveLength(2);
    }
    expect(opened.every((o) => o.created)).toBe(true);
    expect(new Set(opened.map((o) => o.account.address)).size).toBe(customers.length);
  } finally {
    await db.destroy();
  }
});

it('uses up no index when a customer who has an account asks again', async () => {
  const { appId } = await insertMerchantApp(t, 'repeat', ['accounts:write']);
  const { db, open } = tracedOpening(appId);
  try {
    const first = await open('regular');
    const again = await Promise.all([open('regular'), open('regular')]);
    const newcomer = await open('newcomer');
    expect([first.created, newcomer.created]).toEqual([true, true]);
    expect(again.map((o) => [o.created, o.account.address])).toEqual([
      [false, first.account.address],
      [false, first.account.address],
    ]);
    const rows = await t.db
      .selectFrom('app_accounts')
      .select(['unique_id', 'derivation_index'])
      .where('app_id', '=', appId)
      .orderBy('derivation_index')
      .execute();
    expect(rows.map((r) => r.unique_id)).toEqual(['regular', 'newcomer']);
    // The two asks' indexes went back: the newcomer has the one after the regular's.
    const [regularIndex, newcomerIndex] = rows.map((r) => Number(r.derivation_index));
    expect(newcomerIndex).toBe(Number(regularIndex) + 1);
  } finally {
    await db.destroy();
  }
});
