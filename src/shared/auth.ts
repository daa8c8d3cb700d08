// One source for client and server: a pure module both import (no React, browser or Node APIs).

/** Step two of the sign-in: the message for a missing code, per auth type. */
export const FACTOR_REQUIRED = {
  mpin: '4 Digit Pin is Required',
  authenticator: 'Two-Factor Authentication Code is Required',
  otp: 'OTP is Required',
} as const;

/** A 401 on an expired or revoked session: the server says it, the client toasts it. */
export const SESSION_EXPIRED_MESSAGE = 'Session timed out due to inactivity. Please sign in again.';
