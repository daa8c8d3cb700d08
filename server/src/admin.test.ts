import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAdmin } from './admin';

describe('admin CLI', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-admin-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (l) => lines.push(l) },
      { DATA_DIR: dataDir, NODE_ENV: 'test' },
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
