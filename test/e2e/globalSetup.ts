import { makeTemplate, TEMPLATE_ENV } from './server';

/** Makes the DATA_DIR the run's servers start from; the workers inherit where it is. */
export default async function globalSetup(): Promise<void> {
  process.env[TEMPLATE_ENV] = await makeTemplate();
}
