import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from './config';
import { resolveConfig } from './runtime';

describe('resolveConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-runtime-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const resolve = (env: Record<string, string>) =>
    resolveConfig(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 's'.repeat(40), ...env }));

  it('keeps uploads in DATA_DIR/uploads when STORAGE_DIR is unset', () => {
    expect(resolve({}).storageDir).toBe(path.join(dataDir, 'uploads'));
  });

  it('takes STORAGE_DIR, made absolute against the working directory', () => {
    expect(resolve({ STORAGE_DIR: '/mnt/shared/uploads' }).storageDir).toBe('/mnt/shared/uploads');
    expect(resolve({ STORAGE_DIR: 'shared/uploads' }).storageDir).toBe(
      path.resolve('shared/uploads'),
    );
  });
});
