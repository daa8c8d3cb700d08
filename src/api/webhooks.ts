import { webhooksApi } from './generated/webhooks.gen';

// A test event or a Redeliver adds a row to IPN Logs (in the app detail); a 410 it meets
// switches the webhook off, which Merchant Setting shows.
webhooksApi.enhanceEndpoints({
  endpoints: {
    getWebhookSettings: {
      providesTags: (_result, _error, arg) => [{ type: 'Webhook', id: arg.id }],
    },
    getWebhookDelivery: {
      providesTags: (_result, _error, arg) => [{ type: 'Webhook', id: `delivery:${arg.id}` }],
    },
    rotateWebhookSecret: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Webhook', id: arg.id }],
    },
    switchWebhookOn: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Webhook', id: arg.id }],
    },
    sendTestWebhook: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Webhook', id: arg.id },
        { type: 'App', id: arg.id },
      ],
    },
    redeliverWebhook: {
      invalidatesTags: (_result, _error, arg) => [
        'App',
        'Webhook',
        { type: 'Webhook', id: `delivery:${arg.id}` },
      ],
    },
  },
});

export {
  useGetWebhookDeliveryQuery,
  useGetWebhookSettingsQuery,
  useRedeliverWebhookMutation,
  useRotateWebhookSecretMutation,
  useSendTestWebhookMutation,
  useSwitchWebhookOnMutation,
} from './generated/webhooks.gen';

export type {
  WebhookDelivery,
  WebhookDeliveryResponse,
  WebhookDeliveryStatus,
} from './generated/webhooks.gen';
