import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../config';
import { verifySecret } from '../domain/account/passwords';
import { openRuntime, type Runtime } from '../runtime';
import { LOGOS_DIR } from '../paths';
import { DEMO_ACCOUNT } from '../seed';
import { COUNTRIES } from '../seed/countries.data';
import { engineOf } from './connection';
import { migrations } from './migrations';
import { freshTestStore, type TestStore } from '../../test/testStore';

describe('database foundation', () => {
  let store: TestStore;
  let runtime: Runtime;

  beforeAll(async () => {
    store = await freshTestStore('portal-db-');
    runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
  });

  afterAll(async () => {
    await runtime.close();
    await store.close();
  });

  it('migrates a fresh DATA_DIR to the latest migration', async () => {
    const applied = await runtime.db
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    expect(applied.map((r) => r.name)).toEqual(Object.keys(migrations));
    const tables = (await runtime.db.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        'countries',
        'document_types',
        'ledger_entries',
        'login_failures',
        'login_unknown_names',
        'packages',
        'payment_methods',
        'sessions',
        'users',
      ]),
    );
  });

  it('enforces foreign keys (and SQLite runs in WAL mode, so readers never wait for a writer)', async () => {
    if (engineOf(runtime.db) === 'sqlite') {
      const wal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(runtime.db);
      expect(wal.rows[0]?.journal_mode).toBe('wal');
    }
    await expect(
      runtime.db
        .insertInto('sessions')
        .values({
          id: 'ses_x',
          token_hash: 'h',
          user_id: 'usr_missing',
          created_at: '2025-01-01T00:00:00.000Z',
          last_seen_at: '2025-01-01T00:00:00.000Z',
          revoked_at: null,
          ip: null,
          user_agent: null,
        })
        .execute(),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/FOREIGN KEY|foreign key constraint/),
    });
  });

  it('generates a private secret key once', () => {
    const file = path.join(store.dataDir, 'secret.key');
    expect(readFileSync(file, 'utf8').trim()).toBe(runtime.config.secretKey);
    expect(runtime.config.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('seeds reference data and the demo account', async () => {
    const countries = await runtime.db.selectFrom('countries').selectAll().execute();
    expect(countries).toHaveLength(249);
    expect(COUNTRIES).toHaveLength(249);
    expect(countries.find((c) => c.id === 'IN')).toEqual({
      id: 'IN',
      name: 'India',
      calling_code: '+91',
    });
    for (const c of countries) expect(c.calling_code).toMatch(/^\+\d{1,4}$/);

    expect(await runtime.db.selectFrom('packages').select('id').execute()).toHaveLength(3);
    expect(await runtime.db.selectFrom('document_types').select('id').execute()).toHaveLength(3);
    const methods = await runtime.db.selectFrom('payment_methods').selectAll().execute();
    expect(methods.find((m) => m.id === 'pm_usdt_bsc')).toMatchObject({
      chain_id: 56,
      is_token: 1,
      decimals: 18,
    });
    for (const m of methods) {
      // getImage serves `^[A-Za-z0-9_-]+\.(png|jpg|jpeg)$` names from the logos folder.
      expect(m.logo).toMatch(/^[A-Za-z0-9_-]+\.(png|jpg|jpeg)$/);
      expect(existsSync(path.join(LOGOS_DIR, m.logo))).toBe(true);
      expect([56, 137, 1, 42161, 250, 10, 0, 97, 11155111, 80002, -1]).toContain(m.chain_id);
      expect(m.token_contract_address === null).toBe(m.is_token === 0);
    }

    const demo = await runtime.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', DEMO_ACCOUNT.username)
      .executeTakeFirstOrThrow();
    expect(demo).toMatchObject({
      email: 'demo@example.com',
      name: 'Demo Merchant',
      auth_type: 'mpin',
      country: 'IN',
      status_kyc: 2, // its seeded PAN card scan was rejected (seed/demoPortal.ts)
    });
    expect(demo.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifySecret(demo.password_hash, 'Demo@12345')).toBe(true);
    expect(await verifySecret(demo.pin_hash, '1234')).toBe(true);
    expect(await verifySecret(demo.pin_hash, '0000')).toBe(false);
  });

  it('is idempotent on restart (same data, same demo account)', async () => {
    const before = await runtime.db.selectFrom('users').select(['id', 'password_hash']).execute();
    await runtime.close();
    runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
    expect(await runtime.db.selectFrom('users').select(['id', 'password_hash']).execute()).toEqual(
      before,
    );
    expect(await runtime.db.selectFrom('countries').select('id').execute()).toHaveLength(249);
  });

  it('keeps usernames and e-mails unique regardless of case', async () => {
    const base = {
      name: 'X',
      password_hash: 'x',
      pin_hash: 'x',
      created_at: new Date().toISOString(),
    };
    await expect(
      runtime.db
        .insertInto('users')
        .values({ ...base, id: 'usr_a', username: 'DEMO', email: 'other@example.com' })
        .execute(),
    ).rejects.toMatchObject({ message: expect.stringMatching(/UNIQUE|unique constraint/) });
    await expect(
      runtime.db
        .insertInto('users')
        .values({ ...base, id: 'usr_b', username: 'other', email: 'Demo@Example.com' })
        .execute(),
    ).rejects.toMatchObject({ message: expect.stringMatching(/UNIQUE|unique constraint/) });
  });
});
