import { baseApi as api } from '../baseApi';
const injectedRtkApi = api.injectEndpoints({
  endpoints: (build) => ({
    getApps: build.query<GetAppsApiResponse, GetAppsApiArg>({
      query: () => ({ url: `/cryptosafelock/get-apps` }),
    }),
    createApp: build.mutation<CreateAppApiResponse, CreateAppApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/create-app`,
        method: 'POST',
        body: queryArg.createAppRequest,
      }),
    }),
    updateApp: build.mutation<UpdateAppApiResponse, UpdateAppApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/update-app`,
        method: 'POST',
        body: queryArg.updateAppRequest,
      }),
    }),
    uploadAppLogo: build.mutation<UploadAppLogoApiResponse, UploadAppLogoApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-logo/${encodeURIComponent(String(queryArg.id))}`,
        method: 'POST',
        body: queryArg.uploadAppLogoRequest,
      }),
    }),
    removeAppLogo: build.mutation<RemoveAppLogoApiResponse, RemoveAppLogoApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-logo/${encodeURIComponent(String(queryArg.id))}/remove`,
        method: 'POST',
      }),
    }),
    openTestMode: build.mutation<OpenTestModeApiResponse, OpenTestModeApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-test-mode/${encodeURIComponent(String(queryArg.id))}`,
        method: 'POST',
      }),
    }),
    deleteTestData: build.mutation<DeleteTestDataApiResponse, DeleteTestDataApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-test-mode/${encodeURIComponent(String(queryArg.id))}/data`,
        method: 'DELETE',
      }),
    }),
    fundTestWallet: build.mutation<FundTestWalletApiResponse, FundTestWalletApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-test-mode/${encodeURIComponent(String(queryArg.id))}/fund-wallet`,
        method: 'POST',
        body: queryArg.fundTestWalletRequest,
      }),
    }),
    getAppDetails: build.query<GetAppDetailsApiResponse, GetAppDetailsApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/app-details/${encodeURIComponent(String(queryArg.id))}`,
        params: {
          receive: queryArg.receive,
          send: queryArg.send,
          accounts: queryArg.accounts,
          api_logs: queryArg.apiLogs,
          callback_data: queryArg.callbackData,
          daily_logs: queryArg.dailyLogs,
        },
      }),
    }),
    listTokens: build.query<ListTokensApiResponse, ListTokensApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/token-list/${encodeURIComponent(String(queryArg.appid))}`,
      }),
    }),
    listTokenPermissions: build.query<ListTokenPermissionsApiResponse, ListTokenPermissionsApiArg>({
      query: () => ({ url: `/cryptosafelock/available-token-permission` }),
    }),
    generateApiKey: build.mutation<GenerateApiKeyApiResponse, GenerateApiKeyApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/generate-apikey`,
        method: 'POST',
        body: queryArg.generateApiKeyRequest,
      }),
    }),
    revokeToken: build.mutation<RevokeTokenApiResponse, RevokeTokenApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/revoke-token/${encodeURIComponent(String(queryArg.tokenId))}/${encodeURIComponent(String(queryArg.appid))}`,
        method: 'GET',
      }),
    }),
    updatePermissions: build.mutation<UpdatePermissionsApiResponse, UpdatePermissionsApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/update-permissions/${encodeURIComponent(String(queryArg.tokenId))}`,
        method: 'POST',
        body: queryArg.updatePermissionsRequest,
      }),
    }),
    fetchBalance: build.query<FetchBalanceApiResponse, FetchBalanceApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/fetch-balance/${encodeURIComponent(String(queryArg.paymentMethodId))}/${encodeURIComponent(String(queryArg.gasAddress))}/${encodeURIComponent(String(queryArg.appDataId))}`,
      }),
    }),
    updatePaymentMethod: build.mutation<UpdatePaymentMethodApiResponse, UpdatePaymentMethodApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/update-payment-method`,
        method: 'POST',
        body: queryArg.updatePaymentMethodRequest,
      }),
    }),
    usePaymentMethod: build.mutation<UsePaymentMethodApiResponse, UsePaymentMethodApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/use-payment-method`,
        method: 'POST',
        body: queryArg.usePaymentMethodRequest,
      }),
    }),
    requeueDeposit: build.mutation<RequeueDepositApiResponse, RequeueDepositApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/deposit-requeue/${encodeURIComponent(String(queryArg.id))}`,
        method: 'GET',
      }),
    }),
    sendTestDeposit: build.mutation<SendTestDepositApiResponse, SendTestDepositApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/test-deposit`,
        method: 'POST',
        body: queryArg.testDepositRequest,
      }),
    }),
    cancelWithdraw: build.mutation<CancelWithdrawApiResponse, CancelWithdrawApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/withdraw/${encodeURIComponent(String(queryArg.id))}/cancel`,
        method: 'GET',
      }),
    }),
    requeueWithdraw: build.mutation<RequeueWithdrawApiResponse, RequeueWithdrawApiArg>({
      query: (queryArg) => ({
        url: `/cryptosafelock/withdraw/${encodeURIComponent(String(queryArg.id))}/requeue`,
        method: 'GET',
      }),
    }),
  }),
  overrideExisting: false,
});
export { injectedRtkApi as appsApi };
export type GetAppsApiResponse = /** status 200 The apps. */ AppListResponse;
export type GetAppsApiArg = void;
export type CreateAppApiResponse = /** status 200 The app is created. */ CreateAppResponse;
export type CreateAppApiArg = {
  createAppRequest: CreateAppRequest;
};
export type UpdateAppApiResponse = /** status 200 The app is updated. */ UpdateAppResponse;
export type UpdateAppApiArg = {
  updateAppRequest: UpdateAppRequest;
};
export type UploadAppLogoApiResponse = /** status 200 The logo is replaced. */ UpdateAppResponse;
export type UploadAppLogoApiArg = {
  /** The app (`App.id`). */
  id: Id;
  uploadAppLogoRequest: UploadAppLogoRequest;
};
export type RemoveAppLogoApiResponse = /** status 200 The logo is removed. */ UpdateAppResponse;
export type RemoveAppLogoApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type OpenTestModeApiResponse = /** status 200 The test app. */ OpenTestModeResponse;
export type OpenTestModeApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type DeleteTestDataApiResponse =
  /** status 200 The test data is deleted; how many of each were. */ DeleteTestDataResponse;
