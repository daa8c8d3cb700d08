import { createTestApp, type TestApp, type TestAppOptions } from './testApp';

/** Runs `body` on an app of its own (another configuration than the file's), closed after. */
export async function withTestApp(
  options: TestAppOptions,
  body: (t: TestApp) => Promise<void>,
): Promise<void> {
  const t = await createTestApp(options);
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

/**
 * One app for the enclosing describe block (or file): created before its first test, closed after
 * its last. Use the returned object as the app itself, inside hooks and tests only.
 */
export function testAppPerBlock(options: TestAppOptions = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!current) throw new Error('The test app exists only inside hooks and tests.');
      return Reflect.get(current, key);
    },
  });
}
