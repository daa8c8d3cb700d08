import { HDKey } from '@scure/bip32';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { runAdmin } from './admin';
import { loadConfig } from './config';
import { openDb } from './db/connection';
import { openRuntime } from './runtime';
import { freshTestStore, type TestStore } from '../test/testStore';

describe('admin CLI', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await freshTestStore('portal-admin-');
    // The server's first start made the database.
    const runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
    await runtime.close();
  });
  afterAll(() => store.close());

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (l) => lines.push(l) },
      { ...store.env, NODE_ENV: 'test' },
    );
    return { code, text: lines.join('\n') };
  };

  it('prints help', async () => {
    const { code, text } = await run('help');
    expect(code).toBe(0);
    expect(text).toContain('Usage: npm run admin -- <command>');
    expect(text).toContain('user list');
  });

  it('lists users of the database in DATA_DIR', async () => {
    const { code, text } = await run('user', 'list');
    expect(code).toBe(0);
    expect(text).toMatch(/username\s+email/);
    expect(text).toMatch(/demo\s+demo@example\.com\s+Demo Merchant\s+mpin/);
  });

  it('rejects unknown commands with exit code 2', async () => {
    const { code, text } = await run('user', 'frobnicate');
    expect(code).toBe(2);
    expect(text).toContain('Unknown command: user frobnicate');
  });
  it('reads a local-chain balance of a coin or a token, exactly', async () => {
    const address = '0x00000000000000000000000000000000000a11ce';
    expect((await run('chain', 'balance', address, 'USDT-BEP20')).text.split('\n')[0]).toBe('0');
    expect((await run('chain', 'transfer', address, '12.345678', 'USDT-BEP20')).code).toBe(0);
    expect((await run('chain', 'transfer', address, '0.25', 'BNB-BSC')).code).toBe(0);
    const token = await run('chain', 'balance', address, 'USDT-BEP20');
    expect(token).toEqual({
      code: 0,
      text: `12.345678\n${address} holds 12.345678 USDT-BEP20 on chain 56.`,
    });
    // The coin is kept apart from the token on the same chain.
    expect((await run('chain', 'balance', address, 'BNB-BSC')).text.split('\n')[0]).toBe('0.25');
    expect((await run('chain', 'balance', 'nope', 'USDT-BEP20')).code).toBe(2);
    expect((await run('chain', 'balance', address, 'NOPE')).code).toBe(2);
  });

  it("sets the rate table's pairs, each fresh for a number of hours, and lists them", async () => {
    const set = await run('rate', 'set', 'eur/usd', '1.08');
    expect(set.code).toBe(0);
    expect(set.text).toMatch(/^EUR\/USD = 1\.08, set at (\S+)Z, fresh until \S+Z\.$/);
    const [, setAt = '', until = ''] = /set at (\S+), fresh until (\S+)\.$/.exec(set.text) ?? [];
    expect(Date.parse(until) - Date.parse(setAt)).toBe(24 * 3_600_000);
    expect((await run('rate', 'set', 'INR/USD', '0.012', '2')).code).toBe(0);
    const list = await run('rate', 'list');
    expect(list.code).toBe(0);
    expect(list.text.split('\n').slice(2)).toEqual([
      expect.stringMatching(/^EUR\/USD\s+1\.08\s+\S+\s+\S+$/),
      expect.stringMatching(/^INR\/USD\s+0\.012\s+\S+\s+\S+$/),
    ]);
    expect(await run('rate', 'set', 'EUR-USD', '1.08')).toEqual({
      code: 2,
      text: "'EUR-USD' is not a pair: write BASE/QUOTE with two different codes, like EUR/USD.",
    });
    expect((await run('rate', 'set', 'EUR/USD', '0')).code).toBe(2);
    expect((await run('rate', 'set', 'EUR/USD', '1.08', 'soon')).code).toBe(2);
  });
});

describe("admin CLI without the server's database", () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await freshTestStore('portal-admin-none-');
  });
  afterEach(() => store.close());

  const run = async (env: Record<string, string | undefined>, ...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(argv, { out: (l) => lines.push(l) }, { NODE_ENV: 'test', ...env });
    return { code, text: lines.join('\n') };
  };

  /** The tables of the store's PostgreSQL schema (none on SQLite). */
  async function pgTables(): Promise<number> {
    if (!store.databaseUrl) return 0;
    const db = openDb({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
    try {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.tables
        where table_schema = current_schema()`.execute(db);
      return rows[0]?.n ?? -1;
    } finally {
      await db.destroy();
    }
  }

  it('refuses a DATA_DIR that does not exist, and creates nothing', async () => {
    const missing = path.join(store.dataDir, 'data');
    const transfer = await run(
      { DATA_DIR: missing, DATABASE_URL: store.databaseUrl },
      'chain',
      'transfer',
      '0x00000000000000000000000000000000000a11ce',
      '25.5',
      'USDT-BEP20',
    );
    expect(transfer).toEqual({
      code: 1,
      text: store.databaseUrl
        ? `No data directory ${missing}: set DATA_DIR to the server's data directory.`
        : `No database in ${missing}: set DATA_DIR to the server's data directory (or DATABASE_URL).`,
    });
    expect(existsSync(missing)).toBe(false);
    expect(await pgTables()).toBe(0);
  });

  it('refuses a DATA_DIR without the database, and creates nothing', async () => {
    const listed = await run(store.env, 'user', 'list');
    expect(listed.code).toBe(1);
    expect(listed.text).toEqual(
      store.databaseUrl
        ? expect.stringMatching(
            /^No database of this server at DATABASE_URL \(postgres.*\): its tables are made by the server on its first start; set DATABASE_URL to the server's database\.$/,
          )
        : `No database in ${store.dataDir}: set DATA_DIR to the server's data directory (or DATABASE_URL).`,
    );
    expect(readdirSync(store.dataDir)).toEqual([]);
    expect(await pgTables()).toBe(0);
  });

  it('leaves db copy-to, which creates its target, to say what it needs', async () => {
    const copied = await run(
      { DATA_DIR: store.dataDir },
      'db',
      'copy-to',
      'postgres://user:secret@localhost:5432/target',
    );
    expect(copied.code).toBe(1);
    expect(copied.text).toBe(
      `There is no SQLite database at ${path.join(store.dataDir, 'portal.sqlite')} (DATA_DIR=${store.dataDir}): nothing to copy.`,
    );
    expect(readdirSync(store.dataDir)).toEqual([]);
  });
});

describe('admin CLI on a production database', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await freshTestStore('portal-admin-prod-');
  });
  afterAll(() => store.close());

  it('adds no demo account, even run without NODE_ENV', async () => {
    const production = {
      ...store.env,
      NODE_ENV: 'production',
      SECRET_KEY: 'admin-test-secret-0123456789abcdef0123456789',
      // In production the signer makes the request key; the web process only reads it.
      SIGNER_REQUEST_KEY: '5e'.repeat(32),
      WALLET_XPUB: HDKey.fromMasterSeed(new Uint8Array(32).fill(3)).derive("m/44'/60'/0'")
        .publicExtendedKey,
    };
    const runtime = await openRuntime(loadConfig(production));
    await runtime.close();
    const lines: string[] = [];
    const code = await runAdmin(['user', 'list'], { out: (l) => lines.push(l) }, store.env);
    expect({ code, lines }).toEqual({ code: 0, lines: ['(none)'] });
  });
});
