import { invoicesApi } from './generated/invoices.gen';

// An app's invoices (the Invoices tab). Every change refreshes the app's list and the invoice
// on screen; a mark may credit a settled invoice, which the app detail's figures show.
export const enhancedInvoicesApi = invoicesApi.enhanceEndpoints({
  endpoints: {
    listAppInvoices: {
      providesTags: (_result, _error, arg) => [{ type: 'Invoice', id: `list:${arg.id}` }],
    },
    getAppInvoice: {
      providesTags: (_result, _error, arg) => [{ type: 'Invoice', id: arg.invoiceId }],
    },
    createAppInvoice: {
      invalidatesTags: (_result, _error, arg) => [{ type: 'Invoice', id: `list:${arg.id}` }],
    },
    markAppInvoice: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Invoice', id: `list:${arg.id}` },
        { type: 'Invoice', id: arg.invoiceId },
        { type: 'App', id: arg.id },
        'Dashboard',
      ],
    },
    // An accepted payment may settle the invoice, which credits it.
    acceptAppInvoicePayment: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Invoice', id: `list:${arg.id}` },
        { type: 'Invoice', id: arg.invoiceId },
        { type: 'App', id: arg.id },
        'Dashboard',
      ],
    },
    // A simulated payment reaches the invoice through the watcher: the details poll it in, and
    // asking again at once shows the invoice as the answer left it.
    simulateAppInvoicePayment: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Invoice', id: `list:${arg.id}` },
        { type: 'Invoice', id: arg.invoiceId },
      ],
    },
    confirmAppInvoicePayments: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Invoice', id: `list:${arg.id}` },
        { type: 'Invoice', id: arg.invoiceId },
      ],
    },
    cancelAppInvoice: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'Invoice', id: `list:${arg.id}` },
        { type: 'Invoice', id: arg.invoiceId },
      ],
    },
  },
});

export {
  useAcceptAppInvoicePaymentMutation,
  useConfirmAppInvoicePaymentsMutation,
  useCreateAppInvoiceMutation,
  useGetAppInvoiceQuery,
  useMarkAppInvoiceMutation,
  useSimulateAppInvoicePaymentMutation,
} from './generated/invoices.gen';

export type {
  Invoice,
  InvoiceException,
  InvoiceStatus,
  InvoiceTimelineEntry,
  ListAppInvoicesApiArg,
} from './generated/invoices.gen';
