import { existsSync, readdirSync } from 'node:fs';
import sharp from 'sharp';
import { addUser } from '../../test/accounts';
import { insertApp } from '../../test/appRows';
import { expectFieldErrors } from '../../test/expectations';
import { JPEG, PNG, SVG, oversizedPng } from '../../test/images';
import { multipart } from '../../test/multipart';
import { testAppPerBlock } from '../../test/withTestApp';
import { LOGO_MAX_SIDE } from '../domain/apps/logo';

// An app's logo through HTTP: upload (re-encoded, bounded, the old file removed), refusals,
// ownership, removal, and the app's answers (get-apps, app details) showing it at once.

const t = testAppPerBlock();
let owner: { authorization: string };
let intruder: { authorization: string };
const APP = 'app_logo_1';

beforeAll(async () => {
  const ownerId = await addUser(t, 'logoowner');
  await addUser(t, 'logointruder');
  owner = await t.authHeader('logoowner');
  intruder = await t.authHeader('logointruder');
  await insertApp(t, { id: APP, user_id: ownerId, created_at: t.clock().toISOString() });
});

const storedFiles = () =>
  existsSync(t.config.storageDir) ? readdirSync(t.config.storageDir).sort() : [];

function upload(
  bytes: Buffer,
  { auth = owner, app = APP, filename = 'logo.png', contentType = 'image/png' } = {},
) {
  const body = multipart([{ name: 'logo', value: bytes, filename, contentType }]);
  return t.call('uploadAppLogo', {
    params: { id: app },
    headers: { ...auth, ...body.headers },
    body: body.payload,
  });
}

const remove = (auth = owner, app = APP) =>
  t.call('removeAppLogo', { params: { id: app }, headers: auth });

const logoColumn = async () =>
  (await t.db.selectFrom('apps').select('logo').where('id', '=', APP).executeTakeFirstOrThrow())
    .logo;

const detailsLogo = async () =>
  (await t.call('getAppDetails', { params: { id: APP }, headers: owner })).json<{
    data: { app_data: { logo: string | null } };
  }>().data.app_data.logo;

const listedLogo = async () =>
  (await t.call('getApps', { headers: owner }))
    .json<{ data: { id: string; logo: string | null }[] }>()
    .data.find((app) => app.id === APP)?.logo;

test('an app has no logo until one is uploaded', async () => {
  expect(await detailsLogo()).toBeNull();
  expect(await listedLogo()).toBeNull();
});

