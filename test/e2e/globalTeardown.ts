import fs from 'node:fs';
import { TEMPLATE_ENV } from './server';

/** Removes the run's template DATA_DIR (./globalSetup.ts). */
export default function globalTeardown(): void {
  const template = process.env[TEMPLATE_ENV];
  if (template) fs.rmSync(template, { recursive: true, force: true });
}
