import { makeProfile } from './auth';
import type { Fixtures } from './types';

/** A 1x1 PNG, as getImage answers pictures. */
export const PNG_BYTES = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  ),
  (c) => c.charCodeAt(0),
);

export const fixtures = {
  getProfile: { status: true, profile: makeProfile() },
  changePicture: {
    status: true,
    msg: 'Profile picture updated successfully',
    avatar: '3f9a0c1e5b7d4a2f8e6c0b1d3a5f7e9c.png',
  },
  updateProfile: {
    status: true,
    msg: 'Profile updated successfully',
    profile: makeProfile(),
  },
} satisfies Fixtures;
