import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dropTemplate } from './testStore';

// Drops the run's seeded templates (their PostgreSQL databases too) and their directory.
export default async function globalTeardown(): Promise<void> {
  const root = process.env.TEST_TEMPLATE_DIR;
  if (!root) return;
  for (const name of readdirSync(root)) await dropTemplate(path.join(root, name));
  rmSync(root, { recursive: true, force: true });
}
