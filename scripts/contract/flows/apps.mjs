// The Apps flow: create an app, give it an API key, change the key's permissions, use and
// update a payment method, check that another account sees none of it, revoke the key.
import { randomBytes } from 'node:crypto';
import * as v from '../values.mjs';
import { otherAccount } from './auth.mjs';

/**
 * @typedef {import('./flow.mjs').Flow} Flow
 * @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition
 */
/**
 * @template T
 * @typedef {import('./flow.mjs').Step<T>} Step
 */
/**
 * The answers this flow reads, as the contract declares them.
 * @typedef {{ id: string, app_name: string, status: number }} App
 * @typedef {{ msg: string, app: App, data: App[] }} CreatedApp
 * @typedef {{ data: App[] }} AppList
 * @typedef {{ data: App }} SavedApp
 * @typedef {{ id: string, network_type: string }} PaymentMethod
 * @typedef {{ id: string, payment_method_id: string, collect_address: string,
 *   deposit_status: number }} UserPaymentMethod
 * @typedef {{ data: { app_data: App, all_payment_methods: PaymentMethod[],
 *   user_payment_methods: UserPaymentMethod[] } }} AppDetails
 * @typedef {{ data: { value: string }[] }} PermissionList
 * @typedef {{ id: string, abilities: string[] }} ApiKey
 * @typedef {{ token: string, data: ApiKey }} GeneratedKey
 * @typedef {{ data: ApiKey[] }} KeyList
 */

/** A new app's settings (a random name: reruns against one server must not collide). */
export function appSettings() {
  return {
    app_name: `Contract check ${randomBytes(3).toString('hex')}`,
    project_url: 'https://shop.example.com',
    whitelist_ip: '203.0.113.10',
    callback_url: 'https://shop.example.com/hooks/crypto',
    info: 'Created by the contract check',
  };
}

/**
 * Creates an app of the tool's own account and checks it is listed as new (Not Ready); skips
 * the flow when the server refuses on business grounds (e.g. the package's app limit).
 * @param {Flow} f @param {ReturnType<typeof appSettings>} settings
 */
export async function createOwnApp(f, settings) {
  /** @type {Step<CreatedApp>} */
  const created = await f.step('createApp', { json: settings }, [200, 422]);
  if (created.res.status === 422) f.skip(`createApp refused: ${created.json?.msg}`);
  const app = created.json?.app;
  f.expect(
    app?.status === 0,
    `a new app has status ${app?.status}, expected 0 (Not Ready)`,
    created,
  );
  f.expect(
    (created.json?.data ?? []).some((a) => a?.id === app?.id),
    'createApp data does not list the new app',
    created,
  );
  return app;
}

/** The permission values listTokenPermissions offers; skips the flow when there is none. @param {Flow} f */
export async function permissionValues(f) {
  /** @type {Step<PermissionList>} */
  const permissions = await f.step('listTokenPermissions', {}, 200);
  const values = (permissions.json?.data ?? [])
    .map((p) => p?.value)
    .filter((x) => typeof x === 'string');
  if (values.length === 0) f.skip('listTokenPermissions offers no permission');
  return values;
}

/**
 * A new API key of `appId` holding `abilities`; its secret joins the secrets never printed.
 * @param {Flow} f @param {string} appId @param {string[]} abilities @param {string} name
 */
export async function generateKey(f, appId, abilities, name) {
  /** @type {Step<GeneratedKey>} */
  const generated = await f.step(
    'generateApiKey',
    { json: { token_name: name, app_id: appId, abilities } },
    200,
  );
  const secret = generated.json?.token;
  if (typeof secret === 'string' && secret) f.runner.transport.secrets.add(secret);
  f.expect(
    JSON.stringify([...(generated.json?.data?.abilities ?? [])].sort()) ===
      JSON.stringify([...abilities].sort()),
    `the new key has abilities ${JSON.stringify(generated.json?.data?.abilities)}, expected ${JSON.stringify(abilities)}`,
    generated,
  );
  return { secret, keyId: generated.json?.data?.id, generated };
}

