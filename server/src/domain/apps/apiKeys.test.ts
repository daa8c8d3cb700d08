import { checkAbilities, hashApiKey, KEY_PREFIX, newApiKey, TOKEN_PERMISSIONS } from './apiKeys';

describe('API keys', () => {
  it('are random, prefixed, and described by their sha256 and a short prefix', () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(a.key).toMatch(/^csl_live_[0-9a-z]{32}$/);
    expect(a.key.startsWith(KEY_PREFIX.live)).toBe(true);
    expect(newApiKey(false).key).toMatch(/^csl_test_[0-9a-z]{32}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.key.startsWith(a.prefix)).toBe(true);
    expect(a.prefix.length).toBeLessThan(a.key.length / 2);
  });

  it('take abilities only from the available list, in its order', () => {
    expect(TOKEN_PERMISSIONS.map((p) => p.value)).toEqual([
      'methods:read',
      'accounts:read',
      'accounts:write',
      'deposits:read',
      'withdrawals:read',
      'withdrawals:write',
      'balances:read',
      'webhooks:write',
      'wallets:read',
      'invoices:read',
      'invoices:write',
      'refunds:read',
      'refunds:write',
      'logs:read',
    ]);
    expect(checkAbilities(['balances:read', 'accounts:write'])).toEqual({
      ok: true,
      value: ['accounts:write', 'balances:read'],
    });
    expect(checkAbilities([])).toEqual({ ok: false, message: 'Min One Permission is required' });
    expect(checkAbilities(['deposits:read', 'admin'])).toEqual({
      ok: false,
      message: "'admin' is not an available permission.",
    });
  });
});
