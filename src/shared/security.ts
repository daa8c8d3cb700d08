// One source for client and server: a pure module both import (no React, browser or Node APIs).

/** What the security forms say, before a call (client) and on it (server). */
export const SECURITY_MESSAGES = {
  setup2faFirst: 'Please setup 2fa First',
  codeRequired: 'Security code is required',
  pinMismatch: 'The confirm Pin does not match the new Pin',
  passwordMismatch: 'The confirm password does not match the new password',
} as const;
