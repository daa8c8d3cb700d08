import { refundsApi } from './generated/refunds.gen';

// An app's refunds (the Invoices tab's Refunds, and an invoice's on its details). Every list of
// the app's, whatever its invoice filter, shares one tag: a refund asked or cancelled refreshes
// them all, and so does one re-initiated. The shopper's claim and the signer move refunds without the merchant: the screens
// poll (LIVE) as the invoices' do.
export const enhancedRefundsApi = refundsApi.enhanceEndpoints({
  endpoints: {
    listAppRefunds: {
      providesTags: (_result, _error, arg) => [{ type: 'Refund', id: `list:${arg.id}` }],
    },
    createAppRefund: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Refund', id: `list:${arg.id}` }],
    },
    cancelAppRefund: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Refund', id: `list:${arg.id}` }],
    },
    reinitiateAppRefund: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Refund', id: `list:${arg.id}` }],
    },
  },
});

export {
  useCancelAppRefundMutation,
  useCreateAppRefundMutation,
  usePreviewAppRefundMutation,
  useReinitiateAppRefundMutation,
} from './generated/refunds.gen';

export type {
  CreateRefundRequest,
  Refund,
  RefundPreview,
  RefundStatus,
} from './generated/refunds.gen';
