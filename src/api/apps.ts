import { appsApi } from './generated/apps.gen';

const tagTypes = ['AppList', 'App', 'AppKeys', 'Dashboard', 'Subscription'] as const;

export const enhancedAppsApi = appsApi.enhanceEndpoints({
  addTagTypes: tagTypes,
  endpoints: {
    getApps: { providesTags: ['AppList'] },
    getAppDetails: { providesTags: (_result, _error, arg) => [{ type: 'App', id: arg.id }] },
    listTokens: { providesTags: (_result, _error, arg) => [{ type: 'AppKeys', id: arg.appid }] },
    listTokenPermissions: { providesTags: [] },
    fetchBalance: { providesTags: [] },
    // A new app refreshes the sidebar list, the app cards and the license usage.
    createApp: { invalidatesTags: ['AppList', 'Dashboard', 'Subscription'] },
    updateApp: { invalidatesTags: ['AppList', 'App'] },
    generateApiKey: { invalidatesTags: ['AppKeys'] },
    revokeToken: { invalidatesTags: ['AppKeys'] },
    updatePermissions: { invalidatesTags: ['AppKeys'] },
    // A method in use makes an app Ready: the cards show it.
    usePaymentMethod: { invalidatesTags: ['App', 'AppList'] },
    updatePaymentMethod: { invalidatesTags: ['App', 'AppList'] },
    requeueDeposit: { invalidatesTags: ['App'] },
    cancelWithdraw: { invalidatesTags: ['App'] },
    requeueWithdraw: { invalidatesTags: ['App'] },
  },
});

export {
  useCancelWithdrawMutation,
  useCreateAppMutation,
  useFetchBalanceQuery,
  useLazyFetchBalanceQuery,
  useGenerateApiKeyMutation,
  useGetAppDetailsQuery,
  useGetAppsQuery,
  useLazyGetAppsQuery,
  useListTokenPermissionsQuery,
  useListTokensQuery,
  useRequeueDepositMutation,
  useRequeueWithdrawMutation,
  useRevokeTokenMutation,
  useUpdateAppMutation,
  useUpdatePaymentMethodMutation,
  useUpdatePermissionsMutation,
  useUsePaymentMethodMutation,
} from './generated/apps.gen';