export type DeleteTestDataApiArg = {
  /** The app (`App.id`). */
  id: Id;
};
export type FundTestWalletApiResponse =
  /** status 200 The funds are on the local chain. */ FundTestWalletResponse;
export type FundTestWalletApiArg = {
  /** The app (`App.id`). */
  id: Id;
  fundTestWalletRequest: FundTestWalletRequest;
};
export type GetAppDetailsApiResponse = /** status 200 The app detail. */ AppDetailsResponse;
export type GetAppDetailsApiArg = {
  /** The app (`App.id`). */
  id: Id;
  /** Page of the `receive` list (received deposits) to return, at most 1000000; 1 when absent. */
  receive?: number;
  /** Page of the `send` list (withdrawals) to return, at most 1000000; 1 when absent. */
  send?: number;
  /** Page of the `accounts` list (generated deposit addresses) to return, at most 1000000; 1 when absent. */
  accounts?: number;
  /** Page of the `api_logs` list to return, at most 1000000; 1 when absent. */
  apiLogs?: number;
  /** Page of the `callback_data` list (IPN logs) to return, at most 1000000; 1 when absent. */
  callbackData?: number;
  /** Page of the `daily_logs` list to return, at most 1000000; 1 when absent. */
  dailyLogs?: number;
};
export type ListTokensApiResponse = /** status 200 The app's API keys. */ ApiKeyListResponse;
export type ListTokensApiArg = {
  /** The app the API keys belong to (`App.id`). */
  appid: Id;
};
export type ListTokenPermissionsApiResponse =
  /** status 200 The available permissions. */ TokenPermissionListResponse;
