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
