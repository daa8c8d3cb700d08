import type { App } from '../../src/api/generated/apps.gen';
import type { Fixtures } from './types';

export function makeApp(overrides: Partial<App> = {}): App {
  return {
    id: 'app_1',
    app_name: 'Shop Checkout',
    info: 'Checkout payments for the web shop',
    project_url: 'https://shop.example.com',
    whitelist_ip: null,
    callback_url: null,
    created_at: '2026-11-01T10:30:00Z',
    status: 0,
    ...overrides,
  };
}

export const fixtures = {
  getApps: { status: true, data: [makeApp()] },
} satisfies Fixtures;
