import type { Invoice, InvoiceDetails } from '../../src/api/generated/invoices.gen';
import { pageEnvelope } from '../../src/shared/paging';
import { IPN_LOG } from './apps';
import type { Fixtures } from './types';

export const INVOICE_ADDRESS = '0x8Ba1f109551bD432803012645Ac136ddd64DBA72';
export const PAYMENT_HASH = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';

/** A new 49.90 EUR invoice payable in USDT (BEP20), nothing paid yet. */
export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'inv_3jq8k2m4n6p8r0t2v4x6z8b0d2',
    status: 'new',
    exceptions: [],
    invalid_reason: null,
    mark_reason: null,
    amount: '49.90',
    currency: 'EUR',
    paid: '0.00',
    due: '49.90',
    overpaid: null,
    order_id: 'order-1042',
    description: 'Two mugs',
    buyer_email: null,
    metadata: null,
    redirect_url: null,
    checkout_url: 'https://portal.example.com/pay/inv_3jq8k2m4n6p8r0t2v4x6z8b0d2',
    payment_link_id: null,
    underpayment_tolerance: '0',
    late_window_minutes: 60,
    created_at: '2026-11-01T09:00:00.000Z',
    expires_at: '2026-11-01T09:15:00.000Z',
    updated_at: '2026-11-01T09:00:00.000Z',
    payment_options: [
      {
        method: 'USDT-BEP20',
        chain_id: 56,
        token_contract: '0x55d398326f99059fF775485246999027B3197955',
        address: INVOICE_ADDRESS,
        amount_due: '53.9',
        rate: '0.925925925925925926',
        rate_source: 'peg:USDT/USD+table:EUR/USD',
        rate_at: '2026-11-01T08:59:00.000Z',
        payment_uri: null,
        paid: '0',
        due: '53.9',
        refunded: '0',
      },
    ],
    payments: [],
    refunds: [],
    ...overrides,
  };
}

/** The same invoice paid in part: one pending payment of 21.6 USDT (20.00 EUR). */
export function makePartInvoice(): Invoice {
  const invoice = makeInvoice();
  return {
    ...invoice,
    exceptions: ['paid_partial'],
    paid: '20.00',
    due: '29.90',
    payment_options: invoice.payment_options.map((o) => ({ ...o, paid: '21.6', due: '32.3' })),
    payments: [
      {
        id: 'ipay_7c1e3g5i7k9m1o3q5s7u9w1y3a',
        method: 'USDT-BEP20',
        chain_id: 56,
        tx_hash: PAYMENT_HASH,
        log_index: 0,
        block_number: 1042,
        amount: '21.6',
        value: '20.00',
        confirmations: 3,
        status: 'pending',
        late: false,
        flag: null,
        accepted: false,
        created_at: '2026-11-01T09:03:00.000Z',
      },
    ],
  };
}

export function makeInvoiceDetails(invoice: Invoice = makeInvoice()): InvoiceDetails {
  return {
    invoice,
    timeline: [
      {
        event_id: 'evt_1',
        event: 'invoice.created',
        at: invoice.created_at,
        status: 'new',
        detail: null,
        exceptions: [],
        deliveries: [
          {
            ...IPN_LOG,
            id: 'whd_1',
            event: 'invoice.created',
            unique_id: 'order-1042',
            status: 'delivered',
            http_code: 200,
            attempts: 1,
          },
        ],
      },
    ],
  };
}

export const fixtures: Fixtures = {
  listAppInvoices: {
    status: true,
    data: pageEnvelope(
      [
        makeInvoice(),
        makeInvoice({
          id: 'inv_2settled00000000000000000',
          status: 'settled',
          exceptions: ['paid_over', 'marked'],
          order_id: null,
          amount: '10.00',
          currency: 'USD',
        }),
      ],
      2,
      1,
      10,
      '/api/cryptosafelock/app-invoices/app_1?page=1',
    ),
  },
  getAppInvoice: { status: true, data: makeInvoiceDetails() },
  createAppInvoice: { status: true, msg: 'Invoice created', data: makeInvoice() },
  markAppInvoice: {
    status: true,
    msg: 'Invoice marked settled',
    data: makeInvoice({ status: 'settled', exceptions: ['marked'], mark_reason: 'Paid by card' }),
  },
  acceptAppInvoicePayment: {
    status: true,
    msg: 'Payment accepted',
    data: makeInvoice({ status: 'processing', paid: '49.90', due: '0.00' }),
  },
  cancelAppInvoice: {
    status: true,
    msg: 'Invoice cancelled',
    data: makeInvoice({ status: 'invalid', invalid_reason: 'cancelled' }),
  },
};
