import type { User } from '../../db/schema';
import { checkPassword, meetsPasswordPolicy } from './auth';
import * as passwords from './passwords';

// The real argon2 functions, observed: an unknown name must still cost one verification.
jest.mock('./passwords', () => {
  const actual = jest.requireActual<typeof import('./passwords')>('./passwords');
  return { ...actual, verifySecret: jest.fn(actual.verifySecret) };
});

describe('checkPassword', () => {
  afterEach(() => jest.clearAllMocks());

  it('runs argon2 against a dummy hash when the name matches no account', async () => {
    const verify = jest.mocked(passwords.verifySecret);
    expect(await checkPassword(undefined, 'Demo@12345')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]?.[0]).toMatch(/^\$argon2id\$/);
  });

  it("checks a known account's password", async () => {
    const user = { password_hash: await passwords.hashSecret('Demo@12345') } as User;
    expect(await checkPassword(user, 'Demo@12345')).toBe(true);
    expect(await checkPassword(user, 'demo@12345')).toBe(false);
  });
});

describe('meetsPasswordPolicy', () => {
  it.each([
    ['Demo@12345', true],
    ['demo@12345', false],
    ['DEMO@12345', false],
    ['Demo@abcde', false],
    ['Demo12345', false],
    ['De@1234', false],
  ])('%s -> %s', (password, expected) => {
    expect(meetsPasswordPolicy(password)).toBe(expected);
  });
});
