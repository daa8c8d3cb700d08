import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { addUser } from '../../test/accounts';
import {
  GIF_HTML,
  JPEG,
  JPEG_HTML,
  PNG,
  POLYGLOT_PNG,
  SCRIPT,
  SVG,
  oversizedPng,
  pixelBombPng,
} from '../../test/images';
import { multipart } from '../../test/multipart';
import { KYC_MSG } from '../domain/account/kyc';
import { DEMO_SCAN } from '../seed/demoPortal';
import { PROFILE_MSG } from './profile';
import { expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';

// Profile operations through HTTP: avatar uploads (and the attacks on them), image serving with
// its access rules, and the personal section's rules.

const t = testAppPerBlock();
let auth: { authorization: string };

beforeAll(async () => {
  auth = await t.authHeader();
});

const storedFiles = () =>
  existsSync(t.config.storageDir) ? readdirSync(t.config.storageDir).sort() : [];
const storedBytes = (name: string) => readFileSync(path.join(t.config.storageDir, name));

function changePicture(photo: Buffer, filename = 'me.png', contentType = 'image/png') {
  const body = multipart([{ name: 'photo', value: photo, filename, contentType }]);
  return t.call('changePicture', { headers: { ...auth, ...body.headers }, body: body.payload });
}

describe('changePicture', () => {
  test('stores a PNG under a random 128-bit name and replaces the previous one', async () => {
    const first = await changePicture(PNG);
    expect(first.statusCode).toBe(200);
    const { avatar, msg } = first.json<{ avatar: string; msg: string }>();
    expect(msg).toBe(PROFILE_MSG.pictureUpdated);
    expect(avatar).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(storedFiles()).toEqual([avatar]);

    const second = await changePicture(JPEG, 'me.jpg', 'image/jpeg');
    expect(second.statusCode).toBe(200);
    const next = second.json<{ avatar: string }>().avatar;
    expect(next).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(storedFiles()).toEqual([next]);
    const user = await t.db
      .selectFrom('users')
      .select('avatar')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(user.avatar).toBe(next);
  });

  test.each([
    ['an SVG', SVG, 'pic.svg', 'image/svg+xml'],
    ['a script renamed .png', SCRIPT, 'pic.png', 'image/png'],
    ['HTML behind a GIF header', GIF_HTML, 'pic.jpg', 'image/jpeg'],
    ['an empty file', Buffer.alloc(0), 'pic.png', 'image/png'],
  ])('refuses %s by its content (422) and writes nothing', async (_label, bytes, name, type) => {
    const before = storedFiles();
    const res = await changePicture(bytes, name, type);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      status: false,
      msg: 'The photo must be a file of type: jpg, png, jpeg.',
      errors: { photo: ['The photo must be a file of type: jpg, png, jpeg.'] },
    });
    expect(storedFiles()).toEqual(before);
  });

  test.each([
    ['a PNG that is also a web page, posted as x.html', POLYGLOT_PNG, 'png'],
    ['a JPEG followed by a web page, posted as x.html', JPEG_HTML, 'jpeg'],
  ])('keeps only the pixels of %s', async (_label, bytes, format) => {
    const res = await changePicture(bytes, 'x.html', 'text/html');
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json<{ avatar: string }>();
    const served = (await t.call('getImage', { params: { file: avatar } })).rawPayload;
    expect(served.equals(bytes)).toBe(false);
    expect(served.equals(storedBytes(avatar))).toBe(true);
    expect(served.toString('latin1')).not.toMatch(/<script|<html/i);
    expect(await sharp(served).metadata()).toMatchObject({ format, width: 1, height: 1 });
  });

  test('strips the EXIF of a phone photo, its GPS position included', async () => {
    const photo = await sharp(JPEG)
      .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const { avatar } = (await changePicture(photo, 'me.jpg', 'image/jpeg')).json<{
      avatar: string;
    }>();
    const served = (await t.call('getImage', { params: { file: avatar } })).rawPayload;
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    expect(served.toString('latin1')).not.toContain('PhoneCo');
  });

  test('refuses a picture that does not decode, with the spec message', async () => {
    const cut = JPEG.subarray(0, JPEG.length - 20);
    const before = storedFiles();
    const res = await changePicture(cut, 'me.jpg', 'image/jpeg');
    expectFieldErrors(res, { photo: ['The photo must be a file of type: jpg, png, jpeg.'] });
    expect(storedFiles()).toEqual(before);
  });

  test('refuses a decompression bomb by its declared size', async () => {
    const res = await changePicture(pixelBombPng());
    expectFieldErrors(res, { photo: ['The photo may not be greater than 50 megapixels.'] });
  });

  test('refuses a file over 2 MB with 413', async () => {
    const res = await changePicture(oversizedPng());
    expect(res.statusCode).toBe(413);
    expect(res.json().errors.photo).toEqual(['The photo may not be greater than 2 MB.']);
  });

  test('without STORAGE_DIR the pictures stay where they always were, in DATA_DIR/uploads', async () => {
    const { avatar } = (await changePicture(PNG)).json<{ avatar: string }>();
    expect(t.config.storageDir).toBe(path.join(t.dataDir, 'uploads'));
    expect(existsSync(path.join(t.dataDir, 'uploads', avatar))).toBe(true);
  });

  test('a path in the client file name never reaches the disk', async () => {
    const res = await changePicture(PNG, '../../../../tmp/evil.png');
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json<{ avatar: string }>();
    expect(avatar).not.toContain('evil');
    expect(existsSync(path.join(t.config.storageDir, avatar))).toBe(true);
    expect(existsSync(path.join(t.dataDir, '..', 'evil.png'))).toBe(false);
  });

  test('needs a session', async () => {
    const body = multipart([{ name: 'photo', value: PNG, filename: 'a.png' }]);
    const res = await t.call('changePicture', { headers: body.headers, body: body.payload });
    expect(res.statusCode).toBe(401);
  });
});

