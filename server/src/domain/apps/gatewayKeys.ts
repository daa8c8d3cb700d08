import { BlockList, isIPv4 } from 'node:net';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';

// What the gateway knows of the API key a request presents. Keys are looked up by the SHA-256
// of the presented text (domain/apps/apiKeys.ts stores only that), so the database never holds one.

/** Shared by the requests presenting the key while its row is kept: read-only. */
export interface GatewayKey {
  readonly id: string;
  readonly appId: string;
  readonly abilities: readonly string[];
  /** The app's whitelist, one canonical address or CIDR per line; null allows any address. */
  readonly whitelist: string | null;
  /** false for a test app's key (csl_test_…): it sees and makes test objects only. */
  readonly livemode: boolean;
}

// Every gateway request asks: prepared.
const liveKey = prepared(
  { tokenHash: '' },
  (db, p) =>
    db
      .selectFrom('api_keys')
      .innerJoin('apps', 'apps.id', 'api_keys.app_id')
      .select([
        'api_keys.id',
        'api_keys.app_id',
        'api_keys.abilities',
        'apps.whitelist_ip',
        'apps.livemode',
      ])
      .where('api_keys.token_hash', '=', p.tokenHash)
      .where('api_keys.revoked_at', 'is', null),
  // Kept under the key's app (db/ownerChanges.ts): revoking the key or changing the app's
  // whitelist names it. An unknown key keeps nothing.
  { ownerOf: (_p, [row]) => row?.app_id },
);

/**
 * The live key whose text hashes to `tokenHash` (apiKeys.ts hashApiKey of what a request
 * presents), or null (unknown, revoked, or its app deleted).
 */
export async function findGatewayKey(db: Db, tokenHash: string): Promise<GatewayKey | null> {
  const [row] = await liveKey(db, { tokenHash });
  return row ? keyOf(row) : null;
}

/** The live key of `tokenHash` if this process keeps it now, else undefined: ask findGatewayKey. */
export function keptGatewayKey(db: Db, tokenHash: string): GatewayKey | undefined {
  const row = liveKey.keptRows(db, { tokenHash })?.[0];
  return row ? keyOf(row) : undefined;
}

type LiveKeyRow = Awaited<ReturnType<typeof liveKey>>[number];

function keyOf(row: LiveKeyRow): GatewayKey {
  let key = keyOfRow.get(row);
  if (!key) {
    const parsed: unknown = JSON.parse(row.abilities);
    key = {
      id: row.id,
      appId: row.app_id,
      abilities: Array.isArray(parsed) ? parsed.filter((a) => typeof a === 'string') : [],
      whitelist: row.whitelist_ip,
      livemode: row.livemode === 1,
    };
    keyOfRow.set(row, key);
  }
  return key;
}

/** A kept row (the same object while it holds) is parsed once. */
const keyOfRow = new WeakMap<object, GatewayKey>();

/** Whether the key holds `ability`; `<resource>:write` implies `<resource>:read`. */
export function keyMay(key: Pick<GatewayKey, 'abilities'>, ability: string): boolean {
  if (key.abilities.includes(ability)) return true;
  const [resource, access] = ability.split(':');
  return access === 'read' && key.abilities.includes(`${resource}:write`);
}

/**
 * Whether the app's whitelist lets `ip` in. An empty list allows any address. An IPv4 client
 * seen as IPv4-mapped IPv6 (`::ffff:203.0.113.7`, as dual-stack sockets report it) matches its
 * IPv4 entries, and the other way round.
 */
export function whitelistAllows(whitelist: string | null, ip: string): boolean {
  if (whitelist === null) return true;
  const parsed = parsedWhitelist(whitelist);
  let allowed = parsed.answers.get(ip);
  if (allowed === undefined) {
    allowed = listAllows(parsed.list, ip);
    if (parsed.answers.size >= MAX_ANSWERS) parsed.answers.clear();
    parsed.answers.set(ip, allowed);
  }
  return allowed;
}

function listAllows(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return list.check(mapped, 'ipv4') || list.check(ip, 'ipv6');
  if (isIPv4(ip)) return list.check(ip, 'ipv4') || list.check(`::ffff:${ip}`, 'ipv6');
  return list.check(ip, 'ipv6');
}

/**
 * Whitelists parsed, by their text, with their answer for each address seen: checked on every
 * gateway request, where a BlockList check built two SocketAddress objects (profiles).
 */
const whitelists = new Map<string, { list: BlockList; answers: Map<string, boolean> }>();
const MAX_WHITELISTS = 1_000;
/**
 * A merchant's servers are a few addresses; past this many the answers start afresh (at most
 * 1,000 × 256 kept in all, a few MB), so a scan from many addresses is answered, just not kept.
 */
const MAX_ANSWERS = 256;

function parsedWhitelist(whitelist: string): { list: BlockList; answers: Map<string, boolean> } {
  let parsed = whitelists.get(whitelist);
  if (parsed) return parsed;
  const list = new BlockList();
  for (const entry of whitelist.split('\n')) {
    const [address = '', prefix] = entry.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  if (whitelists.size >= MAX_WHITELISTS) whitelists.clear();
  parsed = { list, answers: new Map() };
  whitelists.set(whitelist, parsed);
  return parsed;
}

/** A key's use is written at most once a minute: not a database write on every request. */
const TOUCH_EVERY_MS = 60_000;

export async function touchGatewayKey(db: Db, keyId: string, now: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now.toISOString() })
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<=', new Date(now.getTime() - TOUCH_EVERY_MS).toISOString()),
      ]),
    )
    .execute();
}