export type ListTokenPermissionsApiArg = void;
export type GenerateApiKeyApiResponse =
  /** status 200 The key is created; its secret is shown once. */ GenerateApiKeyResponse;
export type GenerateApiKeyApiArg = {
  generateApiKeyRequest: GenerateApiKeyRequest;
};
export type RevokeTokenApiResponse = /** status 200 The key is revoked. */ MessageResponse;
export type RevokeTokenApiArg = {
  /** The API key (`ApiKey.id`). */
  tokenId: Id;
  /** The app the API keys belong to (`App.id`). */
  appid: Id;
};
export type UpdatePermissionsApiResponse =
  /** status 200 The permissions are replaced. */ MessageResponse;
export type UpdatePermissionsApiArg = {
  /** The API key (`ApiKey.id`). */
  tokenId: Id;
  updatePermissionsRequest: UpdatePermissionsRequest;
};
export type FetchBalanceApiResponse = /** status 200 The balances. */ FetchBalanceResponse;
export type FetchBalanceApiArg = {
  /** The payment method (`PaymentMethod.id`). */
  paymentMethodId: Id;
  /** The operational wallet address (`UserPaymentMethod.gas_address`): 0x plus 40 hex characters on EVM networks, T plus 33 base58 characters on Tron-style networks. */
  gasAddress: string;
  /** The app that uses the payment method (`App.id`). */
  appDataId: Id;
};
export type UpdatePaymentMethodApiResponse =
  /** status 200 The setting is saved. */ MessageResponse;
export type UpdatePaymentMethodApiArg = {
  updatePaymentMethodRequest: UpdatePaymentMethodRequest;
};
export type UsePaymentMethodApiResponse = /** status 200 The method is in use. */ MessageResponse;
export type UsePaymentMethodApiArg = {
  usePaymentMethodRequest: UsePaymentMethodRequest;
};
export type RequeueDepositApiResponse =
  /** status 200 The deposit is queued again. */ MessageResponse;
export type RequeueDepositApiArg = {
  /** The received deposit (`ReceiveTransaction.id`). */
  id: Id;
};
export type SendTestDepositApiResponse =
  /** status 200 The transfer is on the local chain. */ TestDepositResponse;
export type SendTestDepositApiArg = {
  testDepositRequest: TestDepositRequest;
};
export type CancelWithdrawApiResponse =
  /** status 200 The withdrawal is canceled. */ MessageResponse;
export type CancelWithdrawApiArg = {
  /** The withdrawal (`SendTransaction.id`). */
  id: Id;
};
export type RequeueWithdrawApiResponse =
  /** status 200 The withdrawal is queued again. */ MessageResponse;