describe('getImage', () => {
  const getImage = (file: string, headers: Record<string, string> = {}) =>
    t.call('getImage', { params: { file }, headers });

  test('serves an avatar to anyone with its name, typed from the stored file, nosniff', async () => {
    const { avatar } = (await changePicture(PNG)).json<{ avatar: string }>();
    const res = await getImage(avatar);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Opened as a document, it may load nothing and runs sandboxed.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.rawPayload.equals(storedBytes(avatar))).toBe(true);
  });

  test('serves a KYC scan only to its owner', async () => {
    await addUser(t, 'peeker');
    const owner = await getImage(DEMO_SCAN, auth);
    expect(owner.statusCode).toBe(200);
    expect(owner.headers['content-type']).toBe('image/png');
    expect(owner.headers['x-content-type-options']).toBe('nosniff');
    expect(owner.headers['cache-control']).toBe('private, no-store');
    expect(owner.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    expect((await getImage(DEMO_SCAN)).statusCode).toBe(403);
    const other = await getImage(DEMO_SCAN, await t.authHeader('peeker'));
    expect(other.statusCode).toBe(403);
    expect(other.json().msg).toBe(PROFILE_MSG.scanOwnerOnly);
  });

  test('a dead session is a 401, even for a public picture', async () => {
    const { avatar } = (await changePicture(PNG)).json<{ avatar: string }>();
    const res = await getImage(avatar, { authorization: 'Bearer sess_not-a-session' });
    expect(res.statusCode).toBe(401);
  });

  test('serves payment method logos: the icon set’s artwork, 128 px square', async () => {
    const res = await getImage('logo_usdt.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    // IHDR: width and height, big-endian, from byte 16 (server/assets/logos/source/README.md).
    expect([res.rawPayload.readUInt32BE(16), res.rawPayload.readUInt32BE(20)]).toEqual([128, 128]);
  });

  test('unknown names are 404, paths and other extensions are refused by the contract', async () => {
    expect((await getImage('0123456789abcdef0123456789abcdef.png')).statusCode).toBe(404);
    expect((await getImage('../../portal.sqlite')).statusCode).toBe(422);
    expect((await getImage('../secret.png')).statusCode).toBe(422);
    expect((await getImage('page.svg')).statusCode).toBe(422);
  });
});

test('getProfile answers the signed-in account’s current profile', async () => {
  await t.db.updateTable('users').set({ status_kyc: 3 }).where('username', '=', 'demo').execute();
  const res = await t.call('getProfile', { headers: auth });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    status: true,
    profile: { username: 'demo', email: 'demo@example.com', status_kyc: 3, country: 'IN' },
  });
  expect((await t.call('getProfile')).statusCode).toBe(401);
});

