// Stateful flows written as sequences over operationIds: each step's answer feeds the next.
// Every answer also goes through the generic checks; a step whose outcome breaks the
// contract's description fails the flow (and later steps that depend on it are not run).
import { exec } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { shellQuote } from './http.mjs';
import { isObject } from './spec.mjs';
import * as v from './values.mjs';

/**
 * @typedef {import('./runner.mjs').Runner} Runner
 * @typedef {import('./runner.mjs').Call} Call
 * @typedef {import('./runner.mjs').FlowResult} FlowResult
 * @typedef {import('./spec.mjs').Operation} Operation
 * @typedef {import('./arbitraries.mjs').RequestSpec} RequestSpec
 * @typedef {import('./arbitraries.mjs').Body} Body
 * @typedef {{ path?: Record<string, string>, query?: Record<string, string>, json?: unknown,
 *   body?: Body, auth?: 'session' | 'none', bearer?: string | null }} StepInput
 * @typedef {{ name: string, ops: string[], needs: (r: Runner) => string | null,
 *   run: (f: Flow) => Promise<void> }} FlowDefinition
 */

class Abort extends Error {}

/** One running flow: sends steps, checks them, records failures under the flow's name. */
export class Flow {
  /** @param {Runner} runner @param {string} name */
  constructor(runner, name) {
    this.runner = runner;
    this.name = name;
    this.steps = 0;
    this.failed = false;
    /** @type {string | null} */
    this.skipReason = null;
    this.seed = runner.options.seed;
  }

  /**
   * Sends one step. `expect` is the status (or statuses) the contract promises for it; any
   * other status ends the flow.
   * @param {string} operationId @param {StepInput} input @param {number | number[]} expect
   * @returns {Promise<Call & { op: Operation, json: any }>}
   */
  async step(operationId, input, expect) {
    this.steps += 1;
    const op = this.runner.op(operationId);
    /** @type {RequestSpec} */
    const req = {
      path: input.path ?? {},
      query: input.query ?? {},
      body: input.body ?? (input.json === undefined ? null : { kind: 'json', value: input.json }),
      auth: input.auth ?? 'session',
    };
    if (input.bearer !== undefined)
      req.authHeader = input.bearer === null ? undefined : `Bearer ${input.bearer}`;
    if (input.bearer === null) req.auth = 'none';
    const call = await this.runner.call(op, req, 'valid');
    const where = `flow "${this.name}", step ${this.steps} (${operationId})`;
    for (const problem of call.problems) {
      this.failed = true;
      this.runner.fail(where, op, 'flow', problem, call, { flow: this.name });
    }
    const wanted = Array.isArray(expect) ? expect : [expect];
    if (!wanted.includes(call.res.status)) {
      this.failed = true;
      this.runner.fail(
        where,
        op,
        'flow',
        { kind: 'flow', message: `expected ${wanted.join(' or ')}, got ${call.res.status}` },
        call,
        { flow: this.name },
      );
      throw new Abort();
    }
    return { ...call, op, json: call.res.json };
  }

  /**
   * A promise of the contract about an answer; breaking it fails the flow but lets it go on.
   * @param {boolean} ok @param {string} message @param {Call & { op: Operation }} call
   */
  expect(ok, message, call) {
    if (ok) return;
    this.failed = true;
    this.runner.fail(
      `flow "${this.name}", after step ${this.steps}`,
      call.op,
      'flow',
      { kind: 'flow', message },
      call,
      {
        flow: this.name,
      },
    );
  }

  /** Ends the flow early as skipped (a precondition the server refused on business grounds). @param {string} reason */
  skip(reason) {
    this.skipReason = reason;
    throw new Abort();
  }

  /** A realistic value, reproducible from the run's seed. @template T @param {fc.Arbitrary<T>} arbitrary */
  sample(arbitrary) {
    this.seed += 1;
    return /** @type {T} */ (fc.sample(arbitrary, { numRuns: 1, seed: this.seed })[0]);
  }
}

/** @param {unknown} a @param {unknown} b */
const near = (a, b) => typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-6;
/** @param {unknown} status */
const truthy = (status) => status === true || status === 1 || status === 'success';
/** @param {string} type @param {import('./values.mjs').FilePart} file @returns {Body} */
const upload = (type, file) => ({ kind: 'multipart', fields: {}, files: { [type]: file } });

