import { isIP } from 'node:net';
import { codedMessages } from '../messageCodes';

// An app's IP whitelist: entries in canonical form (CIDR host bits cleared), IPv4 and IPv6.

const WHITELIST_MSG = codedMessages('whitelist', {
  invalidIp: (entry: string) => `'${entry}' is not a valid IP address or CIDR range.`,
  tooManyIps: `The IP whitelist may hold at most 100 entries.`,
} as const);

const MAX_WHITELIST_ENTRIES = 100;

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigIntToIpv4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => ((n >> shift) & 255n).toString()).join('.');
}

function expandIpv6(ip: string): bigint {
  // The WHATWG URL parser canonicalises IPv6 (including embedded IPv4) into hex groups.
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function bigIntToIpv6(n: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i -= 1) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** One whitelist entry in canonical form (CIDR host bits cleared), or null when invalid. */
export function normaliseIpEntry(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined || address.includes('%')) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const bits = version === 4 ? 32 : 128;
  const value = version === 4 ? ipv4ToBigInt(address) : expandIpv6(address);
  const render = version === 4 ? bigIntToIpv4 : bigIntToIpv6;
  if (prefix === undefined) return render(value);
  if (!/^\d{1,3}$/.test(prefix)) return null;
  const length = Number(prefix);
  if (length > bits) return null;
  const hostBits = BigInt(bits - length);
  const network = (value >> hostBits) << hostBits;
  return `${render(network)}/${length}`;
}

/**
 * The whitelist as entered (commas, spaces or newlines between entries) -> the stored form:
 * canonical entries, duplicates dropped, one per line; null for an empty list (any address).
 */
export function normaliseWhitelist(
  raw: string | undefined,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const entries = (raw ?? '').split(/[\s,;]+/).filter((e) => e !== '');
  if (entries.length === 0) return { ok: true, value: null };
  if (entries.length > MAX_WHITELIST_ENTRIES)
    return { ok: false, message: WHITELIST_MSG.tooManyIps };
  const out: string[] = [];
  for (const entry of entries) {
    const normal = normaliseIpEntry(entry);
    if (normal === null) return { ok: false, message: WHITELIST_MSG.invalidIp(entry) };
    if (!out.includes(normal)) out.push(normal);
  }
  return { ok: true, value: out.join('\n') };
}
