import type { PaymentLink, PaymentLinkDetails } from '../../src/api/generated/paymentLinks.gen';
import { pageEnvelope } from '../../src/shared/paging';
import { makeInvoice } from './invoices';
import type { Fixtures } from './types';

export const LINK_ID = 'plink_3jq8k2m4n6p8r0t2v4x6z8b0d2';
export const LINK_URL = 'https://portal.example.com/l/k2m4n6p8r0t2v4x6';

/** An active donation link: the shopper chooses 5 to 500 USD; one of its invoices settled. */
export function makePaymentLink(overrides: Partial<PaymentLink> = {}): PaymentLink {
  return {
    id: LINK_ID,
    url: LINK_URL,
    title: 'Donation',
    description: 'Thank you for your support',
    amount: null,
    amount_min: '5',
    amount_max: '500',
    currency: 'USD',
    methods: null,
    redirect_url: null,
    expires_at: null,
    max_uses: null,
    status: 'active',
    created_at: '2026-11-01T09:00:00.000Z',
    updated_at: '2026-11-01T09:00:00.000Z',
    totals: { invoices: 2, paid_invoices: 1, amount_paid: '25.00', uses: 1 },
    ...overrides,
  };
}

export function makePaymentLinkDetails(link: PaymentLink = makePaymentLink()): PaymentLinkDetails {
  const invoices = [
    makeInvoice({
      id: 'inv_link2new000000000000000',
      amount: '10',
      currency: 'USD',
      order_id: null,
      description: link.title,
      payment_link_id: link.id,
    }),
    makeInvoice({
      id: 'inv_link1settled0000000000',
      status: 'settled',
      amount: '25',
      currency: 'USD',
      order_id: null,
      description: link.title,
      payment_link_id: link.id,
    }),
  ];
  return {
    link,
    invoices: pageEnvelope(
      invoices,
      2,
      1,
      10,
      `/api/cryptosafelock/app-payment-links/app_1/${link.id}?page=1`,
    ),
  };
}

export const fixtures: Fixtures = {
  listAppPaymentLinks: {
    status: true,
    data: pageEnvelope(
      [
        makePaymentLink(),
        makePaymentLink({
          id: 'plink_2mug00000000000000000000',
          url: 'https://portal.example.com/l/mugmugmugmugmug0',
          title: 'Blue mug',
          description: null,
          amount: '25.00',
          amount_min: null,
          amount_max: null,
          currency: 'EUR',
          max_uses: 100,
          status: 'used_up',
          totals: { invoices: 100, paid_invoices: 98, amount_paid: '2450.00', uses: 100 },
        }),
      ],
      2,
      1,
      10,
      '/api/cryptosafelock/app-payment-links/app_1?page=1',
    ),
  },
  getAppPaymentLink: { status: true, data: makePaymentLinkDetails() },
  createAppPaymentLink: { status: true, msg: 'Payment link created', data: makePaymentLink() },
  deactivateAppPaymentLink: {
    status: true,
    msg: 'Payment link deactivated',
    data: makePaymentLink({ status: 'deactivated' }),
  },
};
