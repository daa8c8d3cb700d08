import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBalance: build.query<GetBalanceApiResponse, GetBalanceApiArg>({
      query: () => ({ url: `/balance` }),
    }),
    getCryptoDeposit: build.query<GetCryptoDepositApiResponse, GetCryptoDepositApiArg>({
      query: () => ({ url: `/crypto-deposit` }),
    }),
    syncBalance: build.query<SyncBalanceApiResponse, SyncBalanceApiArg>({
      query: () => ({ url: `/balance-sync` }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as walletApi };
export type GetBalanceApiResponse = /** status 200 The balance. */ BalanceResponse;
export type GetBalanceApiArg = void;
export type GetCryptoDepositApiResponse =
  /** status 200 Wallet details and recent deposits. */ CryptoDepositResponse;
export type GetCryptoDepositApiArg = void;
export type SyncBalanceApiResponse =
  /** status 200 The balance after the sync. */ BalanceSyncResponse;
export type SyncBalanceApiArg = void;
export type Status = boolean | (0 | 1) | 'success';
export type WalletBalance = {
  /** The wallet balance in USDT. */
  payInBalance: number;
};
export type BalanceResponse = {
  /** Success flag (true). */
  status: Status;
  /** The balance. */
  data: WalletBalance;
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
export type WalletDetails = {
  /** The deposit address on BNB Smart Chain (0x plus 40 hex characters). */
  address: string;
  /** The network deposits must use, "BEP20" (BNB Smart Chain); the coin is USDT. */
  network: string;
  /** The wallet balance in USDT. */
  balance: number;
  /** Number of credited deposits. */
  totalDepositCount: number;
  /** Sum of credited deposits in USDT. */
  totalDepositAmount: number;
  /** Subscription amount due in USDT: what is still to deposit to renew the active plan, its package price less the balance, never below 0 (0 without an active plan). */
  amountToPay: number;
};
export type WalletTransaction = {
  /** The chain transaction hash (links to the BNB Smart Chain explorer). */
  tnx: string;
  /** Amount in USDT. */
  amount: number;
  /** 1 Confirmed (credited); 0 Pending. */
  status: 0 | 1;
  /** When the deposit was made (the time of its block on chain). */
  created_at: string;
};
export type WalletTransactionList = {
  /** At most 20 deposits, newest first. */
  data: WalletTransaction[];
};
export type CryptoDepositResponse = {
  /** Success flag (true). */
  status: Status;
  /** The wallet. */
  details: WalletDetails;
  /** The recent deposits (in `data.data`). */
  data: WalletTransactionList;
};
export type BalanceSyncResponse = {
  /** Success flag (true). */
  status: Status;
  /** The wallet balance in USDT after the sync. */
  balance: number;
  /** true when this sync found at least one new deposit: credited now, or seen on chain and waiting for confirmations (listed as Pending until a later sync credits it). */
  is_new: boolean;
  codes?: MessageCodes;
  /** A message to show ('New Deposit Found !!' when `is_new`). */
  msg: string;
};
export const {
  useGetBalanceQuery,
  useLazyGetBalanceQuery,
  useGetCryptoDepositQuery,
  useLazyGetCryptoDepositQuery,
  useSyncBalanceQuery,
  useLazySyncBalanceQuery,
} = injectedRtkApi;