/** @type {FlowDefinition} */
export const appKeysAndPermissions = {
  name: 'create app -> API key -> permissions -> revoke',
  ops: [
    'getApps',
    'createApp',
    'getAppDetails',
    'listTokenPermissions',
    'generateApiKey',
    'listTokens',
    'updatePermissions',
    'revokeToken',
    'updateApp',
    'usePaymentMethod',
    'updatePaymentMethod',
  ],
  needs: (r) => (r.session ? null : 'no session (pass --token or --register)'),
  /** @param {Flow} f */
  async run(f) {
    const r = f.runner;
    await f.step('getApps', {}, 200);
    const settings = appSettings();
    const app = await createOwnApp(f, settings);
    /** @type {Step<AppList>} */
    const apps = await f.step('getApps', {}, 200);
    f.expect(
      (apps.json?.data ?? []).some((a) => a?.id === app?.id),
      `getApps does not list the new app ${app?.id}`,
      apps,
    );
    /** @type {Step<AppDetails>} */
    const details = await f.step('getAppDetails', { path: { id: app.id } }, 200);
    f.expect(
      details.json?.data?.app_data?.id === app.id,
      'getAppDetails answers another app',
      details,
    );
    const values = await permissionValues(f);
    const { secret, keyId } = await generateKey(
      f,
      app.id,
      values.slice(0, 1),
      'contract check key',
    );
    /** @type {Step<KeyList>} */
    const keys = await f.step('listTokens', { path: { appid: app.id } }, 200);
    f.expect(
      (keys.json?.data ?? []).some((k) => k?.id === keyId),
      `listTokens does not list the new key ${keyId}`,
      keys,
    );
    f.expect(
      !secret || !keys.res.text.includes(secret),
      'listTokens shows the key secret again (it is shown once)',
      keys,
    );
    const abilities = values.length > 1 ? values.slice(1) : values;
    await f.step(
      'updatePermissions',
      { path: { tokenId: keyId }, json: { abilities, app_id: app.id } },
      200,
    );
    /** @type {Step<KeyList>} */
    const updated = await f.step('listTokens', { path: { appid: app.id } }, 200);
    const key = (updated.json?.data ?? []).find((k) => k?.id === keyId);
    f.expect(
      JSON.stringify([...(key?.abilities ?? [])].sort()) === JSON.stringify([...abilities].sort()),
      `after updatePermissions the key has ${JSON.stringify(key?.abilities)}, expected ${JSON.stringify(abilities)}`,
      updated,
    );
    f.expect(
      !secret || !updated.res.text.includes(secret),
      'listTokens shows the key secret again (it is shown once)',
      updated,
    );
    await f.step(
      'updatePermissions',
      {
        path: { tokenId: keyId },
        json: { abilities: ['contract.unknown-permission'], app_id: app.id },
      },
      422,
    );
    const renamed = `${settings.app_name} renamed`;
    /** @type {Step<SavedApp>} */
    const saved = await f.step(
      'updateApp',
      { json: { ...settings, app_id: app.id, app_name: renamed, status: 0 } },
      200,
    );
    f.expect(
      saved.json?.data?.app_name === renamed,
      `updateApp answers app_name ${saved.json?.data?.app_name}`,
      saved,
    );

    const methods = details.json?.data?.all_payment_methods ?? [];
    const method = methods.find((m) => m?.network_type === 'EVM') ?? methods[0];
    if (method) {
      const evm = method.network_type === 'EVM';
      const address = f.sample(evm ? v.evmAddress : v.tronAddress);
      await f.step(
        'usePaymentMethod',
        { json: { payment_method_id: method.id, collect_address: address, user_app_id: app.id } },
        200,
      );
      await f.step(
        'usePaymentMethod',
        { json: { payment_method_id: method.id, collect_address: address, user_app_id: app.id } },
        409,
      );
      /** @type {Step<AppDetails>} */
      const using = await f.step('getAppDetails', { path: { id: app.id } }, 200);
      const use = (using.json?.data?.user_payment_methods ?? []).find(
        (u) => u?.payment_method_id === method.id,
      );
      f.expect(
        Boolean(use),
        `getAppDetails does not list payment method ${method.id} as used`,
        using,
      );
      if (use) {
        await f.step(
          'updatePaymentMethod',
          { json: { id: use.id, user_app_id: app.id, type: 'deposit_status', status: 0 } },
          200,
        );
        const wrong = f.sample(evm ? v.tronAddress : v.evmAddress);
        await f.step(
          'updatePaymentMethod',
          { json: { id: use.id, user_app_id: app.id, type: 'address', collect_address: wrong } },
          422,
        );
        const payout = f.sample(evm ? v.evmAddress : v.tronAddress);
        await f.step(
          'updatePaymentMethod',
          { json: { id: use.id, user_app_id: app.id, type: 'address', collect_address: payout } },
          200,
        );
        /** @type {Step<AppDetails>} */
        const changed = await f.step('getAppDetails', { path: { id: app.id } }, 200);
        const now = (changed.json?.data?.user_payment_methods ?? []).find((u) => u?.id === use.id);
        f.expect(
          now?.deposit_status === 0,
          `deposit_status is ${now?.deposit_status} after switching it off`,
          changed,
        );
        f.expect(
          String(now?.collect_address).toLowerCase() === payout.toLowerCase(),
          `collect_address is ${now?.collect_address}, expected ${payout}`,
          changed,
        );
      }
    }

    if (!r.registered) return; // revoking is x-destructive: only on the --register account's data

    // Another account sees none of it and cannot change it (404, never told apart).
    const other = (await otherAccount(f)).session;
    await f.step('getAppDetails', { path: { id: app.id }, bearer: other }, 404);
    await f.step('listTokens', { path: { appid: app.id }, bearer: other }, 404);
    const foreignKey = { token_name: 'not mine', app_id: app.id, abilities: [values[0]] };
    await f.step('generateApiKey', { json: foreignKey, bearer: other }, 404);
    await f.step('revokeToken', { path: { tokenId: keyId, appid: app.id }, bearer: other }, 404);
    /** @type {Step<KeyList>} */
    const untouched = await f.step('listTokens', { path: { appid: app.id } }, 200);
    f.expect(
      (untouched.json?.data ?? []).some((k) => k?.id === keyId),
      `another account's revokeToken removed key ${keyId}`,
      untouched,
    );
    /** @type {Step<AppList>} */
    const otherApps = await f.step('getApps', { bearer: other }, 200);
    f.expect(
      !(otherApps.json?.data ?? []).some((a) => a?.id === app.id),
      `another account's getApps lists app ${app.id}`,
      otherApps,
    );

    await f.step('revokeToken', { path: { tokenId: keyId, appid: app.id } }, 200);
    /** @type {Step<KeyList>} */
    const after = await f.step('listTokens', { path: { appid: app.id } }, 200);
    f.expect(
      !(after.json?.data ?? []).some((k) => k?.id === keyId),
      `listTokens still lists the revoked key ${keyId}`,
      after,
    );
    await f.step('revokeToken', { path: { tokenId: keyId, appid: app.id } }, 404);
  },
};
