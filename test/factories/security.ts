import type {
  AuthenticationResponse,
  Change2FaResponse,
} from '../../src/api/generated/security.gen';
import { makeProfile } from './auth';
import type { Fixtures } from './types';

/** An authenticator setup URL as the server sends it (RFC 4648 test secret). */
export const OTPAUTH_URL =
  'otpauth://totp/CryptoSafeLock:demo?secret=JBSWY3DPEHPK3PXP&issuer=CryptoSafeLock';

export function makeAuthentication(
  overrides: Partial<AuthenticationResponse> = {},
): AuthenticationResponse {
  return {
    status: true,
    more_details: { authenticator: 0 },
    auth_type: 'mpin',
    image_2fa: OTPAUTH_URL,
    ...overrides,
  };
}

/**
 * change2fa's answer. Not in `fixtures`: codegen names that endpoint change2Fa while the
 * contract's operationId is change2fa, so the msw handler checks it by the operationId itself.
 */
export const change2faSetUp: Change2FaResponse = {
  status: true,
  msg: 'Two factor authentication setup successfully',
  profile: makeProfile({ image_2fa: null }),
};

export const fixtures = {
  getAuthentication: makeAuthentication(),
  updateAuthentication: {
    status: true,
    msg: 'Authentication method updated successfully',
    auth_type: 'authenticator',
    profile: makeProfile({ auth_type: 'authenticator' }),
  },
  resendOtp: { status: true, msg: 'OTP sent to your registered email' },
  changeMpin: { status: true, msg: 'Pin changed successfully' },
  changePassword: { status: true, msg: 'Password changed successfully' },
} satisfies Fixtures;
