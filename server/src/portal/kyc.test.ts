import { addUser } from '../../test/accounts';
import sharp from 'sharp';
import { JPEG, JPEG_HTML, PNG, POLYGLOT_PNG, SCRIPT, SVG, oversizedPng } from '../../test/images';
import { multipart, type Part } from '../../test/multipart';
import { KYC_MSG, approveProfile, reviewUpload } from '../domain/account/kyc';
import { coded, expectFieldErrors } from '../../test/expectations';
import { testAppPerBlock } from '../../test/withTestApp';

// KYC operations through HTTP: the sections with their uploads, every upload rule, the
// 'Already uploaded' rule, and status_kyc as uploads are reviewed.

const t = testAppPerBlock();

interface DocTypes {
  data: {
    id: string;
    document_type: string;
    data: string[];
    uploads: { data: { id: string; status: number; front: string | null }[] };
  }[];
}

async function docTypes(headers: Record<string, string>): Promise<DocTypes> {
  const res = await t.call('listDocTypes', { headers });
  expect(res.statusCode).toBe(200);
  return res.json<DocTypes>();
}

const statusKyc = async (username: string) =>
  (
    await t.db
      .selectFrom('users')
      .select('status_kyc')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
  ).status_kyc;

function upload(headers: Record<string, string>, fields: Record<string, string>, files: Part[]) {
  const body = multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    ...files,
  ]);
  return t.call('uploadKyc', { headers: { ...headers, ...body.headers }, body: body.payload });
}

const front = (value: Buffer = PNG): Part => ({
  name: 'front',
  value,
  filename: 'front.png',
  contentType: 'image/png',
});
const back = (value: Buffer = JPEG): Part => ({
  name: 'back',
  value,
  filename: 'back.jpg',
  contentType: 'image/jpeg',
});
const aadhar = { document_type: 'identity proof', document_name: 'Aadhar Card' };

describe('listDocTypes', () => {
  test('lists every section in order with this account’s uploads only', async () => {
    const demo = await docTypes(await t.authHeader());
    expect(demo.data.map((d) => d.document_type)).toEqual(['Identity Proof', 'PAN Card', 'Photo']);
    expect(demo.data[0]?.data).toContain('Aadhar Card');
    expect(demo.data[1]?.uploads.data).toEqual([
      expect.objectContaining({ id: 'upl_demo_pan', status: 2 }),
    ]);

    await addUser(t, 'stranger');
    const other = await docTypes(await t.authHeader('stranger'));
    expect(other.data.every((d) => d.uploads.data.length === 0)).toBe(true);
  });
});

describe('uploadKyc', () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    await addUser(t, 'uploader', { country: 'IN' });
    headers = await t.authHeader('uploader');
  });

  test('required fields and images carry the spec messages', async () => {
    const res = await upload(headers, { document_type: 'identity proof', document_name: '' }, []);
    expectFieldErrors(res, { document_name: ['Document Name is required'] });

    const missing = await upload(headers, aadhar, []);
    expect(missing.json().errors).toEqual({
      document_number: [KYC_MSG.numberRequired],
      front: [KYC_MSG.frontRequired],
      back: [KYC_MSG.backRequired],
    });

    const photo = await upload(headers, { document_type: 'photo', document_name: 'Photo' }, []);
    expect(photo.json().errors).toEqual({ front: [KYC_MSG.photoRequired] });
  });

  test('document names, numbers and the Aadhar rule', async () => {
    const wrongName = await upload(
      headers,
      { ...aadhar, document_name: 'Library Card', document_number: 'X1' },
      [front(), back()],
    );
    expect(wrongName.json().errors).toEqual({ document_name: [KYC_MSG.nameInvalid] });

    const letters = await upload(headers, { ...aadhar, document_number: '1234ABCD' }, [
      front(),
      back(),
    ]);
    expect(letters.json().errors).toEqual({ document_number: [KYC_MSG.aadharDigits] });
    const thirteen = await upload(headers, { ...aadhar, document_number: '1234567890123' }, [
      front(),
      back(),
    ]);
    expect(thirteen.json().errors).toEqual({ document_number: [KYC_MSG.aadharDigits] });

    const long = await upload(
      headers,
      { ...aadhar, document_name: 'Passport', document_number: 'P'.repeat(21) },
      [front(), back()],
    );
    expect(long.json().errors).toEqual({ document_number: [KYC_MSG.numberTooLong] });

    const unknownType = await upload(headers, { ...aadhar, document_type: 'tax return' }, []);
    expect(unknownType.json().errors).toEqual({ document_type: [KYC_MSG.typeInvalid] });
  });

  test('images are judged by content and size', async () => {
    const fake = await upload(headers, { ...aadhar, document_number: '123412341234' }, [
      front(SVG),
      back(SCRIPT),
    ]);
    expectFieldErrors(fake, {
      front: ['The front must be a file of type: jpg, png, jpeg.'],
      back: ['The back must be a file of type: jpg, png, jpeg.'],
    });
    const big = await upload(headers, { ...aadhar, document_number: '123412341234' }, [
      front(oversizedPng()),
      back(),
    ]);
    expect(big.statusCode).toBe(413);
    const cut = await upload(headers, { ...aadhar, document_number: '123412341234' }, [
      front(PNG.subarray(0, PNG.length - 20)),
      back(),
    ]);
    expectFieldErrors(cut, { front: ['The front must be a file of type: jpg, png, jpeg.'] });
    expect(await statusKyc('uploader')).toBe(0);
  });

  test('stores a pending upload, then refuses the section with 409 Already uploaded', async () => {
    const ok = await upload(headers, { ...aadhar, document_number: '123412341234' }, [
      front(),
      back(),
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(coded({ status: true, msg: KYC_MSG.uploaded }));
    expect(await statusKyc('uploader')).toBe(3);

    const section = (await docTypes(headers)).data[0];
    const stored = section?.uploads.data[0];
    expect(stored).toMatchObject({
      status: 0,
      front: expect.stringMatching(/^[0-9a-f]{32}\.png$/),
    });
    // The owner can fetch the scan; nobody else can.
    const scan = { params: { file: stored?.front ?? '' } };
    expect((await t.call('getImage', { ...scan, headers })).statusCode).toBe(200);
    const stranger = await t.authHeader('stranger');
    expect((await t.call('getImage', { ...scan, headers: stranger })).statusCode).toBe(403);

    const again = await upload(headers, { ...aadhar, document_number: '999988887777' }, [
      front(),
      back(),
    ]);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('Already uploaded');
    expect(again.json().codes).toEqual({ msg: { code: 'kyc.alreadyUploaded' } });
  });

  test('the photo needs no number and stores none', async () => {
    const res = await upload(
      headers,
      { document_type: 'Photo', document_name: 'Photo', document_number: '42' },
      [front(JPEG)],
    );
    expect(res.statusCode).toBe(200);
    const photo = (await docTypes(headers)).data[2]?.uploads.data[0];
    expect(photo).toMatchObject({ status: 0, document_number: null });
  });
});

