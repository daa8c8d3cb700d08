import type { Profile } from '../../src/api/generated/auth.gen';
import type { Fixtures } from './types';

/** Builders for entities the mocks answer with; override only what a test is about. */
export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    name: 'Demo Merchant',
    email: 'demo@example.com',
    username: 'demo',
    gender: null,
    dob: null,
    phone: '+919876543210',
    country: 'IN',
    landmark: null,
    city: null,
    state: null,
    pincode: null,
    address_line1: null,
    address_line2: null,
    avatar: null,
    status_kyc: 0,
    is_profile_complete: 0,
    auth_type: 'mpin',
    image_2fa: null,
    ...overrides,
  };
}

export const fixtures = {
  listCountries: {
    status: true,
    data: [
      { id: 'IN', name: 'India', calling_code: '+91' },
      { id: 'FR', name: 'France', calling_code: '+33' },
      { id: 'US', name: 'United States', calling_code: '+1' },
    ],
  },
} satisfies Fixtures;
