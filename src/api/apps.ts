import { appsApi } from './generated/apps.gen';

export const enhancedAppsApi = appsApi.enhanceEndpoints({
  endpoints: {
    getApps: { providesTags: ['AppList'] },
    getAppDetails: { providesTags: (_result, _error, arg) => [{ type: 'App', id: arg.id }] },
    listTokens: { providesTags: (_result, _error, arg) => [{ type: 'AppKeys', id: arg.appid }] },
    // A new app refreshes the sidebar list, the app cards and the license usage.
    createApp: { invalidatesTags: ['AppList', 'Dashboard', 'Subscription', 'Notifications'] },
    updateApp: {
      invalidatesTags: (_result, _error, arg) => [
        'AppList',
        { type: 'App', id: arg.updateAppRequest.app_id },
      ],
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        if (await succeeded(queryFulfilled)) dispatch(refetchApps());
      },
    },
    // The logo is part of the app: its detail and the list answer it.
    uploadAppLogo: {
      invalidatesTags: (_result, _error, arg) => ['AppList', { type: 'App', id: arg.id }],
    },
    removeAppLogo: {
      invalidatesTags: (_result, _error, arg) => ['AppList', { type: 'App', id: arg.id }],
    },
    // The list names each app's test app once its test mode is open.
    openTestMode: { invalidatesTags: ['AppList'] },
    // Every list of the test app starts again: its detail, invoices, links, refunds and events.
    deleteTestData: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'App', id: arg.id },
        'Invoice',
        'PaymentLink',
        'Refund',
        'Webhook',
      ],
    },
    generateApiKey: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'AppKeys', id: arg.generateApiKeyRequest.app_id },
        'Notifications',
      ],
    },
    revokeToken: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'AppKeys', id: arg.appid },
        'Notifications',
      ],
    },
    updatePermissions: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'AppKeys', id: arg.updatePermissionsRequest.app_id },
      ],
    },
    // A method in use makes an app Ready: the cards and the sidebar show it.
    usePaymentMethod: {
      invalidatesTags: (_result, _error, arg) => [
        'AppList',
        { type: 'App', id: arg.usePaymentMethodRequest.user_app_id },
      ],
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        if (await succeeded(queryFulfilled)) dispatch(refetchApps());
      },
    },
    updatePaymentMethod: {
      invalidatesTags: (_result, _error, arg) => [
        { type: 'App', id: arg.updatePaymentMethodRequest.user_app_id },
      ],
    },
    // The transaction id alone does not name its app: refresh whichever detail is on screen.
    requeueDeposit: { invalidatesTags: ['App'] },
    sendTestDeposit: { invalidatesTags: ['App'] },
    cancelWithdraw: { invalidatesTags: ['App'] },
    requeueWithdraw: { invalidatesTags: ['App'] },
  },
});

/** Whether a mutation succeeded (its failure is toasted by the API feedback middleware). */
function succeeded(queryFulfilled: Promise<unknown>): Promise<boolean> {
  return queryFulfilled.then(
    () => true,
    () => false,
  );
}

/**
 * The sidebar reads the session's apps list, which getApps and createApp answers keep current
 * (sessionSlice). After a write that changes an app's name or status, fetch the list again even
 * when no screen subscribes to getApps.
 */
function refetchApps() {
  return appsApi.endpoints.getApps.initiate(undefined, { subscribe: false, forceRefetch: true });
}

export {
  useCancelWithdrawMutation,
  useCreateAppMutation,
  useDeleteTestDataMutation,
  useFetchBalanceQuery,
  useFundTestWalletMutation,
  useGenerateApiKeyMutation,
  useGetAppDetailsQuery,
  useGetAppsQuery,
  useListTokenPermissionsQuery,
  useListTokensQuery,
  useOpenTestModeMutation,
  useRemoveAppLogoMutation,
  useRequeueDepositMutation,
  useRequeueWithdrawMutation,
  useRevokeTokenMutation,
  useSendTestDepositMutation,
  useUpdateAppMutation,
  useUpdatePaymentMethodMutation,
  useUpdatePermissionsMutation,
  useUploadAppLogoMutation,
  useUsePaymentMethodMutation,
} from './generated/apps.gen';

export type {
  Account,
  ApiKey,
  ApiLog,
  App,
  AppDetails,
  DailyLog,
  GetAppDetailsApiArg,
  IpnLog,
  PaymentMethod,
  ReceiveTransaction,
  SendTransaction,
  TokenPermission,
  UserPaymentMethod,
} from './generated/apps.gen';
