import { codedMessages } from './messageCodes';

// The refusals that end in how long to wait ('… Please try again in 3 minutes.'). The wait is
// part of each message's code (one for 1 second, one for more seconds, the same for minutes), so
// a language words the wait itself and only the number is a value. The English is as it always was:
// seconds under a minute, whole minutes (rounded up) from there.

/** The words before the wait, per kind of refusal (a locked account's wait is in minutes only). */
const BEFORE = {
  signInLocked:
    'This account is locked after too many failed sign-in attempts. Please try again in',
  signInThrottled: 'Too many failed sign-in attempts. Please try again in',
  failedAttempts: 'Too many failed attempts. Please try again in',
  resetRequests: 'Too many reset requests. Please try again in',
  codeRequests: 'Too many codes requested. Please try again in',
  // The rate limit's (app.ts), its wait written by @fastify/rate-limit ('1 minute', '30 seconds').
  requests: 'Too many requests, please try again in',
} as const;

export type WaitKind = keyof typeof BEFORE;
type Unit = 'second' | 'minute';

const forms: Record<string, string | ((n: string) => string)> = {};
for (const [kind, before] of Object.entries(BEFORE)) {
  const units = kind === 'signInLocked' ? (['minute'] as const) : (['second', 'minute'] as const);
  for (const unit of units) {
    const name = `${kind}${unit === 'second' ? 'Second' : 'Minute'}`;
    forms[name] = `${before} 1 ${unit}.`;
    forms[`${name}s`] = (n: string) => `${before} ${n} ${unit}s.`;
  }
}
const WAIT_MESSAGES = codedMessages('wait', forms);

function inUnit(kind: WaitKind, n: number, unit: Unit): string {
  const name = `${kind}${unit === 'second' ? 'Second' : 'Minute'}`;
  const one = WAIT_MESSAGES[name];
  const many = WAIT_MESSAGES[`${name}s`];
  if (n === 1 && typeof one === 'string') return one;
  if (typeof many === 'function') return many(String(n));
  throw new Error(`No wait message ${name}s`);
}

/** The refusal of `kind` with its wait: seconds under a minute, else whole minutes, rounded up. */
export function waitMessage(kind: WaitKind, seconds: number): string {
  return seconds < 60
    ? inUnit(kind, seconds, 'second')
    : inUnit(kind, Math.ceil(seconds / 60), 'minute');
}

/** The refusal of `kind` with its wait in whole minutes (at least 1). */
export function waitMinutesMessage(kind: WaitKind, minutes: number): string {
  return inUnit(kind, minutes, 'minute');
}
