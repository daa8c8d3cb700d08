import { sealedStorage } from './sealedStorage';

/** redux-persist's record: each value JSON-encoded inside one JSON object. */
const record = (values: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, JSON.stringify(v)])),
  );

const stored = () =>
  JSON.parse(localStorage.getItem('persist:session') ?? 'null') as Record<string, string> | null;

beforeEach(async () => {
  localStorage.clear();
  // redux-persist reads the record before it writes one.
  await sealedStorage.getItem('persist:session');
});

describe('sealedStorage', () => {
  it('keeps the session values readable and the authToken sealed, and opens it again', async () => {
    const value = record({ username: 'demo', authToken: 'sess_secret_token', apps: [] });
    await sealedStorage.setItem('persist:session', value);

    const raw = localStorage.getItem('persist:session') ?? '';
    expect(raw).not.toContain('sess_secret_token');
    expect(JSON.parse(stored()?.username ?? '')).toBe('demo');
    expect(JSON.parse(stored()?.authToken ?? '')).toMatch(/^[0-9a-f]{40,}$/);
    await expect(sealedStorage.getItem('persist:session')).resolves.toBe(value);
  });

  it('stores a signed-out record as it is', async () => {
    const value = record({ username: '', authToken: '' });
    await sealedStorage.setItem('persist:session', value);
    expect(localStorage.getItem('persist:session')).toBe(value);
    await expect(sealedStorage.getItem('persist:session')).resolves.toBe(value);
  });

  it('answers null when nothing is stored', async () => {
    await expect(sealedStorage.getItem('persist:session')).resolves.toBeNull();
  });

  it('opens a tampered token as no token (signed out)', async () => {
    localStorage.setItem('persist:session', record({ username: 'demo', authToken: 'deadbeef' }));
    const opened = JSON.parse((await sealedStorage.getItem('persist:session')) ?? '{}') as Record<
      string,
      string
    >;
    expect(JSON.parse(opened.authToken ?? '')).toBe('');
  });

  it('lands writes in the order they were made (sign-in then sign-out)', async () => {
    const signedIn = sealedStorage.setItem('persist:session', record({ authToken: 'sess_a' }));
    const signedOut = sealedStorage.setItem('persist:session', record({ authToken: '' }));
    await Promise.all([signedIn, signedOut]);
    expect(JSON.parse(stored()?.authToken ?? 'null')).toBe('');
  });

  it('removes the record', async () => {
    await sealedStorage.setItem('persist:session', record({ authToken: 'sess_b' }));
    await sealedStorage.removeItem('persist:session');
    expect(localStorage.getItem('persist:session')).toBeNull();
  });

  it('keeps a stored session when it could not be read (the cipher did not load)', async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../lib/obfuscate', () => {
        throw new Error('Loading chunk cipher failed.');
      });
      const { sealedStorage: fresh } = await import('./sealedStorage');
      const stored = record({ username: 'demo', authToken: 'deadbeefcafe' });
      localStorage.setItem('persist:session', stored);

      await expect(fresh.getItem('persist:session')).rejects.toThrow(
        'Loading chunk cipher failed.',
      );
      // redux-persist then starts signed out and writes that: the stored session stays.
      await fresh.setItem('persist:session', record({ username: '', authToken: '' }));
      expect(localStorage.getItem('persist:session')).toBe(stored);
      jest.dontMock('../lib/obfuscate');
    });
  });
});
