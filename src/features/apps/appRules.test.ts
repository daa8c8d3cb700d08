import {
  canActOnSend,
  canRequeueDeposit,
  DEPOSIT_STATUS,
  isLooseUrl,
  isPayoutAddress,
  payoutAddressError,
  SEND_STATUS,
  tabOf,
} from './appRules';
import { pageArg } from './components/usePagedList';

describe('apps rules', () => {
  test('the loose URL pattern', () => {
    for (const good of [
      'https://shop.example.com',
      'shop.example.com/path?q=1',
      'http://localhost:3000',
      'http://10.0.0.1:8080/x',
    ]) {
      expect([good, isLooseUrl(good)]).toEqual([good, true]);
    }
    for (const bad of [
      'shop',
      'https://',
      'ftp://shop.example.com',
      'shop example.com',
      'http://shop.',
    ]) {
      expect([bad, isLooseUrl(bad)]).toEqual([bad, false]);
    }
  });

  test('payout address patterns per network', () => {
    expect(isPayoutAddress('EVM', '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db')).toBe(true);
    expect(isPayoutAddress('EVM', '4B20993Bc481177ec7E8f571ceCaE8A9e22C02db')).toBe(true);
    expect(isPayoutAddress('EVM', '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02d')).toBe(false);
    expect(isPayoutAddress('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isPayoutAddress('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t')).toBe(false);
    expect(isPayoutAddress('TRON', '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db')).toBe(false);
    expect(payoutAddressError('EVM', ' ')).toBe('Payout addrress is required');
    expect(payoutAddressError('EVM', 'abc')).toBe('Please Enter valid Address');
  });

  test('status names and actions', () => {
    expect(Object.values(DEPOSIT_STATUS).map((name) => name.label)).toEqual([
      'Pending',
      'Completed',
      'Queued for Verification',
      'Hash Verified (Awaiting Gas)',
      'Gas Transferred (Awaiting Collect)',
      'Failed',
    ]);
    expect(Object.values(SEND_STATUS).map((name) => name.label)).toEqual([
      'Pending',
      'Completed',
      'Queued for Verification',
      'Processing Transfer',
      'Energy Transferred',
      'Awaiting Blockchain Confirmation',
      'Unsuccessful',
      'Cancelled',
    ]);
    expect([0, 1, 2, 3, 4, 5].filter(canRequeueDeposit)).toEqual([5]);
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter(canActOnSend)).toEqual([3, 6]);
  });

  test('tabs and page arguments', () => {
    expect(tabOf(undefined)).toBe('payment-setting');
    expect(tabOf('ipn-logs')).toBe('ipn-logs');
    expect(tabOf('nope')).toBeUndefined();
    expect(pageArg('app_1', '/api/cryptosafelock/app-details/app_1?callback_data=1', 4)).toEqual({
      id: 'app_1',
      callbackData: 4,
    });
  });
});
