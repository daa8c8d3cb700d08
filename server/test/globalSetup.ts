import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The run's directory of seeded templates (testStore.ts), shared by its test files and workers
// (they inherit the environment), removed by globalTeardown.ts.
export default function globalSetup(): void {
  process.env.TEST_TEMPLATE_DIR = mkdtempSync(path.join(tmpdir(), 'portal-templates-'));
}
