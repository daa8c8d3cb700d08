import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, IPv4 tail folded in). */
function ipv6Groups(ip: string): number[] {
  let text = (ip.split('%')[0] ?? '').toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/**
 * The client a brute-force brake counts an address against. An IPv4 client seen as IPv4-mapped
 * IPv6 is its IPv4 address. An IPv6 client is its /64: one subscriber or host is routed a whole
 * /64, so counting single addresses would give an attacker 2^64 fresh budgets.
 */
export function brakeAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const network = ipv6Groups(ip)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':');
  return `${network}::/64`;
}