export type RequeueWithdrawApiArg = {
  /** The withdrawal (`SendTransaction.id`). */
  id: Id;
};
export type Status = boolean | (0 | 1) | 'success';
export type Decimal = string;
export type App = {
  /** The app's id. */
  id: string;
  /** The app's name. */
  app_name: string;
  /** The app's description; null when none was given. */
  info: string | null;
  /** The merchant project's URL. */
  project_url: string;
  /** Addresses allowed to call the gateway with this app's keys: IPv4/IPv6 addresses or CIDR ranges, normalised by the server (one entry per line); null when any address may. */
  whitelist_ip: string | null;
  /** Present while a changed IP whitelist is held: until then the app's withdrawals wait (SETTINGS_HOLD_HOURS after the change). */
  whitelist_hold_until?: string;
  /** The webhook URL that receives IPN callbacks; null when none is set. */
  callback_url: string | null;
  /** When the app was created. */
  created_at: string;
  /** 1 Ready (shown as 'Ready'); 0 Not Ready (e.g. no payment method in use yet). */
  status: 0 | 1;
  /** Invoices: payments short of an invoice's amount by at most this percentage count as full (0 to 10, at most 2 decimals; default 0). Copied into each new invoice. */
  invoice_underpayment_tolerance: Decimal;
  /** Invoices: a payment that completes an invoice within this many minutes after its expiry still settles it, flagged paid_late (0 to 1440; default 60). Copied into each new invoice. */
  invoice_late_window_minutes: number;
  /** The app's logo, shown on its checkout and payment link pages: a stored image's file name, served by `getImage` (public by name); null when the app has none (`uploadAppLogo`, `removeAppLogo`). */
  logo: string | null;
  /** false for an app's test mode (`openTestMode`): a test app of its own, with its own keys (`csl_test_…`), webhook URL and secret, payment methods on the test networks, and objects that never count in live figures. true for every app the account lists. */
  livemode: boolean;
  /** The app whose test mode this is; present on test apps only. */
  live_app_id?: string;
  /** The app's test app, once its test mode has been opened (`openTestMode`); absent until then, and on test apps. */
  test_app_id?: string;
};
export type AppListResponse = {
  /** Success flag (true). */
  status: Status;
  /** The apps, oldest first, with what the app cards show (the client keeps this as its sidebar apps list; the spec's stored list needs only id and app_name). */
  data: App[];
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
export type CreateAppResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** All the account's apps, oldest first (the client stores it as its apps list). */
  data: App[];
  /** The created app. */
  app: App;
};
export type CreateAppRequest = {
  /** The app's name ('App Name is required'). */
  app_name: string;
  /** The project's http(s) URL ('Project Url is required', 'Please Enter Valid URl'). */
  project_url: string;
  /** Optional IP whitelist: IPv4/IPv6 addresses or CIDR ranges separated by commas or newlines; empty means any address. */
  whitelist_ip?: string;
  /** Optional webhook http(s) URL; empty means none ('Please Enter Valid URl'). */
  callback_url?: string;
  /** Optional description; empty means none. */
  info?: string;
};
export type UpdateAppResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The app after the update. */
  data: App;
};
export type UpdateAppRequest = {
  /** The app to update. */
  app_id: string;
  /** The app's name ('App Name is required'). */
  app_name: string;
  /** The project's http(s) URL ('Project Url is required', 'Please Enter Valid URl'). */
  project_url: string;
  /** Optional IP whitelist: IPv4/IPv6 addresses or CIDR ranges separated by commas or newlines; empty means any address. */
  whitelist_ip?: string;
  /** Optional webhook http(s) URL; empty means none ('Please Enter Valid URl'). */
  callback_url?: string;
  /** Optional description; empty means none. */
  info?: string;
  /** 1 Ready, 0 Not Ready. */
  status: 0 | 1;
  /** The underpayment tolerance in percent, 0 to 10 with at most 2 decimals (not in the spec: the Invoices extension). Absent keeps the app's; out of range is a 422 naming the field. */
  invoice_underpayment_tolerance?: string;
  /** The late window in minutes, a whole number from 0 to 1440 (not in the spec: the Invoices extension). Absent keeps the app's; out of range is a 422 naming the field. */
  invoice_late_window_minutes?: number;
};
export type Id = string;
export type UploadAppLogoRequest = {
  /** One JPEG or PNG image (judged by content), at most 2 MB (2097152 bytes). */
  logo: Blob;
};
export type OpenTestModeResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The test app (`livemode` false). */
  app: App;
};
export type DeleteTestDataResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  data: {
    /** Deposit accounts (addresses). */
    accounts: number;
    /** Invoices, with their payment options and payments. */
    invoices: number;
    /** Payments received (the Receive list). */
    deposits: number;
    /** Withdrawals and refunds’ sends (the Send list). */
    withdrawals: number;
    /** Refunds. */
    refunds: number;
    /** Payment links, with their visits. */
    payment_links: number;
    /** Webhook events, with their deliveries and attempts. */
    webhook_events: number;
    /** API log rows. */
    api_logs: number;
  };
};
export type FundTestWalletResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  data: {
    /** The network's coin sent, as an exact decimal ('0' when it held enough). */
    native_amount: string;
    /** The token sent, as an exact decimal; null for a native coin method. */
    token_amount: string | null;
    /** The local chain's block that holds the transfers. */
    block_number: number;
  };
};
export type FundTestWalletRequest = {
  /** The method (`PaymentMethod.id`) whose operational wallet to fund. */
  payment_method_id: string;
};
export type ChainId = 56 | 137 | 1 | 42161 | 250 | 10 | 0 | 97 | 11155111 | 80002 | -1;
export type PaymentMethod = {
  /** The payment method's id. */
  id: string;
  /** The coin's name, e.g. "USDT". */
  name: string;
  /** The network's name, e.g. "BNB Smart Chain". */
  network_name: string;
  /** EVM for EVM networks (0x addresses); anything other than EVM is Tron-style (T addresses, base58). */
  network_type: 'EVM' | 'TRON';
  /** The logo's file name, served by `getImage`. */
  logo: string;
  /** The chain the method runs on. */
  chain_id: ChainId;
  /** 1 for a token (e.g. USDT on BNB Smart Chain), 0 for the chain's native coin. */
  is_token: 0 | 1;
  /** The token's contract address; null for a native coin. */
  token_contract_address: string | null;
  /** Total received through this method by this app, in the coin. */
  total_amount: number;
  /** Total sent through this method by this app, in the coin. */
  total_withdraw_amount: number;
  /** The gateway's fee on the deposits of `total_amount`: the package's percent of each, recorded when it was credited (0 for a deposit credited without a package). The sweep sends it to the gateway's fee address. Summed exactly in the token's base units, then truncated to 6 decimals. */
  total_gateway_fee: number;
  /** The rest of those deposits, for the app's payout address (their amounts less `total_gateway_fee`). Summed exactly in base units, then truncated to 6 decimals. */
  total_payout_amount: number;
  /** The part of `total_withdraw_amount` that paid refunds of the app's invoices, in the coin. */
  total_refund_amount: number;
};
export type UserPaymentMethod = {
  /** The id of this use (what `updatePaymentMethod` takes as `id`). */
  id: string;
  /** The payment method used (`PaymentMethod.id`). */
  payment_method_id: string;
  /** The operational wallet address that pays network fees; null while the server has not created it yet ('Oprational Wallet is not Ready Yet,Please try After sometime'). */
  gas_address: string | null;
  /** The payout address where received funds are collected. */
  collect_address: string;
  /** 1 deposits (For Deposit) switched on; 0 off. */
  deposit_status: 0 | 1;
  /** 1 withdrawals (For Withdraw) switched on; 0 off. */
  withdraw_status: 0 | 1;
  /** Present while a changed payout address is held: until then no sweep goes to it and the app's withdrawals wait (SETTINGS_HOLD_HOURS after the change). */
  payout_hold_until?: string;
};
export type TransactionTotals = {
  /** Number of received transactions (deposits). */
  incoming: number;
  /** Number of sent transactions (withdrawals), refunds among them. */
  outgoing: number;
  /** How many of the sent transactions paid refunds of the app's invoices. */
  refunds: number;
};
export type ApiLog = {
  /** The log entry's id. */
  id: string;
  /** The HTTP method, e.g. "POST". */
  method: string;
  /** The path called. */
  route: string;
  /** The caller's IP address. */
  ip: string;
  /** When the call was made. */
  created_at: string;
};
export type ApiLogPage = {
  /** The rows of this page, newest first. */
  data: ApiLog[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?api_logs=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';
export type IpnLog = {
  /** The delivery's id (`getWebhookDelivery`, `redeliverWebhook`). */
  id: Id;
  /** The merchant's client id the event is about; empty for `test.ping`. */
  unique_id: string;
  /** The event type, e.g. "deposit.confirmed". */
  event: string;
  /** When the delivery was queued. */
  created_at: string;
  /** The signed body sent, the event envelope as JSON text (shown in the JSON viewer); empty once pruned. */
  data: string;
  status: WebhookDeliveryStatus;
  /** The HTTP status of the last attempt; null before one, or when none answered. */
  http_code: number | null;
  /** POSTs made so far. */
  attempts: number;
  /** True for a delivery made by Redeliver. */
  redelivery: boolean;
  /** True once retention (WEBHOOK_BODY_RETENTION_DAYS, 60 days by default) removed the payload (`data` is then empty) and the answers' excerpts; such a delivery cannot be redelivered. */
  pruned: boolean;
};
export type IpnLogPage = {
  /** The rows of this page, newest first. */
  data: IpnLog[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?callback_data=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type DailyLog = {
  /** The row's id. */
  id: string;
  /** The day (UTC). */
  date: string;
  /** The network's name. */
  network_name: string;
  /** The coin's name (amounts are in this coin). */
  name: string;
  /** Deposits received that day. */
  deposit_count: number;
  /** Amount received that day. */
  deposit_volume: number;
  /** Withdrawals sent that day. */
  withdraw_count: number;
  /** Amount sent that day. */
  withdraw_volume: number;
  /** The gateway's fee on that day's deposits (the package's percent recorded when each was credited), sent to the gateway's fee address. Summed exactly in base units, then truncated to 6 decimals. */
  gateway_fee_volume: number;
  /** The rest of that day's deposits, for the app's payout address (`deposit_volume` less `gateway_fee_volume`, exact in base units, truncated to 6 decimals). */
  payout_volume: number;
  /** The sends of `withdraw_count` that paid refunds of the app's invoices. */
  refund_count: number;
  /** Their amount, part of `withdraw_volume`. */
  refund_volume: number;
};
export type DailyLogPage = {
  /** The rows of this page, newest first. */
  data: DailyLog[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?daily_logs=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type Account = {
  /** The account's id. */
  id: string;
  /** The merchant's client id. */
  unique_id: string;
  /** The generated deposit address. */
  address: string;
  /** When the address was generated. */
  created_at: string;
  /** Codes of the app's methods on this account's chain that run on the embedded local chain and so take a test deposit (`sendTestDeposit`); empty on real chains. */
  test_methods: string[];
};
export type AccountPage = {
  /** The rows of this page, newest first. */
  data: Account[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?accounts=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type ReceiveTransaction = {
  /** The deposit's id (what `requeueDeposit` takes). */
  id: string;
  /** The merchant's client id the deposit belongs to. */
  unique_id: string;
  /** The network's name. */
  network_name: string;
  /** Amount received, in the coin. */
  amount: number;
  /** The coin's name. */
  name: string;
  /** 0 Pending, 1 Completed, 2 Queued for Verification, 3 Hash Verified (Awaiting Gas), 4 Gas Transferred (Awaiting Collect), 5 Failed (can be re-initiated). */
  deposit_status: 0 | 1 | 2 | 3 | 4 | 5;
  /** When the deposit was seen. */
  created_at: string;
  /** The chain (for explorer links). */
  chain_id: ChainId;
  /** The incoming transfer's transaction hash; null when not known yet. */
  thash: string | null;
  /** The hash of the gas (fee) transfer to the deposit address; null until made. */
  gas_transfer_txid: string | null;
  /** The hash of the collection to the payout address; null until made. */
  collect_txid: string | null;
  /** When processing finished; null while it runs. */
  process_datetime: string | null;
  /** Why a Hash Verified deposit is not moving on, in words, with what unblocks it (e.g. the operational wallet lacks the gas to top up the deposit address: how much to send to which address); null while nothing holds it up. */
  waiting_reason: string | null;
  /** Null for a deposit in its account's own method; `wrong_network`: the account's coin or token sent on another EVM chain; `wrong_asset`: another coin or token. It is credited in the method it came in. */
  flag: ('wrong_network' | 'wrong_asset' | null) | ('wrong_network' | 'wrong_asset' | null);
};
export type ReceivePage = {
  /** The rows of this page, newest first. */
  data: ReceiveTransaction[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?receive=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type SendTransaction = {
  /** The withdrawal's id (what `cancelWithdraw` and `requeueWithdraw` take). */
  id: string;
  /** The transaction hash; null until broadcast. */
  thash: string | null;
  /** The chain (for explorer links). */
  chain_id: ChainId;
  /** The network's name. */
  network_name: string;
  /** Amount sent, in the coin. */
  amount: number;
  /** The coin's name. */
  name: string;
  /** The receiver's address. */
  to_address: string;
  /** 0 Pending, 1 Completed, 2 Queued for Verification, 3 Processing Transfer, 4 Energy Transferred, 5 Awaiting Blockchain Confirmation, 6 Unsuccessful, 7 Cancelled. Statuses 3 and 6 can be canceled or re-initiated. */
  status: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
  /** When the withdrawal was requested. */
  created_at: string;
  /** Why a Processing Transfer withdrawal is not going out, in words, with who unblocks it (e.g. held for the operator's approval: it would take the app past its daily cap); null while nothing holds it up. */
  waiting_reason: string | null;
  /** The refund it pays (`rf_…`, see the Invoices tab's refunds); null for a withdrawal. */
  refund_id: string | null;
};
export type SendPage = {
  /** The rows of this page, newest first. */
  data: SendTransaction[];
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
  /** The URL of page 1 of this same list (with the /api prefix), e.g. `/api/cryptosafelock/app-details/app_1?send=1`; clients replace the page number to fetch another page. */
  first_page_url: string;
};
export type AppDetails = {
  /** The app. */
  app_data: App;
  /** Every payment method the gateway offers, with this app's totals. */
  all_payment_methods: PaymentMethod[];
  /** The payment methods this app uses (matched to `all_payment_methods` by `payment_method_id`). */
  user_payment_methods: UserPaymentMethod[];
  /** Number of deposit addresses (accounts) generated for the app. */
  generated_deposit_address: number;
  /** Received and sent transaction counts. */
  total_transaction: TransactionTotals;
  /** The requested page of API logs (query `api_logs`). */
  api_logs: ApiLogPage;
  /** The requested page of IPN logs (query `callback_data`). */
  callback_data: IpnLogPage;
  /** The requested page of daily logs (query `daily_logs`). */
  daily_logs: DailyLogPage;
  /** The requested page of generated accounts (query `accounts`). */
  accounts: AccountPage;
  /** The requested page of received deposits (query `receive`). */
  receive: ReceivePage;
  /** The requested page of withdrawals (query `send`). */
  send: SendPage;
};
export type AppDetailsResponse = {
  /** Success flag (true). */
  status: Status;
  /** The app detail. */
  data: AppDetails;
};
export type ApiKey = {
  /** The key's id. */
  id: string;
  /** The key's name. */
  token_name: string;
  /** When the key was created. */
  created_at: string;
  /** The key's permissions (values from `listTokenPermissions`). */
  abilities: string[];
};
export type ApiKeyListResponse = {
  /** Success flag (true). */
  status: Status;
  /** The live keys, newest first. */
  data: ApiKey[];
};
export type TokenPermission = {
  /** The label shown next to the checkbox. */
  title: string;
  /** The value stored in `abilities`. */
  value: string;
};
export type TokenPermissionListResponse = {
  /** Success flag (true). */
  status: Status;
  /** The permissions, in display order. */
  data: TokenPermission[];
};
export type GenerateApiKeyResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** A message to show. */
  msg: string;
  /** The plaintext API key; shown once, never retrievable again. */
  token: string;
  /** The created key. */
  data: ApiKey;
};
export type GenerateApiKeyRequest = {
  /** The key's name ('Key Name is required'). */
  token_name: string;
  /** The app the key belongs to. */
  app_id: string;
  /** The key's permissions, values from `listTokenPermissions` ('Min One Permission is required'). */
  abilities: string[];
};
export type MessageResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
};
export type UpdatePermissionsRequest = {
  /** The key's permissions, values from `listTokenPermissions` ('Min One Permission is required'). */
  abilities: string[];
  /** The app the key belongs to. */
  app_id: string;
};
export type FetchBalanceResponse = {
  /** Success flag (true). */
  status: Status;
  /** The native coin balance (e.g. BNB, TRX), in coin units. */
  nativeAmount: number;
  /** The token balance in token units for a token method; null for a native coin method. */
  tokenAmount: number | null;
};
export type UpdatePaymentMethodRequest = {
  /** The app's use of the method (`UserPaymentMethod.id`). */
  id: string;
  /** The app (`App.id`). */
  user_app_id: string;
  /** What to change: `address` the payout address (`collect_address`), `deposit_status` or `withdraw_status` that switch (`status`). */
  type: 'address' | 'deposit_status' | 'withdraw_status';
  /** The new payout address, required when `type` is address ('Payout addrress is required'); EVM networks 0x plus 40 hex characters, others T plus 33 base58 characters ('Please Enter valid Address'). */
  collect_address?: string;
  /** The switch's new value (1 on, 0 off), required when `type` is deposit_status or withdraw_status. */
  status?: 0 | 1;
};
export type UsePaymentMethodRequest = {
  /** The payment method (`PaymentMethod.id`). */
  payment_method_id: string;
  /** The payout address ('Payout addrress is required'); EVM networks 0x plus 40 hex characters, others T plus 33 base58 characters ('Please Enter valid Address'). */
  collect_address: string;
  /** The app (`App.id`). */
  user_app_id: string;
};
export type TestDepositResponse = {
  /** Success flag (true). */
  status: Status;
  codes?: MessageCodes;
  /** The message to show to the user (as a toast). */
  msg: string;
  /** Where the transfer is. */
  data: {
    /** The transfer's transaction hash. */
    thash: string;
    /** The block that holds it. */
    block_number: number;
  };
};
export type TestDepositRequest = {
  /** The account (`Account.id`). */
  account_id: string;
  /** The method's code, one of the account's `test_methods`. */
  method: string;
  /** The amount in the method's coin, as a decimal string with at most 6 decimals, more than 0 and at most 1000000. */
  amount: string;
};
export const {
  useGetAppsQuery,
  useLazyGetAppsQuery,
  useCreateAppMutation,
  useUpdateAppMutation,
  useUploadAppLogoMutation,
  useRemoveAppLogoMutation,
  useOpenTestModeMutation,
  useDeleteTestDataMutation,
  useFundTestWalletMutation,
  useGetAppDetailsQuery,
  useLazyGetAppDetailsQuery,
  useListTokensQuery,
  useLazyListTokensQuery,
  useListTokenPermissionsQuery,
  useLazyListTokenPermissionsQuery,
  useGenerateApiKeyMutation,
  useRevokeTokenMutation,
  useUpdatePermissionsMutation,
  useFetchBalanceQuery,
  useLazyFetchBalanceQuery,
  useUpdatePaymentMethodMutation,
  useUsePaymentMethodMutation,
  useRequeueDepositMutation,
  useSendTestDepositMutation,
  useCancelWithdrawMutation,
  useRequeueWithdrawMutation,
} = injectedRtkApi;
