import { runAdmin } from './admin';
import { freshTestStore, type TestStore } from '../test/testStore';

describe('admin CLI', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await freshTestStore('portal-admin-');
  });
  afterAll(() => store.close());

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (l) => lines.push(l) },
      { ...store.env, NODE_ENV: 'test' },
    );
    return { code, text: lines.join('\n') };
  };

  it('prints help', async () => {
    const { code, text } = await run('help');
    expect(code).toBe(0);
    expect(text).toContain('Usage: npm run admin -- <command>');
    expect(text).toContain('user list');
  });

  it('lists users of DATA_DIR (migrating and seeding a fresh one)', async () => {
    const { code, text } = await run('user', 'list');
    expect(code).toBe(0);
    expect(text).toMatch(/username\s+email/);
    expect(text).toMatch(/demo\s+demo@example\.com\s+Demo Merchant\s+mpin/);
  });

  it('rejects unknown commands with exit code 2', async () => {
    const { code, text } = await run('user', 'frobnicate');
    expect(code).toBe(2);
    expect(text).toContain('Unknown command: user frobnicate');
  });
  it('reads a local-chain balance of a coin or a token, exactly', async () => {
    const address = '0x00000000000000000000000000000000000a11ce';
    expect((await run('chain', 'balance', address, 'USDT-BEP20')).text.split('\n')[0]).toBe('0');
    expect((await run('chain', 'transfer', address, '12.345678', 'USDT-BEP20')).code).toBe(0);
    expect((await run('chain', 'transfer', address, '0.25', 'BNB-BSC')).code).toBe(0);
    const token = await run('chain', 'balance', address, 'USDT-BEP20');
    expect(token).toEqual({
      code: 0,
      text: `12.345678\n${address} holds 12.345678 USDT-BEP20 on chain 56.`,
    });
    // The coin is kept apart from the token on the same chain.
    expect((await run('chain', 'balance', address, 'BNB-BSC')).text.split('\n')[0]).toBe('0.25');
    expect((await run('chain', 'balance', 'nope', 'USDT-BEP20')).code).toBe(2);
    expect((await run('chain', 'balance', address, 'NOPE')).code).toBe(2);
  });
});
