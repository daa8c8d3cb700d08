import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addUser } from '../../test/accounts';
import { JPEG, PNG } from '../../test/images';
import { multipart } from '../../test/multipart';
import { createTestApp, type TestApp } from '../../test/testApp';

// Two server processes of one deployment, as behind a load balancer: each its own DATA_DIR, one
// database, one STORAGE_DIR. A picture stored through either is served and replaced by both.

let storageRoot: string;
let sharedDir: string;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  storageRoot = mkdtempSync(path.join(tmpdir(), 'portal-shared-'));
  sharedDir = path.join(storageRoot, 'uploads');
  const env = { STORAGE_DIR: sharedDir };
  first = await createTestApp({ env });
  second = await createTestApp({ env, sameDatabaseAs: first });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  rmSync(storageRoot, { recursive: true, force: true });
});

async function changePicture(app: TestApp, auth: Record<string, string>, photo: Buffer) {
  // Typed by its bytes, whatever the client says.
  const body = multipart([
    { name: 'photo', value: photo, filename: 'me', contentType: 'application/octet-stream' },
  ]);
  const res = await app.call('changePicture', {
    headers: { ...auth, ...body.headers },
    body: body.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ avatar: string }>().avatar;
}

const getImage = (app: TestApp, file: string, headers: Record<string, string> = {}) =>
  app.call('getImage', { params: { file }, headers });

test('the processes have their own DATA_DIR and one STORAGE_DIR', () => {
  expect(first.dataDir).not.toBe(second.dataDir);
  expect(first.config.storageDir).toBe(sharedDir);
  expect(second.config.storageDir).toBe(sharedDir);
});

test('an avatar uploaded through one process is served by the other, with the same headers', async () => {
  const auth = await first.authHeader();
  const avatar = await changePicture(first, auth, PNG);

  const served = await getImage(second, avatar);
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  // The bytes the first process stored (re-encoded from the upload), read from the shared store.
  expect(served.rawPayload.equals(readFileSync(path.join(sharedDir, avatar)))).toBe(true);

  expect(readdirSync(sharedDir)).toEqual([avatar]);
  for (const app of [first, second]) {
    expect(existsSync(path.join(app.dataDir, 'uploads'))).toBe(false);
  }
});

test('replacing it through the other process removes the old file for both', async () => {
  // The session lives in the database, so either process accepts it.
  const auth = await first.authHeader();
  const old = await changePicture(first, auth, PNG);
  const next = await changePicture(second, auth, JPEG);

  expect(readdirSync(sharedDir)).toEqual([next]);
  for (const app of [first, second]) {
    expect((await getImage(app, old)).statusCode).toBe(404);
    const res = await getImage(app, next);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
  }
});

test('a KYC scan uploaded through one process is shown to its owner only by the other', async () => {
  await addUser(first, 'scanner');
  await addUser(first, 'onlooker');
  const owner = await first.authHeader('scanner');
  const body = multipart([
    { name: 'document_type', value: 'identity proof' },
    { name: 'document_name', value: 'Aadhar Card' },
    { name: 'document_number', value: '123412341234' },
    { name: 'front', value: PNG, filename: 'front.png', contentType: 'image/png' },
    { name: 'back', value: JPEG, filename: 'back.jpg', contentType: 'image/jpeg' },
  ]);
  const res = await first.call('uploadKyc', {
    headers: { ...owner, ...body.headers },
    body: body.payload,
  });
  expect(res.statusCode).toBe(200);
  const { front } = await first.db
    .selectFrom('kyc_uploads')
    .innerJoin('users', 'users.id', 'kyc_uploads.user_id')
    .select('kyc_uploads.front')
    .where('users.username', '=', 'scanner')
    .executeTakeFirstOrThrow();
  expect(front).not.toBeNull();

  const shown = await getImage(second, front ?? '', owner);
  expect(shown.statusCode).toBe(200);
  expect(shown.headers['cache-control']).toBe('private, no-store');
  expect(shown.rawPayload.equals(readFileSync(path.join(sharedDir, front ?? '')))).toBe(true);
  expect(
    (await getImage(second, front ?? '', await second.authHeader('onlooker'))).statusCode,
  ).toBe(403);
});
