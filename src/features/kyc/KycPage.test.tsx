import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { makeProfile } from '../../../test/factories/auth';
import { makeDocTypes, makeUpload } from '../../../test/factories/kyc';
import { PNG_BYTES } from '../../../test/factories/profile';
import { fail, ok, on } from '../../../test/msw/contract';
import { server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import type { Profile } from '../../api/generated/profile.gen';

// Typing whole forms with user-event takes seconds on a shared machine.
jest.setTimeout(20_000);

// jsdom has no object URLs; the browser's are opaque strings too.
let urlCount = 0;
const createObjectURL = jest.fn(() => `blob:http://localhost/scan-${(urlCount += 1)}`);
const revokeObjectURL = jest.fn();
beforeAll(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

async function renderKyc({
  profile = makeProfile(),
  docTypes = makeDocTypes(),
}: { profile?: Profile; docTypes?: ReturnType<typeof makeDocTypes> } = {}) {
  server.use(
    on('getProfile', () => ok('getProfile', { status: true, profile })),
    on('listDocTypes', () => ok('listDocTypes', { status: true, data: docTypes })),
  );
  const user = userEvent.setup({ applyAccept: false });
  const view = renderRoute('/app/kyc', { session: { ...SIGNED_IN, profile } });
  await screen.findByRole('heading', { name: 'Identity Verification' }, { timeout: 10_000 });
  return { user, ...view };
}

const personal = () => screen.getByRole('form', { name: 'Personal Information' });
const png = (name: string) => new File([new Uint8Array(32)], name, { type: 'image/png' });

/** Opens an accordion section by its title (its header also holds the status). */
async function openSection(user: ReturnType<typeof userEvent.setup>, title: string) {
  // The title, then the hint and status (not its 'View History' button, named 'View History of <title>').
  const name = new RegExp(`^${title}(?! history$)`);
  const button = await screen.findByRole('button', { name });
  if (button.getAttribute('aria-expanded') !== 'true') await user.click(button);
  return button;
}

describe('Personal Information', () => {
  test('every required field has the spec message; the section is Pending', async () => {
    const { user } = await renderKyc();
    expect(screen.getByRole('button', { name: /Personal Information/ })).toHaveTextContent(
      'Pending',
    );
    const form = personal();
    await user.clear(within(form).getByLabelText('Name'));
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    for (const message of [
      'Name is required',
      'Gender is required',
      'Date of Birth is required',
      'Flat,House Number is required',
      'Area is required',
      'City is required',
      'State is required',
      'Pincode is required',
    ]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
    expect(within(form).queryByText('Landmark is required')).toBeNull();
    // An edited field loses its error.
    await user.type(within(form).getByLabelText('City'), 'P');
    expect(within(form).queryByText('City is required')).toBeNull();
  });

  test('Pending says when nothing has been submitted yet', async () => {
    await renderKyc({ profile: makeProfile({ dob: null, is_profile_complete: 0 }) });
    expect(screen.getByRole('button', { name: /Personal Information/ })).toHaveTextContent(
      'Personal InformationNot submitted yetPending',
    );
  });

  test('name keeps letters and spaces', async () => {
    const { user } = await renderKyc();
    const name = within(personal()).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Asha_ V3rma!');
    expect(name).toHaveValue('Asha Vrma');
  });

  test.each([
    [
      'in India keeps digits and +, 6 long',
      'IN',
      '41-10a0123',
      '411001',
      '4110',
      'Pincode must be 6 digits',
    ],
    [
      'outside India has 4 to 7 characters',
      'FR',
      '12345678',
      '1234567',
      '750',
      'Pincode must be 4 to 7 digits',
    ],
  ])('the pincode %s', async (_case, country, typed, kept, tooShort, message) => {
    const { user } = await renderKyc({ profile: makeProfile({ country }) });
    const form = personal();
    const pincode = within(form).getByLabelText('Pincode');
    await user.type(pincode, typed);
    expect(pincode).toHaveValue(kept);
    await user.clear(pincode);
    await user.type(pincode, tooShort);
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(within(form).getByText(message)).toBeInTheDocument();
  });

  test('email, country and phone are read-only', async () => {
    await renderKyc();
    const form = personal();
    expect(within(form).getByLabelText('Email')).toHaveAttribute('readonly');
    expect(within(form).getByLabelText('Phone')).toHaveAttribute('readonly');
    const country = within(form).getByLabelText('Country');
    expect(country).toHaveAttribute('readonly');
    await waitFor(() => expect(country).toHaveValue('India'));
  });

  test('Submit asks for confirmation, then saves; a server field error lands on its field', async () => {
    const bodies: unknown[] = [];
    server.use(
      on('updateProfile', async ({ request }) => {
        bodies.push(await request.json());
        if (bodies.length === 1) {
          return fail('updateProfile', 422, 'Date of Birth must be a date before today', {
            dob: ['Date of Birth must be a date before today'],
          });
        }
        return ok('updateProfile', {
          status: true,
          msg: 'Profile updated successfully',
          profile: makeProfile({ city: 'Pune' }),
        });
      }),
    );
    const { user } = await renderKyc();
    const form = personal();
    await user.selectOptions(within(form).getByLabelText('Gender'), 'female');
    await user.type(within(form).getByLabelText('Date of Birth'), '1990-05-17');
    await user.type(within(form).getByLabelText('Flat, House Number'), 'Flat 12');
    await user.type(within(form).getByLabelText('Area'), 'Baner Road');
    await user.type(within(form).getByLabelText('City'), 'Pune');
    await user.type(within(form).getByLabelText('State'), 'Maharashtra');
    await user.type(within(form).getByLabelText('Pincode'), '411001');
    await user.click(within(form).getByRole('button', { name: 'Submit' }));

    const confirm = await screen.findByRole('dialog', { name: 'Confirm Save' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toHaveLength(0);

    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, Save' }),
    );
    expect(
      await within(form).findByText('Date of Birth must be a date before today'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('City')).toHaveValue('Pune');

    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, Save' }),
    );
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(bodies[1]).toEqual({
      name: 'Demo Merchant',
      gender: 'female',
      dob: '1990-05-17',
      address_line1: 'Flat 12',
      address_line2: 'Baner Road',
      city: 'Pune',
      state: 'Maharashtra',
      pincode: '411001',
      landmark: '',
    });
  });

  test('once approved: marked Approved, every field read-only, no Submit', async () => {
    await renderKyc({
      profile: makeProfile({
        is_profile_complete: 1,
        gender: 'male',
        dob: '1985-02-03',
        city: 'Pune',
        pincode: '411001',
      }),
    });
    expect(screen.getByRole('button', { name: /Personal Information/ })).toHaveTextContent(
      'Approved',
    );
    const form = personal();
    expect(within(form).queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(within(form).queryByRole('combobox')).toBeNull();
    for (const label of ['Name', 'Date of Birth', 'City', 'Pincode', 'Flat, House Number']) {
      expect(within(form).getByLabelText(label)).toHaveAttribute('readonly');
    }
    expect(within(form).getByLabelText('Gender')).toHaveValue('Male');
    expect(within(form).getByLabelText('Date of Birth')).toHaveValue('03-02-1985');
    expect(within(form).getByLabelText('Landmark (optional)')).toHaveValue('----');
    expect(
      within(form).getByText('Your personal information is verified and can no longer be changed.'),
    ).toBeInTheDocument();
  });
});

describe('document sections', () => {
  test('the rules and messages of an identity document', async () => {
    const { user } = await renderKyc();
    await openSection(user, 'Identity Proof');
    const form = screen.getByRole('form', { name: 'Identity Proof upload' });
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    for (const message of [
      'Document Name is required',
      'Document Number is required',
      'Front Side Image is required',
      'Back Side Image is required',
    ]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
    const number = within(form).getByLabelText('Document Number');
    await user.selectOptions(within(form).getByLabelText('Document Name'), 'Passport');
    await user.type(number, 'P1234567-ABCDEFGHIJKLMNOP');
    expect(number).toHaveValue('P1234567-ABCDEFGHIJK'); // 20 at most
    // Aadhar: digits only, 12 at most.
    await user.selectOptions(within(form).getByLabelText('Document Name'), 'Aadhar Card');
    expect(number).toHaveValue('');
    await user.type(number, '1234-5678 9012 345');
    expect(number).toHaveValue('123456789012');
  });

  test('the photo needs only the picture: Photo is required, no number', async () => {
    const { user } = await renderKyc();
    await openSection(user, 'Photo');
    const form = screen.getByRole('form', { name: 'Photo upload' });
    expect(within(form).queryByLabelText('Document Number')).toBeNull();
    expect(within(form).queryByLabelText('Back Side Image')).toBeNull();
    expect(within(form).getByLabelText('Document Name')).toHaveValue('Photo');
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(within(form).getByText('Photo is required')).toBeInTheDocument();
  });

  test('an upload is confirmed, sent with the lower-cased type, then the section reads Already uploaded', async () => {
    let uploaded = false;
    let sent: FormData | null = null;
    server.use(
      on('listDocTypes', () =>
        ok('listDocTypes', {
          status: true,
          data: makeDocTypes(uploaded ? { dt_identity: [makeUpload()] } : {}),
        }),
      ),
      on('uploadKyc', async ({ request }) => {
        sent = await request.formData();
        uploaded = true;
        return ok('uploadKyc', { status: true, msg: 'Document uploaded successfully' });
      }),
    );
    const user = userEvent.setup({ applyAccept: false });
    renderRoute('/app/kyc', { session: { ...SIGNED_IN, profile: makeProfile() } });
    await openSection(user, 'Identity Proof');
    const form = await screen.findByRole('form', { name: 'Identity Proof upload' });
    await user.selectOptions(within(form).getByLabelText('Document Name'), 'Aadhar Card');
    await user.type(within(form).getByLabelText('Document Number'), '123412341234');
    await user.upload(within(form).getByLabelText('Front Side Image'), png('front.png'));
    await user.upload(within(form).getByLabelText('Back Side Image'), png('back.png'));
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Confirm Save' })).getByRole('button', {
        name: 'Yes, Save',
      }),
    );
    expect(await screen.findByText('Document uploaded successfully')).toBeInTheDocument();
    expect(await screen.findByText('Already uploaded')).toBeInTheDocument();
    const body = sent as unknown as FormData;
    expect(body.get('document_type')).toBe('identity proof');
    expect(body.get('document_name')).toBe('Aadhar Card');
    expect(body.get('document_number')).toBe('123412341234');
    expect((body.get('front') as File).name).toBe('front.png');
    expect((body.get('back') as File).name).toBe('back.png');
    expect(screen.queryByRole('form', { name: 'Identity Proof upload' })).toBeNull();
  });

  test('statuses: pending and approved block new uploads; a rejected one shows its remarks and the form', async () => {
    const { user } = await renderKyc({
      docTypes: makeDocTypes({
        dt_identity: [makeUpload({ status: 1 })],
        dt_pan: [
          makeUpload({
            id: 'upl_pan',
            document_name: 'PAN Card',
            status: 2,
            remarks: 'The scan is blurred',
            back: null,
          }),
        ],
        dt_photo: [makeUpload({ id: 'upl_photo', document_name: 'Photo', document_number: null })],
      }),
    });
    const identity = await openSection(user, 'Identity Proof');
    expect(identity).toHaveTextContent('Approved');
    const pan = await openSection(user, 'PAN Card');
    expect(pan).toHaveTextContent('PAN CardThe scan is blurredRejected');
    const photo = await openSection(user, 'Photo');
    expect(photo).toHaveTextContent('Pending');

    expect(screen.getAllByText('Already uploaded')).toHaveLength(2);
    expect(screen.queryByRole('form', { name: 'Identity Proof upload' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Photo upload' })).toBeNull();
    expect(screen.getByRole('form', { name: 'PAN Card upload' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Rejected: The scan is blurred');
  });

  test('a section with nothing uploaded says so beside its title', async () => {
    await renderKyc({ docTypes: makeDocTypes({ dt_identity: [makeUpload({ status: 1 })] }) });
    expect(await screen.findByRole('button', { name: /^PAN Card(?! history)/ })).toHaveTextContent(
      'PAN CardNot uploaded yet',
    );
    expect(screen.getByRole('button', { name: /^Identity Proof(?! history)/ })).toHaveTextContent(
      'Identity ProofApproved',
    );
  });

  test('the history modal lists every upload; scans are fetched with the session', async () => {
    const authorizations: (string | null)[] = [];
    server.use(
      on('getImage', ({ request }) => {
        authorizations.push(request.headers.get('authorization'));
        return new HttpResponse(PNG_BYTES, { headers: { 'content-type': 'image/png' } });
      }),
    );
    const { user } = await renderKyc({
      docTypes: makeDocTypes({
        dt_pan: [
          makeUpload({
            id: 'u2',
            document_name: 'PAN Card',
            status: 0,
            back: null,
            front: 'new.png',
          }),
          makeUpload({
            id: 'u1',
            document_name: 'PAN Card',
            status: 2,
            remarks: 'Blurred',
            back: null,
            front: 'old.png',
            created_at: '2026-11-01T10:00:00Z',
          }),
        ],
      }),
    });
    await openSection(user, 'PAN Card');
    await user.click(screen.getByRole('button', { name: 'View History of PAN Card' }));
    const modal = await screen.findByRole('dialog', { name: 'PAN Card History' });
    const rows = within(modal).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText('Pending')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Rejected')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Blurred')).toBeInTheDocument();
    const scans = await within(modal).findAllByRole('img', { name: 'PAN Card front' });
    expect(scans).toHaveLength(2);
    for (const scan of scans) expect(scan.getAttribute('src')).toMatch(/^blob:/);
    expect(authorizations).toEqual(['Bearer sess_test', 'Bearer sess_test']);
  });
});
