import type { WebhookDelivery } from '../../src/api/webhooks';
import { IPN_LOG } from './apps';
import type { Fixtures } from './types';

export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function makeDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    delivery: IPN_LOG,
    next_attempt_at: null,
    last_error: null,
    attempts_made: [
      {
        attempt: 1,
        at: '2026-11-01T09:00:00Z',
        url: 'https://shop.example.com/hooks',
        outcome: 'http_error',
        status_code: 500,
        error: null,
        duration_ms: 40,
        request_headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_1',
          'webhook-timestamp': '1793523600',
          'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        },
        response_excerpt: 'upstream down',
      },
      {
        attempt: 2,
        at: '2026-11-01T09:00:06Z',
        url: 'https://shop.example.com/hooks',
        outcome: 'delivered',
        status_code: 200,
        error: null,
        duration_ms: 35,
        request_headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_1',
          'webhook-timestamp': '1793523606',
          'webhook-signature': 'v1,3xmHcJzKX2kWJ3S7YwJbBqvL1Vq8m7fJk0w9eU0oCmU=',
        },
        response_excerpt: 'ok',
      },
    ],
    ...overrides,
  };
}

export const fixtures = {
  getWebhookSettings: {
    status: true,
    data: {
      has_secret: true,
      secret_created_at: '2026-11-01T09:00:00Z',
      previous_valid_until: null,
      disabled_at: null,
      disabled_reason: null,
    },
  },
  rotateWebhookSecret: {
    status: true,
    msg: 'Copy the signing secret now; it will not be shown again.',
    secret: WEBHOOK_SECRET,
  },
  switchWebhookOn: { status: true, msg: 'Webhook switched on' },
  sendTestWebhook: {
    status: true,
    msg: 'Test event delivered (HTTP 200)',
    data: makeDelivery({
      delivery: { ...IPN_LOG, id: 'whd_test', event: 'test.ping', unique_id: '' },
    }),
  },
  getWebhookDelivery: { status: true, msg: 'delivered', data: makeDelivery() },
  redeliverWebhook: {
    status: true,
    msg: 'Redelivery delivered (HTTP 200)',
    data: makeDelivery({
      delivery: { ...IPN_LOG, id: 'whd_2', redelivery: true },
    }),
  },
} satisfies Fixtures;
