import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    listSubscriptions: build.query<ListSubscriptionsApiResponse, ListSubscriptionsApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/subscription-list`,
        params: {
          page: queryArg.page,
        },
      }),
    }),
    listPackages: build.query<ListPackagesApiResponse, ListPackagesApiArg>({
      query: () => ({ url: `/cryptosafelock/packages` }),
    }),
    getPurchaseQuote: build.query<GetPurchaseQuoteApiResponse, GetPurchaseQuoteApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/purchase-quote`,
        params: {
          package_id: queryArg.packageId,
        },
      }),
    }),
    purchasePackage: build.mutation<PurchasePackageApiResponse, PurchasePackageApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/purchase`,
        method: 'POST',
        body: queryArg.purchaseRequest,
        headers: {
          'Idempotency-Key': queryArg['Idempotency-Key'],
        },
      }),
    }),
    cancelSubscription: build.mutation<CancelSubscriptionApiResponse, CancelSubscriptionApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/cancel-subscription/${encodeURIComponent(String(queryArg.id))}`,
        method: 'GET',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as subscriptionsApi };
export type ListSubscriptionsApiResponse =
  /** status 200 One page of purchases. */ SubscriptionListResponse;
export type ListSubscriptionsApiArg = {
  /** The page to return, at most 1000000; 1 when absent. A page past the last one has no rows. */
  page?: number;
};
export type ListPackagesApiResponse =
  /** status 200 Packages and the current subscription. */ PackageListResponse;
export type ListPackagesApiArg = void;
export type GetPurchaseQuoteApiResponse =
  /** status 200 The price of buying the package now. */ PurchaseQuoteResponse;
export type GetPurchaseQuoteApiArg = {
  /** The package to price. */
  packageId: string;
};
export type PurchasePackageApiResponse = /** status 200 The package is active. */ MessageResponse;
export type PurchasePackageApiArg = {
  /** A key the client makes up per intended action (e.g. a UUID) and sends again with each
    retry of it. Per account, for 24 hours: a completed request's answer is replayed to its
    retries; the same key with a different body is a 422; a retry while the first request
    is still running is a 409. A refused request keeps no answer, so its retry runs again.
     */
  'Idempotency-Key'?: string;
  purchaseRequest: PurchaseRequest;
};
export type CancelSubscriptionApiResponse =
  /** status 200 The subscription is canceled. */ MessageResponse;
