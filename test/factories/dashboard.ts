import type { DashboardData, Transaction } from '../../src/api/generated/dashboard.gen';
import type { Fixtures } from './types';

export function makeTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    tnx: '0x3f5a9d2c7b1e4f60a8c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6',
    amount: 100,
    type: 'credit',
    source: 'deposit',
    note: 'USDT (BEP20) deposit',
    created_at: '2026-11-15T09:12:45Z',
    ...overrides,
  };
}

export function makeDashboard(overrides: Partial<DashboardData> = {}): DashboardData {
  return {
    last_login_at: '2026-11-14T18:02:11Z',
    last_login_ip: '203.0.113.9',
    last_login_device: 'Chrome on Windows 10',
    subscription: {
      expiry: '2026-12-14T10:30:00Z',
      transaction_used: 120,
      transaction_limit: 1000,
    },
    daily_transaction: 4,
    monthly_transaction: 57,
    total_transaction: 120,
    latest_transacctions: [
      makeTransaction(),
      makeTransaction({
        tnx: '7a1c9e0b2d4f6a8c0e1b3d5f7a9c1e3b',
        amount: 49.99,
        type: 'debit',
        source: 'subscription',
        note: 'Purchase of the Growth package',
        created_at: '2026-11-15T10:30:00Z',
      }),
    ],
    ...overrides,
  };
}

export const fixtures = {
  getDashboard: { status: true, data: makeDashboard() },
} satisfies Fixtures;
