import type { Invoice } from '../../src/api/generated/invoices.gen';
import type { Refund, RefundPreview } from '../../src/api/generated/refunds.gen';
import { pageEnvelope } from '../../src/shared/paging';
import { makeInvoice, PAYMENT_HASH } from './invoices';
import type { Fixtures } from './types';

export const REFUND_ID = 'rf_3jq8k2m4n6p8r0t2v4x6z8b0d2';
export const CLAIM_URL = 'https://portal.example.com/refund/k2m4n6p8r0t2v4x6z8b0d2f4h6j8k2m4';
export const SHOPPER_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const WALLET_ADDRESS = '0x1111111111111111111111111111111111111111';
export const REFUND_HASH = '0x7d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d';

/** The 49.90 EUR invoice settled on 60 USDT (BEP20): 6.1 USDT over. */
export function makeOverpaidInvoice(overrides: Partial<Invoice> = {}): Invoice {
  const invoice = makeInvoice();
  return {
    ...invoice,
    status: 'settled',
    exceptions: ['paid_over'],
    paid: '55.55',
    due: '0.00',
    overpaid: { value: '5.65', method: 'USDT-BEP20', amount: '6.1' },
    payment_options: invoice.payment_options.map((o) => ({ ...o, paid: '60', due: '0' })),
    payments: [
      {
        id: 'ipay_7c1e3g5i7k9m1o3q5s7u9w1y3a',
        method: 'USDT-BEP20',
        chain_id: 56,
        tx_hash: PAYMENT_HASH,
        log_index: 0,
        block_number: 1042,
        amount: '60',
        value: '55.55',
        confirmations: 15,
        status: 'confirmed',
        late: false,
        flag: null,
        accepted: false,
        created_at: '2026-11-01T09:03:00.000Z',
      },
    ],
    ...overrides,
  };
}

/** The overpaid part of that invoice, waiting for the shopper's claim. */
export function makeRefund(overrides: Partial<Refund> = {}): Refund {
  return {
    id: REFUND_ID,
    invoice_id: makeInvoice().id,
    status: 'pending_claim',
    method: 'USDT-BEP20',
    chain_id: 56,
    amount: '6.1',
    amount_kind: 'overpaid',
    requested_amount: null,
    requested_currency: null,
    rate_kind: 'original',
    rate: null,
    reason: 'Paid too much',
    from_address: WALLET_ADDRESS,
    address: null,
    address_source: null,
    claim_url: CLAIM_URL,
    claim_expires_at: '2026-12-01T10:00:00.000Z',
    claimed_at: null,
    tx_hash: null,
    waiting_message: null,
    failure_reason: null,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A completed refund the shopper claimed, paid on chain. */
export function makeCompletedRefund(): Refund {
  return makeRefund({
    id: 'rf_2done000000000000000000000',
    status: 'completed',
    amount: '10',
    amount_kind: 'custom',
    requested_amount: '10',
    requested_currency: 'USDT',
    address: SHOPPER_ADDRESS,
    address_source: 'shopper',
    claim_url: null,
    claimed_at: '2026-10-20T12:00:00.000Z',
    tx_hash: REFUND_HASH,
    created_at: '2026-10-20T11:00:00.000Z',
  });
}

export function makeRefundPreview(overrides: Partial<RefundPreview> = {}): RefundPreview {
  return {
    method: 'USDT-BEP20',
    chain_id: 56,
    asset: 'USDT',
    amount: '6.1',
    rate: null,
    rate_kind: 'original',
    refundable: '60',
    ...overrides,
  };
}

export const fixtures: Fixtures = {
  listAppRefunds: {
    status: true,
    data: pageEnvelope(
      [makeRefund(), makeCompletedRefund()],
      2,
      1,
      10,
      '/api/cryptosafelock/app-refunds/app_1?page=1',
    ),
  },
  previewAppRefund: { status: true, data: makeRefundPreview() },
  createAppRefund: { status: true, msg: 'Refund created', data: makeRefund() },
  cancelAppRefund: {
    status: true,
    msg: 'Refund cancelled',
    data: makeRefund({ status: 'cancelled', claim_url: null }),
  },
  reinitiateAppRefund: {
    status: true,
    msg: 'Refund re-initiated',
    data: makeRefund({ status: 'queued', claim_url: null }),
  },
};
