import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection';
import type { components } from '../../generated/portal.gen';
import { recordAccountEvent, type ClientInfo } from '../account/events';
import { ownedApp } from './apps';
import { InvalidError, NotFoundError, fieldInvalid, type FieldErrors } from '../errors';
import { base32, newId } from '../ids';

type ApiKey = components['schemas']['ApiKey'];
import { ABILITY_TITLES, APP_MESSAGES, type AbilityId } from '../../../../src/shared/apps';
import { codedMessages } from '../messageCodes';

// API keys of merchant apps. The plaintext is shown once (generate-apikey's answer); the database
// keeps only its sha256 and a short prefix, enough for the gateway API to look a presented key
// up by hash (gatewayKeys.ts) and for people to recognise a key in logs.

/**
 * What a key may do on the gateway API; `value` is what `abilities` stores, `title` the English
 * the portal shows (src/shared/apps.ts, which the client's catalogues translate by `value`). A
 * `:write` ability implies its `:read` (the gateway checks with `keyMay`).
 */
export const TOKEN_PERMISSIONS = (Object.keys(ABILITY_TITLES) as AbilityId[]).map((value) => ({
  title: ABILITY_TITLES[value],
  value,
}));

const KEY_MSG = codedMessages('apiKey', {
  nameRequired: APP_MESSAGES.keyNameRequired,
  minOnePermission: APP_MESSAGES.minOnePermission,
  unknownPermission: (value: string) => `'${value}' is not an available permission.`,
} as const);

/**
 * Recognisable in logs and by secret scanners, like `sk_live_` and `sk_test_` keys elsewhere: a
 * live app's keys, and a test app's (test mode).
 */
export const KEY_PREFIX = { live: 'csl_live_', test: 'csl_test_' } as const;
const PREFIX_SHOWN = KEY_PREFIX.live.length + 6;

// One-shot, as sessions.ts's hashToken: every gateway request hashes its key.
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key: 160 random bits after the prefix. */
export function newApiKey(livemode = true): { key: string; hash: string; prefix: string } {
  const key = `${livemode ? KEY_PREFIX.live : KEY_PREFIX.test}${base32(randomBytes(20))}`;
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

function parseAbilities(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

function keyView(row: {
  id: string;
  token_name: string;
  created_at: string;
  abilities: string;
}): ApiKey {
  return {
    id: row.id,
    token_name: row.token_name,
    created_at: row.created_at,
    abilities: parseAbilities(row.abilities),
  };
}

/** The app's keys that are not revoked, newest first. */
export async function listApiKeys(db: Db, userId: string, appId: string): Promise<ApiKey[]> {
  const app = await ownedApp(db, userId, appId);
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'token_name', 'created_at', 'abilities'])
    .where('app_id', '=', app.id)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(keyView);
}

/** A new key of the app: its plaintext (shown this once) and the stored key. */
export async function generateApiKey(
  db: Db,
  userId: string,
  input: components['schemas']['GenerateApiKeyRequest'],
  nowIso: string,
  client?: ClientInfo,
): Promise<{ token: string; key: ApiKey }> {
  const app = await ownedApp(db, userId, input.app_id);
  const name = input.token_name.trim();
  const abilities = checkAbilities(input.abilities);
  const errors: FieldErrors = {};
  if (name === '') errors.token_name = [KEY_MSG.nameRequired];
  if (!abilities.ok) errors.abilities = [abilities.message];
  if (!abilities.ok || name === '') throw new InvalidError(undefined, errors);
  const { key, hash, prefix } = newApiKey(app.livemode === 1);
  const row = {
    id: newId('key'),
    app_id: app.id,
    token_name: name,
    token_hash: hash,
    token_prefix: prefix,
    abilities: JSON.stringify(abilities.value),
    created_at: nowIso,
    revoked_at: null,
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('api_keys').values(row).execute();
    const details = { key_name: name, app_name: app.app_name };
    await recordAccountEvent(trx, userId, 'api_key_created', details, { client, at: nowIso });
  });
  return { token: key, key: keyView(row) };
}

/** A key of the user's app that is not revoked (another account's is as unknown as none). */
async function liveKey(db: Db, userId: string, appId: string, keyId: string) {
  const app = await ownedApp(db, userId, appId);
  const key = await db
    .selectFrom('api_keys')
    .select(['id', 'token_name'])
    .where('id', '=', keyId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!key) throw new NotFoundError();
  return { id: key.id, name: key.token_name, appName: app.app_name };
}

export async function revokeApiKey(
  db: Db,
  userId: string,
  appId: string,
  keyId: string,
  nowIso: string,
  client?: ClientInfo,
): Promise<void> {
  const key = await liveKey(db, userId, appId, keyId);
  await db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('api_keys')
      .set({ revoked_at: nowIso })
      .where('id', '=', key.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // Two revokes racing: only the one that revoked it tells the bell.
    if (revoked.numUpdatedRows === 0n) return;
    const details = { key_name: key.name, app_name: key.appName };
    await recordAccountEvent(trx, userId, 'api_key_revoked', details, { client, at: nowIso });
  });
}

export async function setApiKeyAbilities(
  db: Db,
  userId: string,
  appId: string,
  keyId: string,
  requested: readonly string[],
): Promise<void> {
  const { id } = await liveKey(db, userId, appId, keyId);
  const abilities = checkAbilities(requested);
  if (!abilities.ok) throw fieldInvalid('abilities', abilities.message);
  await db
    .updateTable('api_keys')
    .set({ abilities: JSON.stringify(abilities.value) })
    .where('id', '=', id)
    .execute();
}
