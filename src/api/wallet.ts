import { walletApi } from './generated/wallet.gen';

export const enhancedWalletApi = walletApi.enhanceEndpoints({
  endpoints: {
    getBalance: { providesTags: ['Balance'] },
    getCryptoDeposit: { providesTags: ['Wallet'] },
    // Each sync must reach the server, never the cache.
    syncBalance: {
      keepUnusedDataFor: 0,
      // A new deposit reloads the wallet, the sidebar balance and the dashboard's activity.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }): Promise<void> {
        const result = await queryFulfilled.catch(() => null);
        if (result?.data.is_new) {
          dispatch(enhancedWalletApi.util.invalidateTags(['Wallet', 'Balance', 'Dashboard']));
        }
      },
    },
  },
});

export {
  useGetBalanceQuery,
  useGetCryptoDepositQuery,
  useLazySyncBalanceQuery,
} from './generated/wallet.gen';
export type { WalletDetails, WalletTransaction } from './generated/wallet.gen';
