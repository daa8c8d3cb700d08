import { paymentLinksApi } from './generated/paymentLinks.gen';

// An app's payment links (the Invoices tab's Payment links). A new link refreshes the app's
// list; Deactivate refreshes the list and the link on screen. Shoppers' invoices change the
// totals without the merchant: the screens poll (LIVE) as the invoices' do.
export const enhancedPaymentLinksApi = paymentLinksApi.enhanceEndpoints({
  endpoints: {
    listAppPaymentLinks: {
      providesTags: (_result, _error, arg) => [{ type: 'PaymentLink', id: `list:${arg.id}` }],
    },
    getAppPaymentLink: {
      providesTags: (_result, _error, arg) => [{ type: 'PaymentLink', id: arg.linkId }],
    },
    createAppPaymentLink: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'PaymentLink', id: `list:${arg.id}` }],
    },
    deactivateAppPaymentLink: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'PaymentLink', id: `list:${arg.id}` },
        { type: 'PaymentLink', id: arg.linkId },
      ],
    },
  },
});

export {
  useCreateAppPaymentLinkMutation,
  useDeactivateAppPaymentLinkMutation,
} from './generated/paymentLinks.gen';

export type { PaymentLink, PaymentLinkStatus } from './generated/paymentLinks.gen';
