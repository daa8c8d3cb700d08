import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeProfile } from '../../../test/factories/auth';
import { fail, ok, on } from '../../../test/msw/contract';
import { refuse, server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';
import { changeLanguage } from '../../i18n/language';

// Rendering the lazy routes is slow on a shared machine.
jest.setTimeout(15_000);

async function renderProfile(profile = makeProfile()) {
  server.use(on('getProfile', () => ok('getProfile', { status: true, profile })));
  const user = userEvent.setup({ applyAccept: false });
  const view = renderRoute('/app/profile', { session: { ...SIGNED_IN, profile } });
  await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 10_000 });
  return { user, ...view };
}

const field = (label: string) => screen.getByText(label).nextElementSibling;

test('a read-only card; empty values show ----', async () => {
  await renderProfile(
    makeProfile({ gender: 'female', dob: '1990-05-17', city: 'Pune', landmark: null }),
  );
  await waitFor(() => expect(field('Country')).toHaveTextContent('India'));
  expect(field('Name')).toHaveTextContent('Demo Merchant');
  expect(field('Email')).toHaveTextContent('demo@example.com');
  expect(field('Gender')).toHaveTextContent('Female');
  expect(field('Date of Birth')).toHaveTextContent('17-05-1990');
  expect(field('Mobile Number')).toHaveTextContent('+919876543210');
  expect(field('City')).toHaveTextContent('Pune');
  for (const empty of ['Landmark', 'State', 'Pincode']) {
    expect(field(empty)).toHaveTextContent('----');
  }
  expect(screen.queryByRole('textbox')).toBeNull();
});

test('the pencil uploads a new avatar; the header shows it at once', async () => {
  let sent: FormDataEntryValue | null = null;
  server.use(
    on('changePicture', async ({ request }) => {
      sent = (await request.formData()).get('photo');
      return ok('changePicture', {
        status: true,
        msg: 'Profile picture updated successfully',
        avatar: 'fresh0123456789abcdef0123456789ab.png',
      });
    }),
  );
  const { user } = await renderProfile();
  const header = screen.getByRole('banner');
  expect(within(header).getByRole('button', { name: 'Settings' })).toHaveTextContent('DM');

  await user.upload(
    screen.getByLabelText('Profile picture file'),
    new File([new Uint8Array(64)], 'me.png', { type: 'image/png' }),
  );
  expect(await screen.findByText('Profile picture updated successfully')).toBeInTheDocument();
  expect(sent).toBeInstanceOf(Blob);
  expect((sent as unknown as File).name).toBe('me.png');
  // The header's picture is decorative, inside the button named "Settings".
  const settings = within(header).getByRole('button', { name: 'Settings' });
  await waitFor(() => expect(settings.querySelector('img')).not.toBeNull());
  expect(settings.querySelector('img')).toHaveAttribute(
    'src',
    'http://localhost/api/images/fresh0123456789abcdef0123456789ab.png',
  );
  // The sidebar's account block too.
  expect(
    screen.getAllByRole('img', { name: "Demo Merchant's profile picture" }).length,
  ).toBeGreaterThanOrEqual(2);
});

test("in French, the server's coded answer is toasted in French", async () => {
  server.use(
    on('changePicture', () =>
      ok('changePicture', {
        status: true,
        msg: 'Profile picture updated successfully',
        codes: { msg: { code: 'profile.pictureUpdated' } },
        avatar: 'fresh0123456789abcdef0123456789ab.png',
      }),
    ),
  );
  const { user } = await renderProfile();
  const picker = screen.getByLabelText('Profile picture file');
  await act(() => changeLanguage('fr'));
  try {
    await user.upload(picker, new File([new Uint8Array(64)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('Photo de profil mise à jour avec succès')).toBeInTheDocument();
    expect(screen.queryByText('Profile picture updated successfully')).toBeNull();
  } finally {
    await act(() => changeLanguage('en'));
  }
});

test('a picture the picker refuses never reaches the server', async () => {
  const calls = jest.fn();
  server.use(
    on('changePicture', () => {
      calls();
      return fail('changePicture', 422, 'no');
    }),
  );
  const { user } = await renderProfile();
  await user.upload(
    screen.getByLabelText('Profile picture file'),
    new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }),
  );
  expect(await screen.findByText('FILE_TYPE_NOT_ACCEPTED')).toBeInTheDocument();
  expect(calls).not.toHaveBeenCalled();
});

test('a refused upload keeps the old picture and shows the server’s reason', async () => {
  refuse('changePicture', 422, 'The photo must be a file of type: jpg, png, jpeg.', {
    photo: ['The photo must be a file of type: jpg, png, jpeg.'],
  });
  const { user } = await renderProfile();
  await user.upload(
    screen.getByLabelText('Profile picture file'),
    new File(['#!/bin/sh'], 'script.png', { type: 'image/png' }),
  );
  expect(
    await screen.findByText('The photo must be a file of type: jpg, png, jpeg.'),
  ).toBeInTheDocument();
  expect(
    within(screen.getByRole('banner')).getByRole('button', { name: 'Settings' }),
  ).toHaveTextContent('DM');
});
