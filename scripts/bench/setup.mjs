// The data `npm run bench:api` measures on, set up through the server's own API and admin
// commands: the demo account signed in, its gateway app with a key and a page of deposits, and for
// the large-data step a year of the demo merchant's wallet entries and deposits.
import { admin } from './processes.mjs';
import { postJson, rawRequest } from './http.mjs';

const DEMO = { username: 'demo', password: 'Demo@12345', mpin: '1234' };
/** Deposits the gateway app holds while GET /deposits is measured (one page of the default 25). */
const BENCH_DEPOSITS = 25;

/**
 * @typedef {{ public: Record<string, string>, authenticated: Record<string, string> }} SignedIn
 *   The headers every measured request carries, without and with the session.
 */

/**
 * Signs in the demo account (preLogin, then login with the pin) and returns the headers every
 * measured request carries. A browser carries the XSRF-TOKEN cookie the first answer set, so the
 * requests do too (without it the server sets a new cookie on every answer). No accept-encoding:
 * autocannon sends none by default, so both servers answer uncompressed, as the targets assume.
 * @param {string} base
 * @returns {Promise<SignedIn>}
 */
export async function signIn(base) {
  const first = await rawRequest(`${base}/countries`, {});
  const xsrf = [first.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('XSRF-TOKEN='));
  if (!xsrf) throw new Error('GET /api/countries set no XSRF-TOKEN cookie');
  const credentials = { username: DEMO.username, password: DEMO.password };
  const step = await postJson(`${base}/pre-login`, { body: credentials, cookie: xsrf });
  if (typeof step.token !== 'string') throw new Error('pre-login gave no step token');
  const session = await postJson(`${base}/login`, {
    body: { ...credentials, mpin: DEMO.mpin },
    token: step.token,
    cookie: xsrf,
  });
  if (typeof session.token !== 'string') throw new Error('login gave no session token');
  return {
    public: { cookie: xsrf },
    authenticated: { cookie: xsrf, authorization: `Bearer ${session.token}` },
  };
}

/**
 * The demo's gateway app as get-apps lists it, a key for it (see gatewayKey), its settled
 * invoice and a new one waiting for its payment (the checkout page's two most shown screens).
 * @param {string} api @param {SignedIn} headers
 * @returns {Promise<{ appId: string, key: string, invoiceId: string, openInvoiceId: string }>}
 */
export async function setUpGateway(api, headers) {
  const apps = await rawRequest(`${api}/cryptosafelock/get-apps`, headers.authenticated);
  /** @type {{ data?: Record<string, any>[] }} */
  const list = JSON.parse(apps.body.toString('utf8'));
  const demoApp = list.data?.[0];
  const appId = demoApp?.id;
  if (typeof appId !== 'string') throw new Error(`get-apps listed no app: ${apps.body}`);
  const key = await gatewayKey(api, headers, demoApp ?? {});
  return {
    appId,
    key,
    invoiceId: await settledInvoice(api, key),
    openInvoiceId: await openInvoice(api, key),
  };
}

/**
 * A new invoice of the demo app, open for a day: its checkout page is the waiting screen, with
 * the QR code, the address and the wallet link.
 * @param {string} api @param {string} key
 */
async function openInvoice(api, key) {
  const gateway = `${api.slice(0, -'/api'.length)}/gateway/v1`;
  const created = await postJson(`${gateway}/invoices`, {
    body: { amount: '49.90', currency: 'USD', methods: ['USDT-BEP20'], expires_in: 86_400 },
    token: key,
    cookie: '',
  });
  if (typeof created.id !== 'string') throw new Error('POST /invoices gave no id');
  return created.id;
}

/**
 * A settled invoice of the demo app, paid in two goes (the demo's ORD-5002): GET /invoices/{id}
 * reads one with its payment option and payments, as a merchant's server does after a webhook.
 * @param {string} api @param {string} key
 */
