import type { WalletDetails, WalletTransaction } from '../../src/api/generated/wallet.gen';
import type { Fixtures } from './types';

export const DEPOSIT_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

export function makeWalletDetails(overrides: Partial<WalletDetails> = {}): WalletDetails {
  return {
    address: DEPOSIT_ADDRESS,
    network: 'BEP20',
    balance: 150.5,
    totalDepositCount: 2,
    totalDepositAmount: 200.49,
    amountToPay: 0,
    ...overrides,
  };
}

export function makeWalletTransaction(
  overrides: Partial<WalletTransaction> = {},
): WalletTransaction {
  return {
    tnx: '0x3f5a9d2c7b1e4f60a8c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6',
    amount: 200.49,
    status: 1,
    created_at: '2026-11-15T09:12:45Z',
    ...overrides,
  };
}

export const fixtures = {
  getBalance: { status: true, data: { payInBalance: 125.5 } },
  getCryptoDeposit: {
    status: true,
    details: makeWalletDetails(),
    data: {
      data: [
        makeWalletTransaction(),
        makeWalletTransaction({
          tnx: '0x9b1e4f60a8c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a63f5a9d2c',
          amount: 0.123456,
          status: 0,
          created_at: '2026-11-16T18:00:00Z',
        }),
      ],
    },
  },
  syncBalance: { status: true, balance: 150.5, is_new: false, msg: 'No new deposit found' },
} satisfies Fixtures;
