import { CHAINS, explorerAddressUrl, explorerTxUrl } from './chains';
import {
  formatAmount,
  formatCoin,
  formatCoinTotal,
  formatDate,
  formatDateTime,
  formatMoney,
  formatTime,
} from './format';
import { i18n } from '../i18n/i18n';
import { maskTnx, shorten } from './mask';
import { deobfuscate, obfuscate } from './obfuscate';
import { pageQueryFromUrl, pageWindow } from './pagination';

describe('chain table', () => {
  test.each([
    [56, 'BNB'],
    [137, 'POL'],
    [1, 'ETH'],
    [42161, 'ETH'],
    [250, 'FTM'],
    [10, 'ETH'],
    [0, 'TRX'],
  ])('chain %i pays gas in %s', (chainId, coin) => {
    expect(CHAINS[chainId]?.nativeCoin).toBe(coin);
    expect(explorerTxUrl(chainId, '0xabc')).toMatch(/^https:\/\/.+0xabc$/);
  });

  test('operational wallet links ask for 100 rows of transaction type 2', () => {
    expect(explorerAddressUrl(56, '0xdef', { pageSize: 100, txType: 2 })).toBe(
      'https://bscscan.com/address/0xdef?ps=100&tt=2',
    );
    expect(explorerAddressUrl(0, 'TXYZ')).toBe('https://tronscan.org/#/address/TXYZ');
    expect(explorerTxUrl(999, '0x1')).toBeUndefined();
  });
});

describe('masking', () => {
  test('transaction ids show 5 + **** + 5', () => {
    expect(maskTnx('TXN1234567890ABCDE')).toBe('TXN12****ABCDE');
    expect(maskTnx('short')).toBe('short');
  });
  test('addresses shorten 10 + 10', () => {
    const address = '0x1234567890abcdef1234567890abcdef12345678';
    expect(shorten(address, 10, 10)).toBe('0x12345678...ef12345678');
  });
});

describe('formatting', () => {
  test('money has 2 decimals and a currency prefix, $ by default', () => {
    expect(formatMoney(12.5, '€')).toBe('€12.50');
    expect(formatMoney(12.5, '')).toBe('$12.50');
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatAmount('1.23456789', 4)).toBe('1.2346');
  });
  test('decimals per figure: transfers and volumes 4 with the coin, usage totals 6', () => {
    expect(formatCoin('241.53444', 'USDT')).toBe('241.5344 USDT');
    expect(formatCoin(null, 'BNB')).toBe('0.0000 BNB');
    expect(formatCoinTotal(0.1234567)).toBe('0.123457');
    expect(formatCoinTotal('not a number')).toBe('0.000000');
  });
  test("figures in another language follow that language's numbers; English keeps the spec's", () => {
    try {
      i18n.activate('fr');
      expect(formatCoinTotal('1250.5')).toBe('1\u202f250,500000');
      expect(formatMoney(12.5)).toBe('$12,50');
      i18n.activate('ja');
      expect(formatCoin('1241.53444', 'USDT')).toBe('1,241.5344 USDT');
      i18n.activate('tr');
      expect(formatCoinTotal(-0.5)).toBe('-0,500000');
    } finally {
      i18n.activate('en');
    }
    expect(formatCoinTotal('1250.5')).toBe('1250.500000');
  });
  test('dates as DD-MM-YYYY, moments as LLL, a time under its day as LT', () => {
    expect(formatDate('2026-11-25T10:00:00')).toBe('25-11-2026');
    expect(formatDateTime('2026-11-25T22:41:00')).toBe('November 25, 2026 10:41 PM');
    expect(formatTime('2026-11-25T22:41:00')).toBe('10:41 PM');
    expect(formatTime('2026-11-25T09:05:00')).toBe('9:05 AM');
    expect(formatDate(null)).toBe('----');
    expect(formatDateTime(undefined)).toBe('----');
    expect(formatTime(null)).toBe('----');
  });
  test('a moment keeps its minute: seconds are cut, never rounded up', () => {
    expect(formatDateTime('2026-11-25T17:46:59.999')).toBe('November 25, 2026 5:46 PM');
    expect(formatTime('2026-11-25T17:46:31')).toBe('5:46 PM');
  });
});

describe('pagination window', () => {
  test('up to 3 pages either side of the current one', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(6, 10)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(pageWindow(10, 10)).toEqual([7, 8, 9, 10]);
    expect(pageWindow(1, 1)).toEqual([1]);
  });
  test('the next page is the first_page_url with its page number replaced', () => {
    expect(pageQueryFromUrl('/api/cryptosafelock/app-details/app_1?receive=1', 4)).toEqual({
      receive: '4',
    });
    expect(pageQueryFromUrl('http://x/api/cryptosafelock/subscription-list?page=1', 2)).toEqual({
      page: '2',
    });
  });
});

describe('authToken obfuscation', () => {
  test('round-trips, hides the plain token, and rejects tampering', () => {
    const sealed = obfuscate('sess_secret');
    expect(sealed).not.toContain('sess_secret');
    expect(deobfuscate(sealed)).toBe('sess_secret');
    expect(deobfuscate(`${sealed.slice(0, -2)}00`)).toBe('');
    expect(obfuscate('sess_secret')).not.toBe(sealed);
  });
});
