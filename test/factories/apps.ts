import type {
  Account,
  ApiKey,
  ApiLog,
  App,
  AppDetails,
  DailyLog,
  IpnLog,
  PaymentMethod,
  ReceiveTransaction,
  SendTransaction,
  UserPaymentMethod,
} from '../../src/api/generated/apps.gen';
import type { Fixtures } from './types';
import { pageEnvelope, type Page } from '../../src/shared/paging';

export function makeApp(overrides: Partial<App> = {}): App {
  return {
    id: 'app_1',
    app_name: 'Shop Checkout',
    info: 'Checkout payments for the web shop',
    project_url: 'https://shop.example.com',
    whitelist_ip: null,
    callback_url: null,
    created_at: '2026-11-01T10:30:00Z',
    status: 0,
    invoice_underpayment_tolerance: '0',
    invoice_late_window_minutes: 60,
    logo: null,
    livemode: true,
    ...overrides,
  };
}

export const USDT_BSC: PaymentMethod = {
  id: 'pm_usdt_bsc',
  name: 'USDT',
  network_name: 'BNB Smart Chain',
  network_type: 'EVM',
  logo: 'logo_usdt.png',
  chain_id: 56,
  is_token: 1,
  token_contract_address: '0x55d398326f99059fF775485246999027B3197955',
  total_amount: 1250.5,
  total_withdraw_amount: 300.123456,
  total_gateway_fee: 12.505,
  total_payout_amount: 1237.995,
  total_refund_amount: 20.5,
};

export const TRX: PaymentMethod = {
  id: 'pm_trx',
  name: 'TRX',
  network_name: 'Tron',
  network_type: 'TRON',
  logo: 'logo_trx.png',
  chain_id: 0,
  is_token: 0,
  token_contract_address: null,
  total_amount: 0,
  total_withdraw_amount: 0,
  total_gateway_fee: 0,
  total_payout_amount: 0,
  total_refund_amount: 0,
};

export const GAS_ADDRESS = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
export const PAYOUT_ADDRESS = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db';

export function makeUsedMethod(overrides: Partial<UserPaymentMethod> = {}): UserPaymentMethod {
  return {
    id: 'upm_1',
    payment_method_id: 'pm_usdt_bsc',
    gas_address: GAS_ADDRESS,
    collect_address: PAYOUT_ADDRESS,
    deposit_status: 1,
    withdraw_status: 0,
    ...overrides,
  };
}

export function makeReceive(
  i: number,
  overrides: Partial<ReceiveTransaction> = {},
): ReceiveTransaction {
  return {
    id: `dep_${i}`,
    unique_id: `CUST-${100 + i}`,
    network_name: 'BNB Smart Chain',
    amount: 25 + i,
    name: 'USDT',
    deposit_status: 1,
    created_at: '2026-11-01T11:04:10Z',
    chain_id: 56,
    thash: `0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b2206${i % 10}`,
    gas_transfer_txid: null,
    collect_txid: null,
    process_datetime: null,
    waiting_reason: null,
    flag: null,
    ...overrides,
  };
}

export function makeSend(i: number, overrides: Partial<SendTransaction> = {}): SendTransaction {
  return {
    id: `wd_${i}`,
    thash: `0xa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9${i % 10}`,
    chain_id: 56,
    network_name: 'BNB Smart Chain',
    amount: 10 + i,
    name: 'USDT',
    to_address: PAYOUT_ADDRESS,
    status: 1,
    created_at: '2026-11-01T12:00:00Z',
    waiting_reason: null,
    refund_id: null,
    ...overrides,
  };
}

/** A page of `rows` as page `page` of `total` rows (10 per page). */
export function makePage<T>(list: string, rows: T[], page = 1, total = rows.length): Page<T> {
  return pageEnvelope(rows, total, page, 10, `/api/cryptosafelock/app-details/app_1?${list}=1`);
}

