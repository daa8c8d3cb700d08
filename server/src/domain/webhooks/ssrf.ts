import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fieldInvalid } from '../errors';

// Where a webhook may go. A Webhook URl is the merchant's input, and the server POSTs to it:
// without a guard it would reach the server's own network (loopback, the private ranges, the
// cloud metadata service). The host is checked when the URl is saved and again at send time,
// against the very address the connection then uses (delivery.ts pins it), so a name that
// resolves elsewhere later (DNS rebinding) is still refused. Addresses are classified by
// ipaddr.js's ranges, a maintained list, and only global unicast is let through: a list of what to
// refuse is never complete (IPv4 hides in IPv6 in many ways).

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

/** ipaddr.js's names of the special ranges, in the words of the refusal. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  reserved: 'reserved',
  benchmarking: 'benchmarking',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
  teredo: 'Teredo',
};

/** NAT64's well-known prefix 64:ff9b::/96 (RFC 6052): the IPv4 it embeds is the destination. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IPv6's global unicast space (IANA): ipaddr.js calls everything it has no name for unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** ::a.b.c.d, the deprecated IPv4-compatible form (RFC 4291): ipaddr.js has no name for it. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * IPv6 text in the WHATWG URL parser's form (hex groups only, zone id dropped), or null when it
 * is not IPv6. ipaddr.js reads a dotted tail as IPv4-mapped whatever precedes it (`::127.0.0.1`
 * became `::ffff:7f00:1`), so it is only given this form.
 */
function canonicalIpv6(ip: string): string | null {
  const bare = ip.replace(/%[^%]*$/, '');
  if (isIP(bare) !== 6) return null;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

function forbiddenIpv4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  if (range === 'unicast') return null;
  if (range === 'linkLocal') return 'link-local / metadata';
  return RANGE_WORDS[range] ?? `reserved (${range})`;
}

/**
 * Why `ip` (an IP literal) may not receive webhooks, or null when it may. Only global unicast
 * may: ipaddr.js's `unicast` range for IPv4, and for IPv6 that range within 2000::/3. IPv4 in
 * IPv6 is judged as that IPv4 where it is the destination (mapped `::ffff:127.0.0.1`, NAT64's
 * well-known prefix); every other embedding (IPv4-compatible, IPv4-translated, NAT64's local-use
 * prefix, 6to4, Teredo) is refused outright.
 */
export function forbiddenAddress(ip: string): string | null {
  if (isIP(ip) === 4) return forbiddenIpv4(ipaddr.IPv4.parse(ip));
  const canonical = canonicalIpv6(ip);
  if (canonical === null || !ipaddr.IPv6.isValid(canonical)) return 'not an IP address';
  const address = ipaddr.IPv6.parse(canonical);
  const range = address.range();
  if (range === 'ipv4Mapped') return forbiddenIpv4(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) return forbiddenIpv4(embeddedIpv4(address));
  if (range === 'rfc6052') return 'NAT64 (local use)';
  if (range === 'linkLocal') return 'link-local';
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `reserved (${range})`;
  if (address.match(IPV4_COMPATIBLE)) return 'IPv4-compatible';
  if (!address.match(GLOBAL_UNICAST_V6)) return 'not global unicast';
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
