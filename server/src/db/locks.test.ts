import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { loadConfig } from '../config';
import { openRuntime, type Runtime } from '../runtime';
import { freshTestStore, type TestStore } from '../../test/testStore';
import { DB_FILE, engineOf, hearOwnerChanges } from './connection';
import { lockAllForTransaction, lockForTransaction } from './locks';

// A critical section holds its lock from its first statement, against other processes too (an
// admin command writing beside the server): on SQLite the write lock, on PostgreSQL the key.

describe('lockForTransaction', () => {
  let store: TestStore;
  let runtime: Runtime;

  beforeAll(async () => {
    store = await freshTestStore('portal-locks-');
    runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
  });

  afterAll(async () => {
    await runtime.close();
    await store.close();
  });

  it.each([
    ['lockForTransaction', ['locks-test']],
    ['lockAllForTransaction', ['locks-test-b', 'locks-test', 'locks-test-a']],
  ])(
    '%s keeps another connection from writing (SQLite) or taking a key (PostgreSQL) until commit',
    async (how, keys) => {
      const { db } = runtime;
      const onPostgres = engineOf(db) === 'postgres';
      /** Whether a second connection can get in now. */
      let otherGetsIn: () => Promise<boolean>;
      let closeOther: () => Promise<void>;
      if (onPostgres) {
        const client = new Client({ connectionString: store.databaseUrl });
        await client.connect();
        otherGetsIn = async () => {
          await client.query('begin');
          const { rows } = await client.query<{ got: boolean }>(
            "select pg_try_advisory_xact_lock(hashtextextended('locks-test', 0)) as got",
          );
          await client.query('rollback');
          return rows[0]?.got === true;
        };
        closeOther = () => client.end();
      } else {
        const other = new Database(path.join(store.dataDir, DB_FILE));
        other.pragma('busy_timeout = 0');
        // Another process: the store's own connection sees its commits through data_version.
        hearOwnerChanges(other, () => {});
        otherGetsIn = async () => {
          try {
            other.prepare("update users set name = name where id = 'nobody'").run();
            return true;
          } catch (error) {
            if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
            throw error;
          }
        };
        closeOther = async () => {
          other.close();
        };
      }
      try {
        expect(await otherGetsIn()).toBe(true);
        await db.transaction().execute(async (trx) => {
          if (how === 'lockForTransaction') await lockForTransaction(trx, 'locks-test');
          else await lockAllForTransaction(trx, keys);
          await trx.selectFrom('users').select('id').execute();
          expect(await otherGetsIn()).toBe(false);
        });
        expect(await otherGetsIn()).toBe(true);
      } finally {
        await closeOther();
      }
    },
  );
});
