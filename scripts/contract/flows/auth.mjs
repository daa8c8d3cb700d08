// The Auth flows: signing up and the two-step sign-in, signing out; and the second throwaway
// account other flows use to check that one account never sees another's data.
import { randomBytes, randomInt } from 'node:crypto';

/**
 * @typedef {import('./flow.mjs').Flow} Flow
 * @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition
 * @typedef {import('../runner.mjs').Account} Account
 */
/**
 * @template T
 * @typedef {import('./flow.mjs').Step<T>} Step
 */
/**
 * The answers these flows read, as the contract declares them.
 * @typedef {{ data: { id: string }[] }} CountryList
 * @typedef {{ status: unknown }} UsernameCheck
 * @typedef {{ token: string, auth_type: string }} PreLogin
 * @typedef {{ token: string, username: string, profile: { email: string } }} Login
 */

/** @param {unknown} status */
const truthy = (status) => status === true || status === 1 || status === 'success';

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

/** @param {Account} account @param {string} country */
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
export async function otherAccount(f) {
  const r = f.runner;
  if (r.other) return r.other;
  const account = newAccount();
  await f.step('register', { json: registration(account, r.country), auth: 'none' }, 200);
  const credentials = { username: account.username, password: account.password };
  /** @type {Step<PreLogin>} */
  const step = await f.step('preLogin', { json: credentials, auth: 'none' }, 200);
  r.transport.secrets.add(step.json.token);
  /** @type {Step<Login>} */
  const login = await f.step(
    'login',
    { json: { ...credentials, mpin: account.pin }, bearer: step.json.token },
    200,
  );
  r.transport.secrets.add(login.json.token);
  r.other = { account, session: login.json.token };
  return r.other;
}

/** @type {FlowDefinition} */
export const signUpAndSignIn = {
  name: 'sign-up and two-step sign-in',
  ops: ['listCountries', 'checkUsername', 'register', 'preLogin', 'login', 'getDashboard'],
  needs: (r) => (r.options.register ? null : 'needs --register'),
  /** @param {Flow} f */
  async run(f) {
    const r = f.runner;
    /** @type {Step<CountryList>} */
    const countries = await f.step('listCountries', { auth: 'none' }, 200);
    const ids = Array.isArray(countries.json?.data) ? countries.json.data.map((c) => c?.id) : [];
    f.expect(ids.length > 0, 'listCountries lists no country to sign up with', countries);
    const country = ids.includes('IN') ? 'IN' : (ids[0] ?? 'IN');
    r.country = country;
    const account = newAccount();
    /** @type {Step<UsernameCheck>} */
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
    /** @type {Step<UsernameCheck>} */
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
    /** @type {Step<PreLogin>} */
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
    /** @type {Step<Login>} */
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
    /** @type {Step<PreLogin>} */
    const third = await f.step('preLogin', { json: credentials, auth: 'none' }, 200);
    r.transport.secrets.add(third.json.token);
    await f.step('getDashboard', { bearer: third.json.token }, 401);
    await f.step('getDashboard', {}, 200);
  },
};

/** @type {FlowDefinition} */
export const signOut = {
  name: 'sign-out',
  ops: ['logout'],
  needs: (r) => (r.account ? null : 'needs --register'),
  /** @param {Flow} f */
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
};
