import type {
  AccountEvent,
  NotificationsResponse,
} from '../../src/api/generated/notifications.gen';
import type { Fixtures } from './types';

export function makeEvent(overrides: Partial<AccountEvent> = {}): AccountEvent {
  return {
    id: 'evt_1',
    kind: 'sign_in',
    title: 'Account Login',
    text: 'A login to your account from Windows 10 using Chrome, address 203.0.113.9.',
    created_at: '2026-11-15T09:12:45Z',
    read: false,
    ip: '203.0.113.9',
    device: 'Chrome on Windows 10',
    ...overrides,
  };
}

/** A first page holding `events`, with `unread` of the account's events unread. */
export function makeNotifications(
  events: AccountEvent[],
  unread = events.filter((event) => !event.read).length,
): NotificationsResponse {
  return {
    status: true,
    unread,
    data: {
      data: events,
      current_page: 1,
      last_page: 1,
      per_page: 20,
      from: events.length > 0 ? 1 : null,
      to: events.length > 0 ? events.length : null,
      total: events.length,
      first_page_url: '/api/notifications?page=1',
    },
  };
}

// A brand-new account has no events.
export const fixtures = {
  listNotifications: makeNotifications([]),
  markNotificationsRead: { status: true, marked: 0 },
} satisfies Fixtures;
