import { subscriptionsApi } from './generated/subscriptions.gen';

const moneyTags = [
  'Packages',
  'History',
  'Balance',
  'Wallet',
  'Dashboard',
  'Subscription',
] as const;

export const enhancedSubscriptionsApi = subscriptionsApi.enhanceEndpoints({
  endpoints: {
    listPackages: { providesTags: ['Packages', 'Subscription'] },
    listSubscriptions: { providesTags: ['History'] },
    // The credit follows the plan in force, the payable flag the balance.
    getPurchaseQuote: { providesTags: ['Subscription', 'Balance'] },
    // A purchase or cancellation changes the plans, the history and the balance.
    purchasePackage: { invalidatesTags: [...moneyTags] },
    cancelSubscription: { invalidatesTags: [...moneyTags] },
  },
});

export {
  useCancelSubscriptionMutation,
  useGetPurchaseQuoteQuery,
  useListPackagesQuery,
  usePurchasePackageMutation,
} from './generated/subscriptions.gen';
export type {
  CurrentSubscription,
  ListSubscriptionsApiArg,
  Package,
  PurchaseQuote,
  SubscriptionRow,
} from './generated/subscriptions.gen';
