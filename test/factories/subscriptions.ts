import type {
  CurrentSubscription,
  Package,
  PurchaseQuote,
  SubscriptionPage,
  SubscriptionRow,
} from '../../src/api/generated/subscriptions.gen';
import type { Fixtures } from './types';

export const STARTER: Package = {
  id: 'pkg_starter',
  name: 'Starter',
  price: 19,
  duration_days: 30,
  fees: 1,
  tnx_limit: 1000,
  daily_tnx_limit: 100,
  app_count: 1,
};
export const BUSINESS: Package = {
  id: 'pkg_business',
  name: 'Business',
  price: 49,
  duration_days: 30,
  fees: 0.75,
  tnx_limit: 10000,
  daily_tnx_limit: 1000,
  app_count: 5,
};
export const ENTERPRISE: Package = {
  id: 'pkg_enterprise',
  name: 'Enterprise',
  price: 149,
  duration_days: 30,
  fees: 0.5,
  tnx_limit: 100000,
  daily_tnx_limit: 10000,
  app_count: 20,
};
export const PACKAGES = [STARTER, BUSINESS, ENTERPRISE];

export function makeCurrent(overrides: Partial<CurrentSubscription> = {}): CurrentSubscription {
  return {
    id: 'sub_current',
    package_id: BUSINESS.id,
    price: BUSINESS.price,
    status: 1,
    end_date: '2026-12-15T10:30:00Z',
    ...overrides,
  };
}

export function makeSubscriptionRow(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id: 'sub_1',
    package: 'Business',
    duration_days: 30,
    price: 49,
    paid: 49,
    invoice_id: 'INV-2026-000001',
    status: 1,
    replaced_by: null,
    credit: 0,
    created_at: '2026-11-15T10:30:00Z',
    name: 'Demo Merchant',
    username: 'demo',
    ...overrides,
  };
}

/** Page `page` of a history of `total` rows, 10 per page; rows numbered from the newest. */
export function makeSubscriptionPage(total: number, page = 1): SubscriptionPage {
  const perPage = 10;
  const from = (page - 1) * perPage + 1;
  const count = Math.max(0, Math.min(perPage, total - from + 1));
  return {
    data: Array.from({ length: count }, (_, i) => {
      const n = total - (from - 1 + i);
      return makeSubscriptionRow({
        id: `sub_${n}`,
        invoice_id: `INV-2026-${String(n).padStart(6, '0')}`,
        status: n === total ? 1 : 0,
      });
    }),
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    from: count > 0 ? from : null,
    to: count > 0 ? from + count - 1 : null,
    total,
    first_page_url: '/api/cryptosafelock/subscription-list?page=1',
  };
}

/** The price of buying `plan` with no plan in force and a wallet that covers it. */
export function makeQuote(plan: Package, overrides: Partial<PurchaseQuote> = {}): PurchaseQuote {
  return {
    package_id: plan.id,
    kind: 'new',
    price: plan.price,
    credit: 0,
    unused_days: 0,
    replaced_package: null,
    amount_due: plan.price,
    refund: 0,
    balance: 500,
    payable: true,
    ...overrides,
  };
}

export const fixtures = {
  listPackages: { status: true, data: PACKAGES, current_subscription: makeCurrent() },
  listSubscriptions: { status: true, data: makeSubscriptionPage(1) },
  purchasePackage: { status: true, msg: 'Package purchased successfully' },
  cancelSubscription: { status: true, msg: 'Subscription canceled successfully' },
} satisfies Fixtures;
