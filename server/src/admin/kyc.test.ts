import { runAdmin } from '../admin';
import { loadConfig } from '../config';
import { openRuntime } from '../runtime';
import { freshTestStore, type TestStore } from '../../test/testStore';

// `npm run admin -- kyc ...` on a real DATA_DIR, as an operator runs it.

let store: TestStore;
beforeAll(async () => {
  store = await freshTestStore('portal-admin-kyc-');
  // The server's first start: the database with the demo account's rejected PAN card.
  const runtime = await openRuntime(loadConfig({ ...store.env, NODE_ENV: 'test' }));
  await runtime.close();
});
afterAll(() => store.close());

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runAdmin(argv, { out: (l) => lines.push(l) }, store.env);
  return { code, text: lines.join('\n') };
}

/** Direct database work between commands (the runtime is closed again right after). */
async function withDb(work: (db: Awaited<ReturnType<typeof openRuntime>>['db']) => Promise<void>) {
  const runtime = await openRuntime(loadConfig(store.env));
  try {
    await work(runtime.db);
  } finally {
    await runtime.close();
  }
}

const statusKyc = async () => {
  let status = -1;
  await withDb(async (db) => {
    status = (
      await db
        .selectFrom('users')
        .select('status_kyc')
        .where('username', '=', 'demo')
        .executeTakeFirstOrThrow()
    ).status_kyc;
  });
  return status;
};

test('kyc list shows the uploads with their status', async () => {
  const { code, text } = await run('kyc', 'list');
  expect(code).toBe(0);
  expect(text).toMatch(/upl_demo_pan\s+demo\s+PAN Card\s+PAN Card\s+ABCDE1234F\s+rejected/);
  expect(text).toContain('Personal information awaiting approval');
});

test('approve and reject act on pending uploads only', async () => {
  expect(await run('kyc', 'approve', 'upl_demo_pan')).toEqual({
    code: 1,
    text: 'Upload upl_demo_pan is already rejected.',
  });
  expect((await run('kyc', 'approve', 'upl_nope')).code).toBe(1);

  await withDb(async (db) => {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('kyc_uploads')
      .values(
        ['upl_a', 'upl_b'].map((id, i) => ({
          id,
          user_id: user.id,
          document_type_id: i === 0 ? 'dt_identity' : 'dt_photo',
          document_name: i === 0 ? 'Passport' : 'Photo',
          document_number: i === 0 ? 'P1234567' : null,
          front: null,
          back: null,
          created_at: new Date().toISOString(),
          remarks: null,
          reviewed_at: null,
        })),
      )
      .execute();
  });

  const rejected = await run('kyc', 'reject', 'upl_b', 'Face', 'not', 'visible');
  expect(rejected.code).toBe(0);
  expect(rejected.text).toContain('Upload upl_b of demo is rejected: Face not visible');
  expect((await run('kyc', 'list')).text).toMatch(/upl_b\s+.*rejected\s+\S+\s+Face not visible/);

  const approved = await run('kyc', 'approve', 'upl_a');
  expect(approved.code).toBe(0);
  // A document approved but the personal section not yet: still 3 (unverified).
  expect(approved.text).toContain('status_kyc of demo is now 3 (unverified).');
});

test('approve-profile needs the personal section filled in, then locks it', async () => {
  const empty = await run('kyc', 'approve-profile', 'demo');
  expect(empty.code).toBe(1);
  expect(empty.text).toContain('is not filled in yet');

  await withDb(async (db) => {
    await db
      .updateTable('users')
      .set({
        gender: 'male',
        dob: '1990-01-01',
        address_line1: '1 Main Road',
        address_line2: 'Centre',
        city: 'Pune',
        state: 'Maharashtra',
        pincode: '411001',
      })
      .where('username', '=', 'demo')
      .execute();
  });
  expect((await run('kyc', 'list')).text).toMatch(/demo\s+Demo Merchant\s+Pune\s+IN/);
  const ok = await run('kyc', 'approve-profile', 'demo');
  expect(ok).toEqual({
    code: 0,
    text: [
      'The personal information of demo is approved and locked.',
      'status_kyc of demo is now 1 (approved).',
    ].join('\n'),
  });
  expect(await statusKyc()).toBe(1);
  expect((await run('kyc', 'approve-profile', 'demo')).code).toBe(1);
});

test('wrong arguments print the usage with exit code 2', async () => {
  const missing = await run('kyc', 'reject', 'upl_a');
  expect(missing.code).toBe(2);
  expect(missing.text).toContain('Usage: npm run admin -- kyc reject <upload-id> <remarks>');
  expect((await run('kyc', 'approve')).code).toBe(2);
  expect((await run('kyc', 'list', 'extra')).code).toBe(2);
  expect((await run('help')).text).toContain('kyc approve-profile <username>');
});