/** Runs `command` with {username} and {amount} filled in (shell-quoted). @param {string} command @param {Record<string, string>} values */
function runFund(command, values) {
  const filled = command.replace(/\{(username|amount)\}/g, (_, key) =>
    shellQuote(values[key] ?? ''),
  );
  return new Promise((resolve) => {
    exec(filled, { timeout: 60_000, env: process.env }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim(), command: filled });
    });
  });
}

/** A fresh identity for a throwaway account (random: reruns against one server must not collide). */
function newAccount() {
  const suffix = randomBytes(5).toString('hex');
  return {
    username: `cc_${suffix}`,
    email: `cc_${suffix}@contract-check.example`,
    password: `Cc-${randomBytes(6).toString('hex')}!9`,
    pin: String(randomInt(0, 10_000)).padStart(4, '0'),
  };
}

/** @param {import('./runner.mjs').Account} account @param {string} country */
function registration(account, country) {
  return {
    name: 'Contract Check',
    username: account.username,
    email: account.email,
    sponsor_id: '',
    password: account.password,
    spassword: account.pin,
    country,
    phone: `91${String(randomInt(0, 1e9)).padStart(10, '0')}`,
    is_checked: 1,
  };
}

/**
 * A second throwaway account (signed up once per run) to check that one account never sees
 * or changes another's data.
 * @param {Flow} f
 */
async function otherAccount(f) {
  const r = f.runner;
  if (r.other) return r.other;
  const account = newAccount();
  await f.step('register', { json: registration(account, r.country), auth: 'none' }, 200);
  const credentials = { username: account.username, password: account.password };
  const step = await f.step('preLogin', { json: credentials, auth: 'none' }, 200);
  r.transport.secrets.add(step.json.token);
  const login = await f.step(
    'login',
    { json: { ...credentials, mpin: account.pin }, bearer: step.json.token },
    200,
  );
  r.transport.secrets.add(login.json.token);
  r.other = { account, session: login.json.token };
  return r.other;
}

