// One source for client and server: a pure module both import (no React, browser or Node APIs).

export const NAME_REQUIRED = 'Name is required';

/** The password checklist: the sign-up and change-password screens show it, the server enforces it. */
export const PASSWORD_RULES: readonly { label: string; test: (password: string) => boolean }[] = [
  { label: 'One lowercase letter', test: (p) => /[a-z]/.test(p) },
  { label: 'One uppercase letter', test: (p) => /[A-Z]/.test(p) },
  { label: 'One number', test: (p) => /[0-9]/.test(p) },
  { label: 'One special character', test: (p) => /[^A-Za-z0-9]/.test(p) },
  { label: '8 characters or more', test: (p) => p.length >= 8 },
];
