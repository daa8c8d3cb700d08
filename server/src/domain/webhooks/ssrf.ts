import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fieldInvalid } from '../errors';

// Where a webhook may go. A Webhook URl is the merchant's input, and the server POSTs to it:
// without a guard it would reach the server's own network (loopback, the private ranges, the
// cloud metadata service). The host is checked when the URl is saved and again at send time,
// against the very address the connection then uses (delivery.ts pins it), so a name that
// resolves elsewhere later (DNS rebinding) is still refused.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name -> addresses; injectable so tests can rebind a name between save and send. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: local development and tests only. */
  allowPrivate: boolean;
  resolve: Resolver;
}

/** [first address, prefix length, what it is] */
const FORBIDDEN_V4: [number, number, string][] = [
  [ipv4ToInt('0.0.0.0'), 8, 'unspecified'],
  [ipv4ToInt('10.0.0.0'), 8, 'private'],
  [ipv4ToInt('100.64.0.0'), 10, 'shared (carrier-grade NAT)'],
  [ipv4ToInt('127.0.0.0'), 8, 'loopback'],
  [ipv4ToInt('169.254.0.0'), 16, 'link-local / metadata'],
  [ipv4ToInt('172.16.0.0'), 12, 'private'],
  [ipv4ToInt('192.0.0.0'), 24, 'reserved'],
  [ipv4ToInt('192.168.0.0'), 16, 'private'],
  [ipv4ToInt('198.18.0.0'), 15, 'benchmarking'],
  [ipv4ToInt('224.0.0.0'), 4, 'multicast'],
  [ipv4ToInt('240.0.0.0'), 4, 'reserved'],
];

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inV4(value: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits);
  return value >= base && value < base + size;
}

/** 8 groups of 16 bits, or null when `ip` is not IPv6 text. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail !== undefined) {
    const v = ipv4ToInt(tail);
    text = `${text.slice(0, -tail.length)}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head = '', rest, extra] = text.split('::');
  if (extra !== undefined) return null;
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...right];
  const parsed = groups.map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  return parsed.some(Number.isNaN) ? null : parsed;
}

/**
 * Why `ip` (an IP literal) may not receive webhooks, or null when it may. IPv4 embedded in
 * IPv6 (mapped `::ffff:127.0.0.1`, compatible, NAT64 64:ff9b::/96) is judged as that IPv4.
 */
export function forbiddenAddress(ip: string): string | null {
  if (isIP(ip) === 4) {
    const value = ipv4ToInt(ip);
    if (value === 0xffffffff) return 'broadcast';
    return FORBIDDEN_V4.find(([base, bits]) => inV4(value, base, bits))?.[2] ?? null;
  }
  const g = ipv6Groups(ip);
  if (!g) return 'not an IP address';
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  const embedded = () => `${g6 >> 8}.${g6 & 255}.${h >> 8}.${h & 255}`;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && h === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64).
  if (
    (zeroTo(5) && f === 0xffff) ||
    zeroTo(6) ||
    (a === 0x64 && b === 0xff9b && !c && !d && !e && !f)
  ) {
    return forbiddenAddress(embedded());
  }
  if ((a & 0xfe00) === 0xfc00) return 'unique-local';
  if ((a & 0xffc0) === 0xfe80) return 'link-local';
  if ((a & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/** The host of an http(s) URL as the WHATWG parser normalises it (0x7f000001 -> 127.0.0.1). */
export function urlHost(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Saving does not wait longer than this for DNS (an offline machine): send time checks again. */
const SAVE_LOOKUP_MS = 3_000;
const SEND_LOOKUP_MS = 5_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), ms);
    timer.unref();
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

const refusalMessage = (address: string, kind: string) =>
  `Webhook URl must reach a public address: ${address} is ${kind}.`;

/**
 * Checks a Webhook URl when it is saved: refused (a field error on callback_url) when its host
 * is, or resolves to, a forbidden address. A name that does not resolve now (no network) is
 * accepted: the send-time check still applies.
 */
export async function assertWebhookUrlAllowed(
  url: string | null | undefined,
  policy: TargetPolicy,
): Promise<void> {
  if (policy.allowPrivate || !url || !URL.canParse(url.trim())) return;
  const host = urlHost(url.trim());
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await withTimeout(policy.resolve(host), SAVE_LOOKUP_MS);
    } catch {
      return;
    }
  }
  for (const { address } of addresses) {
    const kind = forbiddenAddress(address);
    if (kind) throw fieldInvalid('callback_url', refusalMessage(address, kind));
  }
}

/**
 * The address to connect to for `host` at send time, or the reason not to: every address the
 * name resolves to must be allowed (the caller connects to the one answered, never resolving
 * again).
 */
export async function pickTarget(
  host: string,
  policy: TargetPolicy,
): Promise<{ ok: true; target: ResolvedAddress } | { ok: false; reason: string }> {
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      // Part of the delivery's 10 s: a resolver that does not answer fails the attempt.
      addresses = await withTimeout(policy.resolve(host), SEND_LOOKUP_MS);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, reason: `DNS lookup of ${host} failed: ${why}` };
    }
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: `${host} has no address` };
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const kind = forbiddenAddress(address);
      if (kind) return { ok: false, reason: refusalMessage(address, kind) };
    }
  }
  return { ok: true, target: first };
}