async function settledInvoice(api, key) {
  const gateway = `${api.slice(0, -'/api'.length)}/gateway/v1`;
  const page = await rawRequest(`${gateway}/invoices?status=settled&order_id=ORD-5002`, {
    authorization: `Bearer ${key}`,
  });
  /** @type {{ data?: { id?: unknown }[] }} */
  const list = JSON.parse(page.body.toString('utf8'));
  const id = list.data?.[0]?.id;
  if (typeof id !== 'string') throw new Error(`the demo app has no settled invoice: ${page.body}`);
  return id;
}

/**
 * The gateway routes use the demo's app (its package allows one app), with loopback added to its
 * IP whitelist so the check still runs on every request; a key for accounts, deposits and
 * invoices, and
 * BENCH_DEPOSITS test deposits that the server's watcher has recorded, so GET /deposits answers a
 * full page.
 * @param {string} api @param {{ authenticated: Record<string, string> }} headers
 * @param {Record<string, any>} app the demo app as get-apps lists it
 * @returns {Promise<string>} the key
 */
async function gatewayKey(api, headers, app) {
  const token = headers.authenticated.authorization?.slice('Bearer '.length) ?? '';
  const cookie = headers.authenticated.cookie ?? '';
  const call = (/** @type {string} */ route, /** @type {unknown} */ body) =>
    postJson(`${api}${route}`, { body, token, cookie });
  const appId = app.id;
  await call('/cryptosafelock/update-app', {
    app_id: appId,
    app_name: app.app_name,
    project_url: app.project_url,
    whitelist_ip: `${app.whitelist_ip ?? ''}\n127.0.0.1`.trim(),
    status: app.status,
  });
  const generated = await call('/cryptosafelock/generate-apikey', {
    token_name: 'Bench',
    app_id: appId,
    abilities: ['accounts:write', 'deposits:read', 'invoices:read', 'invoices:write'],
  });
  const key = generated.token;
  if (typeof key !== 'string') throw new Error('generate-apikey gave no key');
  const gateway = `${api.slice(0, -'/api'.length)}/gateway/v1`;
  for (let i = 0; i < BENCH_DEPOSITS; i += 1) {
    const opened = await postJson(`${gateway}/accounts`, {
      body: { unique_id: `paid-${i}`, method: 'USDT-BEP20' },
      token: key,
      cookie: '',
    });
    if (typeof opened.address !== 'string') throw new Error('POST /accounts gave no address');
  }
  const details = await rawRequest(
    `${api}/cryptosafelock/app-details/${appId}`,
    headers.authenticated,
  );
  /** @type {{ data: { accounts: { data: { id: string }[] } } }} */
  const detail = JSON.parse(details.body.toString('utf8'));
  // The first page of accounts holds 10; the deposits go to those, round-robin.
  const accounts = detail.data.accounts.data;
  for (let i = 0; i < BENCH_DEPOSITS; i += 1) {
    await call('/cryptosafelock/test-deposit', {
      account_id: accounts[i % accounts.length]?.id,
      method: 'USDT-BEP20',
      amount: `${10 + i}.5`,
    });
  }
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await rawRequest(`${gateway}/deposits`, { authorization: `Bearer ${key}` });
    const seen = JSON.parse(page.body.toString('utf8')).data?.length ?? 0;
    if (seen >= BENCH_DEPOSITS) return key;
    if (Date.now() > deadline) throw new Error(`the watcher recorded ${seen} of ${BENCH_DEPOSITS}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Writes `rows` of the demo merchant's wallet entries and deposits over a year with `npm run admin
 * -- bench large-data` (the domain's bulk paths), the servers stopped (their watcher would fail
 * the made-up deposits). get-apps' demo app had its webhook URL cleared by gatewayKey (update-app
 * without one).
 * @param {NodeJS.ProcessEnv} env @param {number} rows
 */
export async function writeLargeData(env, rows) {
  await admin(['bench', 'large-data', DEMO.username, String(rows)], env);
}

/**
 * Compares the demo merchant's kept counts and daily totals with the rows (COUNT(*), derived).
 * @param {NodeJS.ProcessEnv} env
 */
export async function checkKeptCounts(env) {
  await admin(['bench', 'check', DEMO.username], env);
}