describe('updateProfile', () => {
  const valid = {
    name: 'Asha Verma',
    gender: 'female',
    dob: '1990-05-17',
    address_line1: 'Flat 12, Sunrise Apartments',
    address_line2: 'Baner Road',
    city: 'Pune',
    state: 'Maharashtra',
    pincode: '411001',
    landmark: 'Near City Mall',
  };
  const update = (body: object, headers = auth) => t.call('updateProfile', { headers, body });

  test('every required field has the spec message', async () => {
    const res = await update({});
    expectFieldErrors(res, {
      name: ['Name is required'],
      gender: ['Gender is required'],
      dob: ['Date of Birth is required'],
      address_line1: ['Flat,House Number is required'],
      address_line2: ['Area is required'],
      city: ['City is required'],
      state: ['State is required'],
      pincode: ['Pincode is required'],
    });
  });

  test('empty or blank strings read as missing', async () => {
    const res = await update({ ...valid, address_line1: '', pincode: '' });
    expectFieldErrors(res, {
      address_line1: ['Flat,House Number is required'],
      pincode: ['Pincode is required'],
    });
    const blank = await update({ ...valid, city: '   ' });
    expect(blank.json().errors).toEqual({ city: ['City is required'] });
  });

  test('name letters only, birth date in the past, pincode 6 digits in India', async () => {
    const res = await update({ ...valid, name: 'Asha 3', dob: '2999-01-01', pincode: '4110' });
    expectFieldErrors(res, {
      name: [KYC_MSG.nameLetters],
      dob: [KYC_MSG.dobPast],
      pincode: [KYC_MSG.pincodeIndia],
    });
  });

  test('pincode 4 to 7 outside India', async () => {
    await addUser(t, 'parisian', { country: 'FR' });
    const headers = await t.authHeader('parisian');
    expect((await update({ ...valid, pincode: '750' }, headers)).json().errors).toEqual({
      pincode: [KYC_MSG.pincodeOther],
    });
    const saved = await update({ ...valid, pincode: '75001' }, headers);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().profile.pincode).toBe('75001');
  });

  test('email, country and phone are not editable', async () => {
    const res = await update({ ...valid, email: 'x@example.com', country: 'FR', phone: '1' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['country', 'email', 'phone']);
  });

  test('saves and answers the whole profile; editable until approved, then 403', async () => {
    const res = await update(valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: true,
      msg: PROFILE_MSG.profileUpdated,
      profile: { ...valid, email: 'demo@example.com', country: 'IN', is_profile_complete: 0 },
    });
    expect((await update({ ...valid, city: 'Mumbai' })).json().profile.city).toBe('Mumbai');

    await t.db.updateTable('users').set({ is_profile_complete: 1 }).execute();
    const locked = await update({ ...valid, city: 'Delhi' });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().msg).toBe(KYC_MSG.locked);
    const user = await t.db
      .selectFrom('users')
      .select('city')
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow();
    expect(user.city).toBe('Mumbai');
  });
});