export const ACCOUNT: Account = {
  id: 'acc_1',
  unique_id: 'CUST-101',
  address: '0x9f2Ad2E0e9d4E2C1d0aB4d5a4bB1C2d3e4f5a6B7',
  created_at: '2026-11-01T09:00:00Z',
  test_methods: ['USDT-BEP20'],
};
export const API_LOG: ApiLog = {
  id: 'log_1',
  method: 'POST',
  route: '/gateway/v1/addresses',
  ip: '203.0.113.10',
  created_at: '2026-11-01T09:00:00Z',
};
export const IPN_LOG: IpnLog = {
  id: 'whd_1',
  unique_id: 'CUST-101',
  event: 'deposit.confirmed',
  created_at: '2026-11-01T09:00:00Z',
  data: '{"id":"evt_1","type":"deposit.confirmed","amount":"25.0000","nested":{"ok":true,"code":null}}',
  status: 'delivered',
  http_code: 200,
  attempts: 1,
  redelivery: false,
  pruned: false,
};
export const DAILY_LOG: DailyLog = {
  id: 'day_1',
  date: '2026-11-01',
  network_name: 'BNB Smart Chain',
  name: 'USDT',
  deposit_count: 3,
  deposit_volume: 120.56789,
  withdraw_count: 1,
  withdraw_volume: 10,
  gateway_fee_volume: 1.205678,
  payout_volume: 119.362211,
  refund_count: 1,
  refund_volume: 4.5,
};

export function makeAppDetails(overrides: Partial<AppDetails> = {}): AppDetails {
  return {
    app_data: makeApp({ status: 1 }),
    all_payment_methods: [USDT_BSC, TRX],
    user_payment_methods: [makeUsedMethod()],
    generated_deposit_address: 12,
    total_transaction: { incoming: 27, outgoing: 18, refunds: 2 },
    api_logs: makePage('api_logs', [API_LOG]),
    callback_data: makePage('callback_data', [IPN_LOG]),
    daily_logs: makePage('daily_logs', [DAILY_LOG]),
    accounts: makePage('accounts', [ACCOUNT]),
    receive: makePage('receive', [makeReceive(1)]),
    send: makePage('send', [makeSend(1)]),
    ...overrides,
  };
}

export const API_KEY: ApiKey = {
  id: 'key_1',
  token_name: 'Checkout server',
  created_at: '2026-11-01T10:45:00Z',
  abilities: ['accounts:write', 'deposits:read'],
};

export const fixtures = {
  getApps: { status: true, data: [makeApp()] },
  createApp: {
    status: true,
    msg: 'App created successfully',
    data: [makeApp(), makeApp({ id: 'app_2', app_name: 'Donations' })],
    app: makeApp({ id: 'app_2', app_name: 'Donations' }),
  },
  getAppDetails: { status: true, data: makeAppDetails() },
  listTokens: { status: true, data: [API_KEY] },
  listTokenPermissions: {
    status: true,
    data: [
      { title: 'Read payment methods', value: 'methods:read' },
      { title: 'Read deposit accounts', value: 'accounts:read' },
      { title: 'Create deposit accounts', value: 'accounts:write' },
      { title: 'Read deposits', value: 'deposits:read' },
      { title: 'Read withdrawals', value: 'withdrawals:read' },
      { title: 'Create withdrawals', value: 'withdrawals:write' },
      { title: 'Read balances', value: 'balances:read' },
      { title: 'Manage webhooks', value: 'webhooks:write' },
      { title: 'Read operational wallets', value: 'wallets:read' },
      { title: 'Read invoices', value: 'invoices:read' },
      { title: 'Create invoices', value: 'invoices:write' },
      { title: 'Read refunds', value: 'refunds:read' },
      { title: 'Create refunds', value: 'refunds:write' },
      { title: 'Read logs', value: 'logs:read' },
    ],
  },
  generateApiKey: {
    status: true,
    msg: 'API key generated successfully',
    token: 'csl_live_3kt9qw2mzx7bv4nr8yl1pa6sd0fg5hjq',
    data: { ...API_KEY, id: 'key_2', token_name: 'New key', abilities: ['balances:read'] },
  },
  fetchBalance: { status: true, nativeAmount: 0.0123456, tokenAmount: 3.5 },
} satisfies Fixtures;