/** @type {FlowDefinition[]} */
export const FLOWS = [
  {
    name: 'sign-up and two-step sign-in',
    ops: ['listCountries', 'checkUsername', 'register', 'preLogin', 'login', 'getDashboard'],
    needs: (r) => (r.options.register ? null : 'needs --register'),
    async run(f) {
      const r = f.runner;
      const countries = await f.step('listCountries', { auth: 'none' }, 200);
      const ids = Array.isArray(countries.json?.data) ? countries.json.data.map((c) => c?.id) : [];
      f.expect(ids.length > 0, 'listCountries lists no country to sign up with', countries);
      const country = ids.includes('IN') ? 'IN' : (ids[0] ?? 'IN');
      r.country = country;
      const account = newAccount();
      const free = await f.step(
        'checkUsername',
        { path: { username: account.username }, auth: 'none' },
        200,
      );
      f.expect(
        truthy(free.json?.status),
        `checkUsername says the fresh username ${account.username} is taken`,
        free,
      );
      const signUp = registration(account, country);
      await f.step('register', { json: signUp, auth: 'none' }, 200);
      const taken = await f.step(
        'checkUsername',
        { path: { username: account.username }, auth: 'none' },
        200,
      );
      f.expect(
        !truthy(taken.json?.status),
        'checkUsername says a registered username is available',
        taken,
      );
      await f.step('register', { json: signUp, auth: 'none' }, 422);
      await f.step(
        'preLogin',
        { json: { username: account.username, password: `${account.password}x` }, auth: 'none' },
        422,
      );
      const first = await f.step(
        'preLogin',
        { json: { username: account.username, password: account.password }, auth: 'none' },
        200,
      );
      f.expect(
        first.json?.auth_type === 'mpin',
        `a new account's auth_type is ${first.json?.auth_type}, expected mpin`,
        first,
      );
      r.transport.secrets.add(first.json.token);
      const wrongPin = String((Number(account.pin) + 1) % 10_000).padStart(4, '0');
      const credentials = { username: account.username, password: account.password };
      await f.step(
        'login',
        { json: { ...credentials, mpin: wrongPin }, bearer: first.json.token },
        422,
      );
      // Only a successful sign-in spends the step token: the corrected pin goes with the same one.
      const login = await f.step(
        'login',
        { json: { ...credentials, mpin: account.pin }, bearer: first.json.token },
        200,
      );
      const session = login.json?.token;
      r.transport.secrets.add(session);
      f.expect(login.json?.username === account.username, 'login answers another username', login);
      f.expect(
        login.json?.profile?.email === account.email,
        'login answers a profile with another e-mail',
        login,
      );
      r.account = account;
      r.session = session;
      r.registered = true;
      r.options.log(`  account ${account.username} (registered by this run)`);
      const loginOp = r.op('login');
      await f.step(
        'login',
        { json: { ...credentials, mpin: account.pin }, bearer: first.json.token },
        '401' in loginOp.responses ? 401 : 422,
      );
      const third = await f.step('preLogin', { json: credentials, auth: 'none' }, 200);
      r.transport.secrets.add(third.json.token);
      await f.step('getDashboard', { bearer: third.json.token }, 401);
      await f.step('getDashboard', {}, 200);
    },
  },
  {
    name: 'sign-out',
    ops: ['logout'],
    needs: (r) => (r.account ? null : 'needs --register'),
    async run(f) {
      const r = f.runner;
      const other = await r.freshSession();
      if (!other) {
        f.failed = true;
        f.skip('could not open a second session (preLogin + login failed)');
      }
      await f.step('logout', { bearer: other }, 200);
      await f.step('getDashboard', { bearer: other }, 401);
      await f.step('logout', { bearer: other }, 401);
      await f.step('getDashboard', {}, 200);
    },
  },
  {
    name: 'purchase -> history -> cancel',
    ops: [
      'listPackages',
      'purchasePackage',
      'listSubscriptions',
      'cancelSubscription',
      'getBalance',
      'syncBalance',
    ],
    needs: (r) => {
      if (!r.account) return 'needs --register';
      return r.options.fund ? null : 'needs --fund to pay for a package';
    },
    async run(f) {
      const r = f.runner;
      const account = /** @type {import('./runner.mjs').Account} */ (r.account);
      const listed = await f.step('listPackages', {}, 200);
      const packages = [...(listed.json?.data ?? [])].sort((a, b) => a.price - b.price);
      if (packages.length === 0) f.skip('listPackages lists no package');
      const cheapest = packages[0];
      const roomiest = [...packages].sort(
        (a, b) => b.app_count - a.app_count || a.price - b.price,
      )[0];
      const before = (await f.step('getBalance', {}, 200)).json?.data?.payInBalance;
      const amount = Math.ceil(cheapest.price + roomiest.price) + 1;
      const fund = /** @type {{ ok: boolean, output: string, command: string }} */ (
        await runFund(/** @type {string} */ (r.options.fund), {
          username: account.username,
          amount: String(amount),
        })
      );
      if (!fund.ok) {
        f.failed = true;
        r.options.log(`  --fund failed: ${fund.command}\n${fund.output}`);
        f.skip(`the --fund command failed: ${fund.output.split('\n')[0] ?? ''}`);
      }
      // A deposit may wait on chain until the wallet's balance sync credits it.
      await f.step('syncBalance', {}, 200);
      const funded = await f.step('getBalance', {}, 200);
      f.expect(
        near(funded.json?.data?.payInBalance, before + amount),
        `getBalance shows ${funded.json?.data?.payInBalance} after depositing ${amount} on ${before}`,
        funded,
      );
      await f.step('purchasePackage', { json: { package_id: cheapest.id } }, 200);
      const paid = await f.step('getBalance', {}, 200);
      f.expect(
        near(paid.json?.data?.payInBalance, funded.json?.data?.payInBalance - cheapest.price),
        `buying ${cheapest.id} (${cheapest.price}) took the balance from ${funded.json?.data?.payInBalance} to ${paid.json?.data?.payInBalance}`,
        paid,
      );
      await f.step('purchasePackage', { json: { package_id: cheapest.id } }, 409);
      const history = await f.step('listSubscriptions', {}, 200);
      const row = history.json?.data?.data?.[0];
      f.expect(
        row?.package === cheapest.name && row?.status === 1 && near(row?.price, cheapest.price),
        `the newest history row is ${JSON.stringify(row)}, expected the active ${cheapest.name}`,
        history,
      );
      const current = await f.step('listPackages', {}, 200);
      const sub = current.json?.current_subscription;
      f.expect(
        sub?.package_id === cheapest.id && sub?.status === 1,
        `current_subscription is ${JSON.stringify(sub)} after buying ${cheapest.id}`,
        current,
      );
      if (!sub?.id) return;
      await f.step('cancelSubscription', { path: { id: sub.id } }, 200);
      const canceled = await f.step('listPackages', {}, 200);
      f.expect(
        canceled.json?.current_subscription?.status === 2,
        `after cancelSubscription current_subscription is ${JSON.stringify(canceled.json?.current_subscription)}, expected status 2`,
        canceled,
      );
      await f.step('cancelSubscription', { path: { id: sub.id } }, 409);
      const after = await f.step('listSubscriptions', {}, 200);
      const rows = after.json?.data?.data ?? [];
      f.expect(
        rows.some((x) => x?.id === sub.id && x?.status === 2),
        `the canceled subscription ${sub.id} is not canceled in the history`,
        after,
      );
      // Keep a subscription in force for the apps flow: upgrade to the roomiest package.
      await f.step(
        'purchasePackage',
        { json: { package_id: roomiest.id, remarks: 'contract check' } },
        200,
      );
      const upgraded = await f.step('listPackages', {}, 200);
      f.expect(
        upgraded.json?.current_subscription?.package_id === roomiest.id &&
          upgraded.json?.current_subscription?.status === 1,
        `after buying ${roomiest.id} current_subscription is ${JSON.stringify(upgraded.json?.current_subscription)}`,
        upgraded,
      );
    },
  },
  {
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
    async run(f) {
      const r = f.runner;
      await f.step('getApps', {}, 200);
      const settings = {
        app_name: `Contract check ${randomBytes(3).toString('hex')}`,
        project_url: 'https://shop.example.com',
        whitelist_ip: '203.0.113.10',
        callback_url: 'https://shop.example.com/hooks/crypto',
        info: 'Created by the contract check',
      };
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
      const apps = await f.step('getApps', {}, 200);
      f.expect(
        (apps.json?.data ?? []).some((a) => a?.id === app?.id),
        `getApps does not list the new app ${app?.id}`,
        apps,
      );
      const details = await f.step('getAppDetails', { path: { id: app.id } }, 200);
      f.expect(
        details.json?.data?.app_data?.id === app.id,
        'getAppDetails answers another app',
        details,
      );
      const permissions = await f.step('listTokenPermissions', {}, 200);
      const values = (permissions.json?.data ?? [])
        .map((p) => p?.value)
        .filter((x) => typeof x === 'string');
      if (values.length === 0) f.skip('listTokenPermissions offers no permission');
      const generated = await f.step(
        'generateApiKey',
        { json: { token_name: 'contract check key', app_id: app.id, abilities: [values[0]] } },
        200,
      );
      const secret = generated.json?.token;
      const keyId = generated.json?.data?.id;
      if (typeof secret === 'string' && secret) r.transport.secrets.add(secret);
      f.expect(
        JSON.stringify(generated.json?.data?.abilities) === JSON.stringify([values[0]]),
        `the new key has abilities ${JSON.stringify(generated.json?.data?.abilities)}`,
        generated,
      );
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
      const updated = await f.step('listTokens', { path: { appid: app.id } }, 200);
      const key = (updated.json?.data ?? []).find((k) => k?.id === keyId);
      f.expect(
        JSON.stringify([...(key?.abilities ?? [])].sort()) ===
          JSON.stringify([...abilities].sort()),
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
          const changed = await f.step('getAppDetails', { path: { id: app.id } }, 200);
          const now = (changed.json?.data?.user_payment_methods ?? []).find(
            (u) => u?.id === use.id,
          );
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
      const untouched = await f.step('listTokens', { path: { appid: app.id } }, 200);
      f.expect(
        (untouched.json?.data ?? []).some((k) => k?.id === keyId),
        `another account's revokeToken removed key ${keyId}`,
        untouched,
      );
      const otherApps = await f.step('getApps', { bearer: other }, 200);
      f.expect(
        !(otherApps.json?.data ?? []).some((a) => a?.id === app.id),
        `another account's getApps lists app ${app.id}`,
        otherApps,
      );

      await f.step('revokeToken', { path: { tokenId: keyId, appid: app.id } }, 200);
      const after = await f.step('listTokens', { path: { appid: app.id } }, 200);
      f.expect(
        !(after.json?.data ?? []).some((k) => k?.id === keyId),
        `listTokens still lists the revoked key ${keyId}`,
        after,
      );
      await f.step('revokeToken', { path: { tokenId: keyId, appid: app.id } }, 404);
    },
  },
  {
    name: 'avatar, profile and KYC upload',
    ops: ['changePicture', 'getImage', 'updateProfile', 'listDocTypes', 'uploadKyc'],
    needs: (r) => (r.account ? null : 'needs --register (it changes the profile)'),
    async run(f) {
      const photo = f.sample(v.pngFile);
      const changed = await f.step('changePicture', { body: upload('photo', photo) }, 200);
      const avatar = changed.json?.avatar;
      const image = await f.step('getImage', { path: { file: avatar } }, 200);
      f.expect(
        image.res.headers['content-type']?.startsWith('image/png') === true,
        `the PNG avatar is served as ${image.res.headers['content-type']}`,
        image,
      );
      await f.step('getImage', { path: { file: avatar }, auth: 'none' }, 200);

      const profile = {
        name: 'Contract Check',
        gender: 'others',
        dob: '1990-05-17',
        address_line1: 'Flat 12, Sunrise Apartments',
        address_line2: 'Baner Road',
        city: 'Pune',
        state: 'Maharashtra',
        pincode: '411001',
        landmark: 'Near City Mall',
      };
      const saved = await f.step('updateProfile', { json: profile }, 200);
      f.expect(
        saved.json?.profile?.name === profile.name &&
          saved.json?.profile?.pincode === profile.pincode,
        'updateProfile answers a profile without the saved fields',
        saved,
      );
      f.expect(
        saved.json?.profile?.avatar === avatar,
        `the profile's avatar is ${saved.json?.profile?.avatar}, expected ${avatar}`,
        saved,
      );
      // Until an operator approves it, the section stays editable.
      const again = await f.step('updateProfile', { json: { ...profile, city: 'Mumbai' } }, 200);
      f.expect(
        again.json?.profile?.city === 'Mumbai',
        'a second updateProfile did not change the city',
        again,
      );

      const types = await f.step('listDocTypes', {}, 200);
      const type = (types.json?.data ?? []).find(
        (t) => (t?.uploads?.data ?? []).length === 0 && (t?.data ?? []).length > 0,
      );
      if (!type) f.skip('listDocTypes has no document type without uploads');
      /** @type {Body} */
      const body = {
        kind: 'multipart',
        fields: {
          document_type: String(type.document_type).toLowerCase(),
          document_name: type.data[0],
          document_number: '123412341234',
        },
        files: {
          front: f.sample(v.jpegFile),
          ...(type.back_required ? { back: f.sample(v.pngFile) } : {}),
        },
      };
      await f.step('uploadKyc', { body }, 200);
      const listed = await f.step('listDocTypes', {}, 200);
      const mine = (listed.json?.data ?? []).find((t) => t?.id === type.id)?.uploads?.data?.[0];
      f.expect(
        mine?.status === 0 && mine?.document_name === type.data[0],
        `the new upload is listed as ${JSON.stringify(mine)}, expected a pending ${type.data[0]}`,
        listed,
      );
      await f.step('uploadKyc', { body }, 409);
      if (isObject(mine) && typeof mine.front === 'string') {
        await f.step('getImage', { path: { file: mine.front } }, 200);
        await f.step('getImage', { path: { file: mine.front }, auth: 'none' }, 403);
        const other = (await otherAccount(f)).session;
        await f.step('getImage', { path: { file: mine.front }, bearer: other }, 403);
      }
    },
  },
  {
    name: 'authenticator, pin and password changes',
    ops: [
      'getAuthentication',
      'change2fa',
      'updateAuthentication',
      'resendOtp',
      'changeMpin',
      'changePassword',
    ],
    needs: (r) => (r.account ? null : 'needs --register (it changes the credentials)'),
    async run(f) {
      const r = f.runner;
      const account = /** @type {import('./runner.mjs').Account} */ (r.account);
      const settings = await f.step('getAuthentication', {}, 200);
      f.expect(
        settings.json?.more_details?.authenticator === 0 && settings.json?.auth_type === 'mpin',
        `a new account's security settings are ${JSON.stringify(settings.json)}`,
        settings,
      );
      const app = v.authenticatorOf(settings.json?.image_2fa);
      if (!app) f.skip('getAuthentication gives no otpauth://totp URL to set the authenticator up');
      await f.step('resendOtp', {}, 422); // the active method is the pin, not e-mailed codes
      const now = app.step();
      const wrong = ['000000', '123456', '999999'].find(
        (c) => ![now - 1, now, now + 1].some((s) => app.code(s) === c),
      );
      await f.step('change2fa', { json: { code: wrong } }, 422);
      r.authenticator = app;
      const confirmed = await r.totp();
      await f.step('change2fa', { json: { code: confirmed } }, 200);
      const setUp = await f.step('getAuthentication', {}, 200);
      f.expect(
        setUp.json?.more_details?.authenticator === 1 && setUp.json?.image_2fa === null,
        `after change2fa the settings are ${JSON.stringify(setUp.json)}`,
        setUp,
      );
      // Set up already: 409 whatever the code (a used one keeps the three fresh steps for later).
      await f.step('change2fa', { json: { code: confirmed } }, 409);
      const badPin = String((Number(account.pin) + 1) % 10_000).padStart(4, '0');
      const toApp = { type: 'authenticator' };
      await f.step('updateAuthentication', { json: { ...toApp, spassword: badPin } }, 422);
      const switched = await f.step(
        'updateAuthentication',
        { json: { ...toApp, spassword: account.pin } },
        200,
      );
      f.expect(
        switched.json?.auth_type === 'authenticator',
        'updateAuthentication answers another auth_type',
        switched,
      );
      // Signing in now takes an authenticator code.
      const credentials = () => ({ username: account.username, password: account.password });
      const step = await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
      r.transport.secrets.add(step.json.token);
      f.expect(
        step.json?.auth_type === 'authenticator',
        `preLogin asks for ${step.json?.auth_type}, expected authenticator`,
        step,
      );
      const code = await r.totp();
      const json = { ...credentials(), authenticator: code };
      await f.step('login', { json, bearer: step.json.token }, 200);
      const back = { type: 'mpin', code: await r.totp() };
      await f.step('updateAuthentication', { json: back }, 200);

      const pin = String((Number(account.pin) + 4321) % 10_000).padStart(4, '0');
      const newPin = { password: account.password, spassword: pin, spassword_confirmation: pin };
      await f.step('changeMpin', { json: { ...newPin, spassword_confirmation: badPin } }, 422);
      const oldPin = account.pin;
      await f.step('changeMpin', { json: newPin }, 200); // the runner now signs in with `pin`
      const pinStep = await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
      r.transport.secrets.add(pinStep.json.token);
      const withOld = { ...credentials(), mpin: oldPin };
      await f.step('login', { json: withOld, bearer: pinStep.json.token }, 422);
      const withNew = { ...credentials(), mpin: pin };
      await f.step('login', { json: withNew, bearer: pinStep.json.token }, 200);

      const password = `Cc-${randomBytes(6).toString('hex')}!8`;
      const change = {
        currentpassword: account.password,
        newpassword: password,
        newpassword_confirmation: password,
        mpin: pin,
      };
      await f.step('changePassword', { json: { ...change, mpin: badPin } }, 422);
      const oldPassword = account.password;
      await f.step('changePassword', { json: change }, 200);
      const old = { username: account.username, password: oldPassword };
      await f.step('preLogin', { json: old, auth: 'none' }, 422);
      await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
      await f.step('getDashboard', {}, 200); // the session that changed it stays
    },
  },
];

/**
 * Runs one flow if any of its operations is selected (or `force`) and its needs are met;
 * null when it is not selected at all.
 * @param {Runner} runner @param {FlowDefinition} def @param {boolean} [force]
 * @returns {Promise<FlowResult | null>}
 */
export async function runFlow(runner, def, force = false) {
  if (!force && !runner.selected.some((op) => def.ops.includes(op.operationId))) return null;
  const started = performance.now();
  const blocked = def.needs(runner);
  /** @type {FlowResult} */
  const result = {
    name: def.name,
    status: 'skipped',
    reason: blocked ?? undefined,
    steps: 0,
    ms: 0,
  };
  if (!blocked) {
    const flow = new Flow(runner, def.name);
    runner.inFlow = true;
    try {
      await def.run(flow);
    } catch (err) {
      if (!(err instanceof Abort)) throw err;
    } finally {
      runner.inFlow = false;
    }
    result.steps = flow.steps;
    result.status = flow.failed ? 'failed' : flow.skipReason ? 'skipped' : 'passed';
    result.reason = flow.skipReason ?? undefined;
  }
  result.ms = performance.now() - started;
  runner.flows.push(result);
  return result;
}
