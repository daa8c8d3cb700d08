import { walletApi } from './generated/wallet.gen';

export const enhancedWalletApi = walletApi.enhanceEndpoints({
  addTagTypes: ['Balance', 'Wallet'],
  endpoints: {
    getBalance: { providesTags: ['Balance'] },
    getCryptoDeposit: { providesTags: ['Wallet'] },
    // Each sync must reach the server, never the cache.
    syncBalance: { providesTags: [], keepUnusedDataFor: 0 },
  },
});

export {
  useGetBalanceQuery,
  useGetCryptoDepositQuery,
  useLazySyncBalanceQuery,
} from './generated/wallet.gen';
