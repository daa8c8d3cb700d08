import { subscriptionsApi } from './generated/subscriptions.gen';

const tagTypes = ['Packages', 'History', 'Balance', 'Wallet', 'Dashboard', 'Subscription'] as const;
const moneyTags = [
  'Packages',
  'History',
  'Balance',
  'Wallet',
  'Dashboard',
  'Subscription',
] as const;

subscriptionsApi.enhanceEndpoints({
  addTagTypes: tagTypes,
  endpoints: {
    listPackages: { providesTags: ['Packages', 'Subscription'] },
    listSubscriptions: { providesTags: ['History'] },
    // A purchase or cancellation changes the plans, the history and the balance.
    purchasePackage: { invalidatesTags: [...moneyTags] },
    cancelSubscription: { invalidatesTags: [...moneyTags] },
  },
});

export {
  useCancelSubscriptionMutation,
  useListPackagesQuery,
  useListSubscriptionsQuery,
  useLazyListSubscriptionsQuery,
  usePurchasePackageMutation,
} from './generated/subscriptions.gen';
export type {
  CurrentSubscription,
  ListSubscriptionsApiArg,
  Package,
  SubscriptionRow,
} from './generated/subscriptions.gen';
