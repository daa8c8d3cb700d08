import { createHash, randomBytes } from 'node:crypto';
import { base32 } from './ids';
import { APP_MESSAGES } from '../../../shared/apps';

// API keys of merchant apps. The plaintext is shown once (generate-apikey's answer); the database
// keeps only its sha256 and a short prefix, enough for the gateway API (later work) to look a
// presented key up by hash and for people to recognise a key in logs.

/** What a key may do on the gateway API; `value` is what `abilities` stores. */
export const TOKEN_PERMISSIONS = [
  { title: 'Create deposit addresses', value: 'address.create' },
  { title: 'Read deposits', value: 'deposit.read' },
  { title: 'Create withdrawals', value: 'withdraw.create' },
  { title: 'Read withdrawals', value: 'withdraw.read' },
  { title: 'Read balances', value: 'balance.read' },
] as const;

export const KEY_MSG = {
  nameRequired: APP_MESSAGES.keyNameRequired,
  minOnePermission: APP_MESSAGES.minOnePermission,
  unknownPermission: (value: string) => `'${value}' is not an available permission.`,
} as const;

/** Recognisable in logs and by secret scanners, like `sk_live_` keys elsewhere. */
export const KEY_PREFIX = 'csl_live_';
const PREFIX_SHOWN = KEY_PREFIX.length + 6;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new key: 160 random bits after the prefix. */
export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${KEY_PREFIX}${base32(randomBytes(20))}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, PREFIX_SHOWN) };
}

/** Abilities as sent -> the stored list in the order of TOKEN_PERMISSIONS, or the first error. */
export function checkAbilities(
  abilities: readonly string[],
): { ok: true; value: string[] } | { ok: false; message: string } {
  if (abilities.length === 0) return { ok: false, message: KEY_MSG.minOnePermission };
  const known: readonly string[] = TOKEN_PERMISSIONS.map((p) => p.value);
  const unknown = abilities.find((a) => !known.includes(a));
  if (unknown !== undefined) return { ok: false, message: KEY_MSG.unknownPermission(unknown) };
  return { ok: true, value: known.filter((v) => abilities.includes(v)) };
}

export function parseAbilities(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}
