import { issueStepToken, STEP_TOKEN_TTL_SECONDS, verifyStepToken } from './stepTokens';

const SECRET = 'unit-test-secret-0123456789abcdef';
const t0 = new Date('2025-01-15T10:00:00Z');
const at = (ms: number) => () => new Date(t0.getTime() + ms);

describe('step tokens', () => {
  it('verify within five minutes and carry the user', () => {
    const token = issueStepToken(SECRET, 'usr_1', 'login', at(0));
    expect(token).toMatch(/^step_[\w-]+\.[\w-]+$/);
    const result = verifyStepToken(SECRET, token, 'login', at(4 * 60_000));
    expect(result).toMatchObject({ ok: true, claims: { sub: 'usr_1', pur: 'login' } });
  });

  it('expire after five minutes', () => {
    const token = issueStepToken(SECRET, 'usr_1', 'login', at(0));
    expect(
      verifyStepToken(SECRET, token, 'login', at(STEP_TOKEN_TTL_SECONDS * 1000 - 1000)).ok,
    ).toBe(true);
    expect(verifyStepToken(SECRET, token, 'login', at(STEP_TOKEN_TTL_SECONDS * 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('reject another secret, tampering and junk', () => {
    const token = issueStepToken(SECRET, 'usr_1', 'login', at(0));
    expect(verifyStepToken('another-secret-0123456789abcdef', token, 'login', at(0))).toEqual({
      ok: false,
      reason: 'signature',
    });
    const [payload, sig] = token.slice('step_'.length).split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: 'usr_2', pur: 'login', exp: 9e9, jti: 'x' }),
    ).toString('base64url');
    expect(verifyStepToken(SECRET, `step_${forged}.${sig}`, 'login', at(0)).ok).toBe(false);
    expect(verifyStepToken(SECRET, `step_${payload}`, 'login', at(0)).ok).toBe(false);
    expect(verifyStepToken(SECRET, 'sess_abc', 'login', at(0)).ok).toBe(false);
  });

  it('are unique per issue', () => {
    expect(issueStepToken(SECRET, 'u', 'login', at(0))).not.toBe(
      issueStepToken(SECRET, 'u', 'login', at(0)),
    );
  });
});
