import type { Fixtures } from './types';

export const fixtures = {
  getBalance: { status: true, data: { payInBalance: 125.5 } },
} satisfies Fixtures;