test('stores a PNG under a random name, served publicly; the app answers show it at once', async () => {
  // Read (and kept) before the upload: the change of the app's row voids them.
  expect(await detailsLogo()).toBeNull();
  expect(await listedLogo()).toBeNull();

  const res = await upload(PNG);
  expect(res.statusCode).toBe(200);
  const { msg, data } = res.json<{ msg: string; data: { id: string; logo: string } }>();
  expect(msg).toBe('Logo updated successfully');
  expect(data.id).toBe(APP);
  expect(data.logo).toMatch(/^[0-9a-f]{32}\.png$/);
  expect(storedFiles()).toContain(data.logo);
  expect(await logoColumn()).toBe(data.logo);
  expect(await detailsLogo()).toBe(data.logo);
  expect(await listedLogo()).toBe(data.logo);

  // Public by name, like an avatar: no session needed.
  const served = await t.call('getImage', { params: { file: data.logo } });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('a replaced logo’s file and row are removed', async () => {
  const first = (await upload(PNG)).json<{ data: { logo: string } }>().data.logo;
  const res = await upload(JPEG, { filename: 'logo.jpg', contentType: 'image/jpeg' });
  expect(res.statusCode).toBe(200);
  const next = res.json<{ data: { logo: string } }>().data.logo;
  expect(next).toMatch(/^[0-9a-f]{32}\.jpg$/);
  expect(storedFiles()).toContain(next);
  expect(storedFiles()).not.toContain(first);
  const rows = await t.db
    .selectFrom('files')
    .select('name')
    .where('kind', '=', 'app_logo')
    .execute();
  expect(rows.map((r) => r.name)).toEqual([next]);
  expect((await t.call('getImage', { params: { file: first } })).statusCode).toBe(404);
});

test('a large picture is kept at most 256 px on its longer side, without its metadata', async () => {
  const big = await sharp({
    create: { width: 1200, height: 600, channels: 3, background: '#3366cc' },
  })
    .withExif({ IFD0: { Make: 'PhoneCo' } })
    .jpeg()
    .toBuffer();
  expect((await sharp(big).metadata()).exif).toBeDefined();
  const res = await upload(big, { filename: 'big.jpg', contentType: 'image/jpeg' });
  expect(res.statusCode).toBe(200);
  const { logo } = res.json<{ data: { logo: string } }>().data;
  const served = (await t.call('getImage', { params: { file: logo } })).rawPayload;
  const meta = await sharp(served).metadata();
  expect(meta).toMatchObject({ format: 'jpeg', width: LOGO_MAX_SIDE, height: LOGO_MAX_SIDE / 2 });
  expect(meta.exif).toBeUndefined();
  expect(served.toString('latin1')).not.toContain('PhoneCo');
});

test('a small picture is not scaled up', async () => {
  const { logo } = (await upload(PNG)).json<{ data: { logo: string } }>().data;
  const served = (await t.call('getImage', { params: { file: logo } })).rawPayload;
  expect(await sharp(served).metadata()).toMatchObject({ width: 1, height: 1 });
});

test.each([
  ['an SVG', SVG, 'logo.svg', 'image/svg+xml'],
  ['an empty file', Buffer.alloc(0), 'logo.png', 'image/png'],
])('refuses %s by its content (422), keeping the logo it had', async (_l, bytes, name, type) => {
  const before = await logoColumn();
  const files = storedFiles();
  const res = await upload(bytes, { filename: name, contentType: type });
  expectFieldErrors(res, { logo: ['The logo must be a file of type: jpg, png, jpeg.'] });
  expect(res.json().msg).toBe('The logo must be a file of type: jpg, png, jpeg.');
  expect(storedFiles()).toEqual(files);
  expect(await logoColumn()).toBe(before);
});

test('refuses a file over 2 MB with 413', async () => {
  const files = storedFiles();
  const res = await upload(oversizedPng());
  expect(res.statusCode).toBe(413);
  expect(res.json().errors.logo).toEqual(['The logo may not be greater than 2 MB.']);
  expect(storedFiles()).toEqual(files);
});

test('another account’s app is a 404 and nothing changes', async () => {
  const before = await logoColumn();
  const files = storedFiles();
  expect((await upload(PNG, { auth: intruder })).statusCode).toBe(404);
  expect((await remove(intruder)).statusCode).toBe(404);
  expect((await upload(PNG, { app: 'app_missing' })).statusCode).toBe(404);
  expect(storedFiles()).toEqual(files);
  expect(await logoColumn()).toBe(before);
});

test('needs a session', async () => {
  const body = multipart([{ name: 'logo', value: PNG, filename: 'a.png' }]);
  const res = await t.call('uploadAppLogo', {
    params: { id: APP },
    headers: body.headers,
    body: body.payload,
  });
  expect(res.statusCode).toBe(401);
  expect((await t.call('removeAppLogo', { params: { id: APP } })).statusCode).toBe(401);
});

test('Remove drops the logo and its file; removing again is no error', async () => {
  const { logo } = (await upload(PNG)).json<{ data: { logo: string } }>().data;
  expect(await detailsLogo()).toBe(logo);
  const res = await remove();
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ msg: 'Logo removed successfully', data: { logo: null } });
  expect(storedFiles()).not.toContain(logo);
  expect(await logoColumn()).toBeNull();
  expect(await detailsLogo()).toBeNull();
  expect(await listedLogo()).toBeNull();
  // Again: nothing to remove, so the app is not written (its kept answers stay).
  const written = () =>
    t.db.selectFrom('apps').select('updated_at').where('id', '=', APP).executeTakeFirstOrThrow();
  const before = await written();
  t.clock.advance(60_000);
  expect((await remove()).statusCode).toBe(200);
  expect(await written()).toEqual(before);
  expect(
    await t.db.selectFrom('files').select('name').where('kind', '=', 'app_logo').execute(),
  ).toEqual([]);
});
