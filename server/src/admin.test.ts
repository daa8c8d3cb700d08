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
});
