import type { LoginResponse, Profile } from '../../src/api/generated/auth.gen';
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

/** The answer of a successful `login` (step two). */
export function makeLoginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    status: true,
    msg: 'Login Successfully',
    token: 'sess_from_login',
    username: 'demo',
    currency: 'USD',
    currency_type: '$',
    profile: makeProfile(),
    ...overrides,
  };
}

export const fixtures = {
  listCountries: {
    status: true,
    data: [
      { id: 'FR', name: 'France', calling_code: '+33' },
      { id: 'DE', name: 'Germany', calling_code: '+49' },
      { id: 'IN', name: 'India', calling_code: '+91' },
      { id: 'ID', name: 'Indonesia', calling_code: '+62' },
      { id: 'IT', name: 'Italy', calling_code: '+39' },
      { id: 'JP', name: 'Japan', calling_code: '+81' },
      { id: 'ES', name: 'Spain', calling_code: '+34' },
      { id: 'GB', name: 'United Kingdom', calling_code: '+44' },
      { id: 'US', name: 'United States', calling_code: '+1' },
    ],
  },
  checkUsername: { status: true, msg: 'Username available.' },
  preLogin: {
    status: true,
    auth_type: 'mpin',
    token: 'step_from_prelogin',
    msg: 'Enter your 4 Digit Pin to continue.',
  },
  login: makeLoginResponse(),
  logout: { status: true, msg: 'Logout Successfully' },
  register: { status: true, msg: 'Registration Successfully, please login.' },
} satisfies Fixtures;
