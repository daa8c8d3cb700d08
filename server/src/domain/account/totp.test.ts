import { matchTotpStep, newTotpSecret, openTotpSecret, sealTotpSecret, totpCode } from './totp';

const KEY = 'server-key-0123456789abcdef0123456789abcdef';

describe('sealed TOTP secrets', () => {
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(KEY, 'usr_a', secret);

  it('round-trips for the same user and key, without the secret in the stored text', () => {
    expect(sealed).not.toContain(secret);
    expect(openTotpSecret(KEY, 'usr_a', sealed)).toBe(secret);
    expect(sealTotpSecret(KEY, 'usr_a', secret)).not.toBe(sealed); // fresh nonce each time
  });

  it('does not open for another user, another key or a tampered value', () => {
    expect(openTotpSecret(KEY, 'usr_b', sealed)).toBeNull();
    expect(openTotpSecret(`${KEY}x`, 'usr_a', sealed)).toBeNull();
    const [prefix, iv, body, tag] = sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1) ?? ''}`;
    expect(openTotpSecret(KEY, 'usr_a', [prefix, iv, flipped, tag].join('.'))).toBeNull();
    expect(openTotpSecret(KEY, 'usr_a', 'not-sealed')).toBeNull();
  });
});

describe('matchTotpStep', () => {
  const secret = newTotpSecret();
  const at = new Date('2025-01-15T10:30:00Z');

  it('answers the matched step, one step of drift either way', async () => {
    const code = await totpCode(secret, at);
    const step = Math.floor(at.getTime() / 30_000);
    expect(await matchTotpStep(secret, code, null, at)).toBe(step);
    expect(await matchTotpStep(secret, code, null, new Date(at.getTime() + 30_000))).toBe(step);
    expect(await matchTotpStep(secret, code, null, new Date(at.getTime() + 90_000))).toBeNull();
  });

  it('refuses steps at or before the last one used (no replay)', async () => {
    const code = await totpCode(secret, at);
    const step = Math.floor(at.getTime() / 30_000);
    expect(await matchTotpStep(secret, code, step, at)).toBeNull();
    expect(await matchTotpStep(secret, code, step - 1, at)).toBe(step);
  });
});
