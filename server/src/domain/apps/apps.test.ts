import { pageOf } from './appDetails';
import { checkAppFields, isHttpUrl } from './apps';
import { normaliseIpEntry, normaliseWhitelist } from './whitelist';
import { urlOf } from '../../../test/operations';

describe('app field rules', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(isHttpUrl('https://shop.example.com/path?q=1')).toBe(true);
    expect(isHttpUrl('http://localhost:3000')).toBe(true);
    for (const bad of [
      'shop.example.com',
      'ftp://shop.example.com',
      'javascript:alert(1)',
      'https://',
      'https://a b.com',
    ]) {
      expect(isHttpUrl(bad)).toBe(false);
    }
  });

  it('normalises IPv4, IPv6 and CIDR entries', () => {
    expect(normaliseIpEntry('203.0.113.10')).toBe('203.0.113.10');
    expect(normaliseIpEntry('198.51.100.77/24')).toBe('198.51.100.0/24');
    expect(normaliseIpEntry('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normaliseIpEntry('2001:db8::abcd/32')).toBe('2001:db8::/32');
    expect(normaliseIpEntry('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(normaliseIpEntry('0.0.0.0/0')).toBe('0.0.0.0/0');
  });

  it('refuses malformed entries', () => {
    for (const bad of [
      '300.1.1.1',
      '10.0.0.1/33',
      '2001:db8::1/129',
      '10.0.0.1/24/1',
      'fe80::1%eth0',
      '010.0.0.1',
      'example.com',
      '10.0.0.1/',
    ]) {
      expect(normaliseIpEntry(bad)).toBeNull();
    }
  });

  it('splits on commas, spaces and newlines, drops duplicates, stores one per line', () => {
    expect(normaliseWhitelist('10.0.0.1, 10.0.0.1\n192.168.1.9/16 ;2001:db8::1')).toEqual({
      ok: true,
      value: '10.0.0.1\n192.168.0.0/16\n2001:db8::1',
    });
    expect(normaliseWhitelist('  ')).toEqual({ ok: true, value: null });
    expect(normaliseWhitelist(undefined)).toEqual({ ok: true, value: null });
    expect(normaliseWhitelist('10.0.0.1, nope')).toEqual({
      ok: false,
      message: "'nope' is not a valid IP address or CIDR range.",
    });
  });

  it('checks every field at once and cleans the optional ones', () => {
    expect(checkAppFields({ app_name: '', project_url: '' })).toEqual({
      ok: false,
      errors: { app_name: ['App Name is required'], project_url: ['Project Url is required'] },
    });
    expect(
      checkAppFields({
        app_name: ' Shop ',
        project_url: 'https://a.example',
        info: ' ',
        callback_url: '',
      }),
    ).toEqual({
      ok: true,
      value: {
        app_name: 'Shop',
        project_url: 'https://a.example',
        whitelist_ip: null,
        callback_url: null,
        info: null,
      },
    });
  });
});

describe('pageOf', () => {
  it('describes a page and points first_page_url at its own list', () => {
    expect(pageOf('app_1', 'receive', [1, 2, 3], 23, 3)).toEqual({
      data: [1, 2, 3],
      current_page: 3,
      last_page: 3,
      per_page: 10,
      from: 21,
      to: 23,
      total: 23,
      first_page_url: urlOf('getAppDetails', { params: { id: 'app_1' }, query: { receive: 1 } }),
    });
    expect(pageOf('app_1', 'daily_logs', [], 0, 1)).toMatchObject({
      last_page: 1,
      from: null,
      to: null,
    });
  });
});