export type CancelSubscriptionApiArg = {
  /** The subscription to cancel (`CurrentSubscription.id`). */
  id: Id;
};
export type Status = boolean | (0 | 1) | 'success';
export type SubscriptionRow = {
  /** The subscription's id. */
  id: string;
  /** The package's name. */
  package: string;
  /** The period bought, in days (the invoice's duration). */
  duration_days: number;
  /** The package's price when bought, in USDT (invoice currency USD). */
  price: number;
  /** What the wallet paid: the price less the credit of the plan this one replaced (never below 0). */
  paid: number;
  /** How this plan ended before its end date: replaced by an upgrade, a downgrade or a plan of the same price (its status is then 0 Expired); null when it was not replaced. */
  replaced_by:
    ('upgrade' | 'downgrade' | 'switch' | null) | ('upgrade' | 'downgrade' | 'switch' | null);
  /** When replaced, the value of its unused whole days credited to the new plan; 0 otherwise. */
  credit: number;
  /** The invoice number. */
  invoice_id: string;
  /** 0 Expired, 1 Active, 2 Canceled. */
  status: 0 | 1 | 2;
  /** When it was bought. */
  created_at: string;
  /** The buyer's name. */
  name: string;
  /** The buyer's username. */
  username: string;
};
export type SubscriptionPage = {
  /** The rows of this page, newest first. */
  data: SubscriptionRow[];
  /** The number of this page. */
  current_page: number;
  /** The number of the last page (1 when the list is empty). */
  last_page: number;
  /** The number of rows per page. */
  per_page: number;
  /** Position of this page's first row in the whole list (from 1); null when empty. */
  from: number | null;
  /** Position of this page's last row in the whole list; null when the page is empty. */
  to: number | null;
  /** The number of rows in the whole list. */
  total: number;
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/subscription-list?page=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type SubscriptionListResponse = {
  /** Success flag (true). */
  status: Status;
  /** The requested page. */
  data: SubscriptionPage;
};
export type MessageCode = {
  /** `<group>.<name>`, e.g. `auth.badCredentials`; never reused for other words. */
  code: string;
  values?: string[];
};
export type MessageCodes = {
  msg?: MessageCode;
  errors?: {
    [key: string]: (MessageCode | null)[];
  };
};
export type InvoiceStatus = 'new' | 'processing' | 'settled' | 'expired' | 'invalid';
export type ErrorEnvelope = {
  /** Failure flag; the reference server always sends false. */
  status: Status;
  codes?: MessageCodes;
  /** A human-readable summary of the failure. */
  msg: string;
  /** Messages per request field (field name to its messages); an empty object when the failure is not tied to a field. */
  errors: {
    [key: string]: string[];
  };
  /** A refusal's machine-readable reason, where the gateway has one (the invoice calls): `no_package`, `tnx_limit`, `daily_tnx_limit` (402), `invoice_state` (409), `rate_unavailable` (503). Absent elsewhere. */
  code?: string;
  /** With `invoice_state`, the invoice's status now. */
  invoice_status?: InvoiceStatus;
  /** With `rate_unavailable`, the pair no source has a fresh rate for, e.g. `EUR/USD`. */
  pair?: string;
};
export type Package = {
  /** The package's id. */
  id: string;
  /** The package's name. */
  name: string;
  /** Price in USDT for one period. */
  price: number;
  /** Length of one period in days. */
  duration_days: number;
  /** Fee charged per transaction, in percent (1.5 means 1.5 %). */
  fees: number;
  /** Transactions allowed over the whole period (the licence's service limit). */
  tnx_limit: number;
  /** Transactions allowed per day. */
  daily_tnx_limit: number;
  /** Number of apps the account may have. */
  app_count: number;
};
export type CurrentSubscription = {
  /** The subscription's id (what `cancelSubscription` takes). */
  id: string;
  /** The subscribed package's id. */
  package_id: string;
  /** Price paid, in USDT. */
  price: number;
  /** 1 active; 2 canceled (access continues until `end_date`). */
  status: 1 | 2;
  /** When the subscription ends. */
  end_date: string;
};
export type PackageListResponse = {
  /** Success flag (true). */
  status: Status;
  /** All packages, cheapest first. */
  data: Package[];
  /** The latest subscription that has not ended (active or canceled); null when none. */
  current_subscription: CurrentSubscription | null;
};
export type PurchaseQuote = {
  /** The package priced. */
  package_id: string;
  /** new without a plan in force or when it is canceled; otherwise by price against the active plan: upgrade (dearer), downgrade (cheaper, needs `remarks`), switch (same price). */
  kind: 'new' | 'upgrade' | 'downgrade' | 'switch';
  /** The package's price. */
  price: number;
  /** The value of the replaced plan's unused whole days; 0 without one. */
  credit: number;
  /** The replaced plan's whole days left. */
  unused_days: number;
  /** The name of the plan in force that the purchase replaces; null without one. */
  replaced_package: string | null;
  /** What the wallet pays now, the price less the credit and never below 0. */
  amount_due: number;
  /** The credit beyond the price, paid back to the wallet. */
  refund: number;
  /** The wallet balance now. */
  balance: number;
  /** Whether the balance covers the amount due. */
  payable: boolean;
};
export type PurchaseQuoteResponse = {
  /** Always true on success. */
  status: true;
  data: PurchaseQuote;
};
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
};
export type PurchaseRequest = {
  /** The package's id ('Please select your plan first'). */
  package_id: string;
  /** Reason for a downgrade; required when the package is cheaper than the active one. */
  remarks?: string;
  /** The amount due the merchant agreed to (`PurchaseQuote.amount_due`). When given and the purchase would now cost something else, it is refused with 409 and nothing is charged. */
  amount_due?: number;
};
export type Id = string;
export const {
  useListSubscriptionsQuery,
  useLazyListSubscriptionsQuery,
  useListPackagesQuery,
  useLazyListPackagesQuery,
  useGetPurchaseQuoteQuery,
  useLazyGetPurchaseQuoteQuery,
  usePurchasePackageMutation,
  useCancelSubscriptionMutation,
} = injectedRtkApi;