describe('scans are stored re-encoded', () => {
  test('web pages riding in a PNG and a JPEG are gone, the pictures stay', async () => {
    await addUser(t, 'smuggler', { country: 'IN' });
    const headers = await t.authHeader('smuggler');
    const res = await upload(headers, { ...aadhar, document_number: '123412341234' }, [
      { ...front(POLYGLOT_PNG), filename: 'x.html', contentType: 'text/html' },
      { ...back(JPEG_HTML), filename: 'x.html', contentType: 'text/html' },
    ]);
    expect(res.statusCode).toBe(200);
    const row = await t.db
      .selectFrom('kyc_uploads')
      .innerJoin('users', 'users.id', 'kyc_uploads.user_id')
      .select(['kyc_uploads.front', 'kyc_uploads.back'])
      .where('users.username', '=', 'smuggler')
      .executeTakeFirstOrThrow();
    for (const [file, sent, format] of [
      [row.front, POLYGLOT_PNG, 'png'],
      [row.back, JPEG_HTML, 'jpeg'],
    ] as const) {
      const served = await t.call('getImage', { params: { file: file ?? '' }, headers });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(sent)).toBe(false);
      expect(served.rawPayload.toString('latin1')).not.toMatch(/<script|<html/i);
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format, width: 1 });
    }
  });
});

describe('status_kyc follows the reviews', () => {
  test('0 -> 3 -> 2 -> 3 -> 1, and a rejected section accepts a new upload', async () => {
    await addUser(t, 'reviewed', { country: 'IN' });
    const headers = await t.authHeader('reviewed');
    expect(await statusKyc('reviewed')).toBe(0);
    const pan = { document_type: 'pan card', document_name: 'PAN Card', document_number: 'AB1' };

    expect((await upload(headers, pan, [front()])).statusCode).toBe(200);
    expect(await statusKyc('reviewed')).toBe(3);

    const first = (await docTypes(headers)).data[1]?.uploads.data[0]?.id ?? '';
    await reviewUpload(t.db, first, { status: 2, remarks: 'Blurred' }, t.clock().toISOString());
    expect(await statusKyc('reviewed')).toBe(2);

    t.clock.advance(1000);
    expect((await upload(headers, pan, [front()])).statusCode).toBe(200);
    expect(await statusKyc('reviewed')).toBe(3);
    const second = (await docTypes(headers)).data[1]?.uploads.data[0]?.id ?? '';
    expect(second).not.toBe(first);

    await reviewUpload(t.db, second, { status: 1 }, t.clock().toISOString());
    // A document approved, personal information not yet: still awaiting review.
    expect(await statusKyc('reviewed')).toBe(3);

    await t.call('updateProfile', {
      headers,
      body: {
        name: 'Reviewed User',
        gender: 'male',
        dob: '1985-02-03',
        address_line1: '1 Main Road',
        address_line2: 'Centre',
        city: 'Pune',
        state: 'Maharashtra',
        pincode: '411001',
      },
    });
    await approveProfile(t.db, 'reviewed');
    expect(await statusKyc('reviewed')).toBe(1);
  });
});
