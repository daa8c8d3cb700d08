import type { Fixtures } from './types';

export const fixtures = {
  requestPasswordReset: {
    status: true,
    msg: 'If an account matches, we have e-mailed it a reset code. It is valid for 15 minutes.',
  },
  resetPassword: {
    status: true,
    msg: 'Your password has been reset. Please sign in with your new password.',
  },
} satisfies Fixtures;
