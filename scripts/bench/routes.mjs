// The routes `npm run bench:api` measures, the headers each request carries, and the targets the
// figures are judged against.

/** The least share of the bare Fastify's req/s ours must reach on a read, signed in or public. */
const TARGET = { authenticated: 0.5, public: 0.7 };
/** The gateway's reads that a merchant's server polls, per engine: the payment path's targets. */
const GATEWAY_READ_TARGET = { sqlite: 0.6, postgres: 0.55 };

/**
 * Large data: with a million rows, these reads answer within these latencies (ms). Judged on one
 * connection, one request at a time: the time a request takes to answer, not how long it queues
 * behind 9 others (10 connections are measured and printed too; their p50 is about 10 × the time
 * a request takes, so it measures throughput, which the ratios judge).
 */
export const LARGE_TARGET = { p50: 5, p99: 20 };

/**
 * @typedef {{ name: string, method: 'GET' | 'POST', path: string, public: boolean, headers: Record<string, string>, nextBody?: () => string, untargeted?: string, target?: number | Record<import('./options.mjs').Engine, number>, creates?: boolean }} Route
 *   `untargeted`: why the route is measured for information, with no target; `target`: the
 *   route's own (or its own per engine), in place of TARGET's; `creates`: each request hands out a new address.
 */

/** The checkout page, drawn for each request (its state may change at any moment). */
const CHECKOUT_TARGET = 0.5;

/**
 * The measured routes: the portal's reads (signed in, and the public one), then the gateway's
 * deposits read, uncompressed and compressed, its account-opening write, and an invoice's read
 * and creation, and the checkout page of a waiting and of a paid invoice.
 * @param {import('./setup.mjs').SignedIn} headers @param {string} appId the demo's gateway app
 * @param {string} key a key of that app for accounts, deposits and invoices
 * @param {{ invoiceId: string, openInvoiceId: string }} invoices a settled and a new invoice of that app
 * @returns {Route[]}
 */
export function benchRoutes(headers, appId, key, { invoiceId, openInvoiceId }) {
  const gatewayHeaders = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let account = 0;
  let order = 0;
  /** @type {Route[]} */
  const routes = [
    { name: 'GET /api/dashboard', path: '/api/dashboard', public: false },
    {
      name: 'GET /api/cryptosafelock/get-apps',
      path: '/api/cryptosafelock/get-apps',
      public: false,
    },
    {
      name: 'GET /api/cryptosafelock/app-details/{id}',
      path: `/api/cryptosafelock/app-details/${appId}`,
      public: false,
    },
    { name: 'GET /api/countries', path: '/api/countries', public: true },
  ].map((route) => ({
    ...route,
    method: /** @type {const} */ ('GET'),
    headers: route.public ? headers.public : headers.authenticated,
  }));
  routes.push(
    {
      name: 'GET /gateway/v1/deposits',
      method: 'GET',
      path: '/gateway/v1/deposits',
      public: false,
      target: GATEWAY_READ_TARGET,
      headers: { authorization: gatewayHeaders.authorization },
    },
    {
      // The same page as merchants' HTTP clients ask for it: fetch, axios and browsers send
      // Accept-Encoding by default (Go's and Python's clients too, with gzip). The targets are
      // for answers without compression, which the row above judges; here the bare server sends
      // a fifth of the bytes for the same per-request work of ours.
      name: 'GET /gateway/v1/deposits (br)',
      method: 'GET',
      path: '/gateway/v1/deposits',
      public: false,
      untargeted: 'compressed',
      headers: {
        authorization: gatewayHeaders.authorization,
        'accept-encoding': 'gzip, deflate, br',
      },
    },
    {
      // Each request a new customer: the write path (its index, its address, the insert), not a
      // replay.
      name: 'POST /gateway/v1/accounts',
      method: 'POST',
      path: '/gateway/v1/accounts',
      public: false,
      headers: gatewayHeaders,
      untargeted: 'a write',
      creates: true,
      nextBody: () =>
        JSON.stringify({ unique_id: `bench-${(account += 1)}`, method: 'USDT-BEP20' }),
    },
    {
      name: 'GET /gateway/v1/invoices/{id}',
      method: 'GET',
      path: `/gateway/v1/invoices/${invoiceId}`,
      public: false,
      target: GATEWAY_READ_TARGET,
      headers: { authorization: gatewayHeaders.authorization },
    },
    {
      // Each request a new invoice: the rate, a fresh index and address, the rows and
      // the invoice.created event, not a replay.
      name: 'POST /gateway/v1/invoices',
      method: 'POST',
      path: '/gateway/v1/invoices',
      public: false,
      headers: gatewayHeaders,
      untargeted: 'a write',
      creates: true,
      nextBody: () =>
        JSON.stringify({
          amount: '49.90',
          currency: 'USD',
          methods: ['USDT-BEP20'],
          order_id: `bench-${(order += 1)}`,
        }),
    },
    {
      name: 'GET /pay/{id} (waiting)',
      method: 'GET',
      path: `/pay/${openInvoiceId}`,
      public: true,
      target: CHECKOUT_TARGET,
      headers: { accept: 'text/html' },
    },
    {
      name: 'GET /pay/{id} (paid)',
      method: 'GET',
      path: `/pay/${invoiceId}`,
      public: true,
      target: CHECKOUT_TARGET,
      headers: { accept: 'text/html' },
    },
  );
  return routes;
}

/**
 * The ratio `route` must reach on `engine`, or null: the targets are for uncompressed reads, so a
 * write and the compressed read are measured for information only.
 * @param {Route} route @param {import('./options.mjs').Engine} engine @returns {number | null}
 */
export function targetOf(route, engine) {
  if (route.untargeted) return null;
  const { target } = route;
  if (typeof target === 'object') return target[engine];
  return target ?? (route.public ? TARGET.public : TARGET.authenticated);
}

/**
 * The routes the large-data step measures: the reads whose work grows with the merchant's rows.
 * @param {Route[]} routes
 */
export function largeDataRoutes(routes) {
  return routes.filter(
    (route) =>
      route.name === 'GET /api/dashboard' ||
      route.name === 'GET /api/cryptosafelock/app-details/{id}',
  );
}

/**
 * Whether a route whose name contains `part` hands out addresses (`creates`): a run that measures
 * one needs the server's address pool kept far ahead (BENCH_POOL, measure.mjs).
 * @param {string} part
 */
export function createsAddresses(part) {
  const signedOut = /** @type {import('./setup.mjs').SignedIn} */ ({});
  return benchRoutes(signedOut, '', '', { invoiceId: '', openInvoiceId: '' }).some(
    (route) => route.creates === true && route.name.includes(part),
  );
}
