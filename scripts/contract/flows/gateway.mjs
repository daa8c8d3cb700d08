// The Gateway flows: the throwaway merchant's app made ready for the gateway through the
// portal (a method, keys), a customer's deposit account created and read back with the key,
// and a test deposit to it followed from Pending to credited while `--mine` mines blocks.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from '../command.mjs';
import { KEY_HEADER } from '../gateway.mjs';
import * as v from '../values.mjs';
import { appSettings, createOwnApp, generateKey, permissionValues } from './apps.mjs';

/**
 * @typedef {import('./flow.mjs').Flow} Flow
 * @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition
 * @typedef {import('../gateway.mjs').GatewayRunner} GatewayRunner
 * @typedef {import('../runner.mjs').Runner} Runner
 */
/**
 * @template T
 * @typedef {import('./flow.mjs').Step<T>} Step
 */
/**
 * The answers these flows read, as the contracts declare them.
 * @typedef {{ id: string, name: string, network_type: string, chain_id: number,
 *   is_token: number }} PaymentMethod
 * @typedef {{ data: { all_payment_methods: PaymentMethod[] } }} AppDetails
 * @typedef {{ id: string, unique_id: string, address: string, test_methods: string[] }} PortalAccount
 * @typedef {{ data: { accounts: { data: PortalAccount[] } } }} AppAccounts
 * @typedef {{ data: { id: string }[] }} AppList
 * @typedef {{ data: { thash: string, block_number: number } }} TestDeposit
 * @typedef {{ code: string, chain_id: number, confirmations: number,
 *   deposits_enabled: boolean }} Method
 * @typedef {{ data: Method[] }} MethodList
 * @typedef {{ unique_id: string, method: string, chain_id: number, address: string }} Account
 * @typedef {{ data: Account[], next_cursor: string | null }} AccountPage
 * @typedef {{ id: string, unique_id: string, method: string, address: string, tx_hash: string,
 *   block_number: number, amount: string, status: number, failure_reason: string | null,
 *   credited_at: string | null }} Deposit
 * @typedef {{ data: Deposit[], next_cursor: string | null }} DepositPage
 * @typedef {{ data: { method: string, received: string, credited: string }[] }} BalanceList
 * @typedef {{ error: { code: string, message: string, fields?: Record<string, string[]> } }} ErrorBody
 */

// The method the setup enables: USDT on BNB Smart Chain (USDT-BEP20).
const USDT_BEP20 = { name: 'USDT', chainId: 56 };
const TEST_AMOUNT = '25.5';
const POLL_MS = 500;
// The watcher runs every few seconds (ours: 2 s); a deposit not seen or credited in a minute
// is not going to be.
const WAIT_MS = 60_000;

/** A fresh customer id (random: reruns against one server must not collide). */
const newUniqueId = () => `cc-${randomBytes(5).toString('hex')}`;

/** A decimal string in micro-units (6 decimals, the gateway's totals), or null. @param {unknown} text */
function micro(text) {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  if (/[1-9]/.test(fraction.slice(6))) return null; // finer than a micro-unit: not comparable
  return BigInt(whole) * 1_000_000n + BigInt(fraction.slice(0, 6).padEnd(6, '0'));
}

/** One method's totals in micro-units (0 when the method has none yet). @param {BalanceList | undefined} list @param {string} code */
function totals(list, code) {
  const row = (list?.data ?? []).find((b) => b?.method === code);
  return { received: micro(row?.received ?? '0'), credited: micro(row?.credited ?? '0') };
}

/**
 * The setup of the gateway's checks with --register: an app of the throwaway merchant (any
 * address may call it: no whitelist), USDT-BEP20 in use with a payout address, a key holding
 * every ability listTokenPermissions offers, a revoked key and a `methods:read`-only key.
 * Runs after the purchase flow, so a package is in force when the gateway counts plan limits.
 * @param {GatewayRunner} gateway @returns {FlowDefinition}
 */
export function gatewaySetup(gateway) {
  return {
    name: 'gateway: app, USDT-BEP20 and API keys',
    ops: ['createApp', 'getAppDetails', 'usePaymentMethod', 'generateApiKey', 'revokeToken'],
    needs: (r) => (r.registered ? null : 'needs --register (or pass --gateway-key)'),
    /** @param {Flow} f */
    async run(f) {
      const app = await createOwnApp(f, { ...appSettings(), whitelist_ip: '' });
      /** @type {Step<AppDetails>} */
      const details = await f.step('getAppDetails', { path: { id: app.id } }, 200);
      const methods = details.json?.data?.all_payment_methods ?? [];
      const usdt = methods.find(
        (m) => m?.name === USDT_BEP20.name && m?.chain_id === USDT_BEP20.chainId,
      );
      if (!usdt) f.skip('getAppDetails offers no USDT on BNB Smart Chain (USDT-BEP20)');
      const payout = { collect_address: f.sample(v.evmAddress), user_app_id: app.id };
      await f.step('usePaymentMethod', { json: { payment_method_id: usdt.id, ...payout } }, 200);
      const abilities = await permissionValues(f);
      const { secret } = await generateKey(f, app.id, abilities, 'contract check gateway key');
      if (typeof secret !== 'string' || !secret) f.skip('generateApiKey gave no key');
      gateway.useKey(secret);
      const old = await generateKey(f, app.id, abilities, 'contract check revoked key');
      await f.step('revokeToken', { path: { tokenId: old.keyId, appid: app.id } }, 200);
      if (typeof old.secret === 'string') {
        gateway.revokedKey = old.secret;
        gateway.transport.secrets.add(old.secret);
      }
      if (abilities.includes('methods:read')) {
        const narrow = await generateKey(f, app.id, ['methods:read'], 'contract check narrow key');
        if (typeof narrow.secret === 'string') {
          gateway.narrowKey = narrow.secret;
          gateway.transport.secrets.add(narrow.secret);
        }
      }
    },
  };
}

/** The method the gateway flows use: the app's first with deposits switched on. @param {Flow} f */
async function depositMethod(f) {
  /** @type {Step<MethodList>} */
  const listed = await f.step('listMethods', {}, 200);
  const method = (listed.json?.data ?? []).find((m) => m?.deposits_enabled);
  if (!method) f.skip('listMethods lists no method with deposits switched on');
  return method;
}

/**
 * A new account of `uniqueId`; skips the flow when the server refuses it on business grounds
 * (e.g. a plan limit, or no active package without --fund).
 * @param {Flow} f @param {string} uniqueId @param {Method} method
 */
async function openAccount(f, uniqueId, method) {
  /** @type {Step<Account & ErrorBody>} */
  const created = await f.step(
    'createAccount',
    { json: { unique_id: uniqueId, method: method.code } },
    [201, 422],
  );
  if (created.res.status === 422) {
    const hint = f.runner.options.fund ? '' : ' (a package may be needed: pass --fund)';
    f.skip(`createAccount refused: ${created.json?.error?.message}${hint}`);
  }
  const account = created.json;
  f.expect(
    account?.unique_id === uniqueId &&
      account?.method === method.code &&
      account?.chain_id === method.chain_id,
    `createAccount answers ${JSON.stringify(account)} for ${uniqueId} and ${method.code} (chain ${method.chain_id})`,
    created,
  );
  return { account, created };
}

/** @param {GatewayRunner} g */
const needsKey = (g) => (g.key ? null : 'no API key (pass --gateway-key or --register)');

/** @type {FlowDefinition} */
export const gatewayAccounts = {
  name: 'gateway: create account -> read it back',
  ops: ['createAccount', 'getCustomerAccounts'],
  needs: (r) => needsKey(/** @type {GatewayRunner} */ (r)),
  /** @param {Flow} f */
  async run(f) {
    const g = /** @type {GatewayRunner} */ (f.runner);
    const method = await depositMethod(f);
    const uniqueId = newUniqueId();
    await f.step('getCustomerAccounts', { path: { unique_id: uniqueId } }, 404);
    const { account } = await openAccount(f, uniqueId, method);
    const again = { json: { unique_id: uniqueId, method: method.code }, keyHeader: KEY_HEADER };
    /** @type {Step<Account>} */
    const same = await f.step('createAccount', again, 200);
    f.expect(
      same.json?.address === account.address,
      `asking again for ${uniqueId} answers address ${same.json?.address}, first ${account.address}`,
      same,
    );
    /** @type {Step<{ data: Account[] }>} */
    const read = await f.step('getCustomerAccounts', { path: { unique_id: uniqueId } }, 200);
    const accounts = read.json?.data ?? [];
    f.expect(
      accounts.length === 1 && accounts[0]?.address === account.address,
      `getCustomerAccounts(${uniqueId}) answers ${JSON.stringify(accounts)}, expected its one account`,
      read,
    );
    // A second customer: the newest account, on a page of its own before the first one's.
    const second = newUniqueId();
    await openAccount(f, second, method);
    /** @type {Step<AccountPage>} */
    const newest = await f.step('listAccounts', { query: { limit: '1' } }, 200);
    f.expect(
      newest.json?.data?.length === 1 && newest.json.data[0]?.unique_id === second,
      `listAccounts?limit=1 answers ${JSON.stringify(newest.json?.data)}, expected the newest account ${second}`,
      newest,
    );
    const cursor = newest.json?.next_cursor;
    if (typeof cursor !== 'string') {
      f.abort('listAccounts?limit=1 has no next_cursor though the app has two accounts', newest);
    }
    /** @type {Step<AccountPage>} */
    const next = await f.step('listAccounts', { query: { limit: '1', cursor } }, 200);
    f.expect(
      next.json?.data?.length === 1 && next.json.data[0]?.unique_id === uniqueId,
      `the page after next_cursor answers ${JSON.stringify(next.json?.data)}, expected ${uniqueId}`,
      next,
    );
    /** @type {Step<ErrorBody>} */
    const unknown = await f.step(
      'createAccount',
      { json: { unique_id: uniqueId, method: 'CONTRACT-CHECK-NONE' } },
      422,
    );
    f.expect(
      unknown.json?.error?.code === 'invalid_request' &&
        Array.isArray(unknown.json.error.fields?.method),
      `a method the app has not enabled is refused with ${JSON.stringify(unknown.json)}, expected invalid_request naming method`,
      unknown,
    );
    if (g.revokedKey) {
      /** @type {Step<ErrorBody>} */
      const revoked = await f.step('listMethods', { bearer: g.revokedKey }, 401);
      f.expect(
        revoked.json?.error?.code === 'unauthenticated',
        `a revoked key is refused with ${JSON.stringify(revoked.json)}, expected unauthenticated`,
        revoked,
      );
    }
    if (g.narrowKey) {
      await f.step('listMethods', { bearer: g.narrowKey }, 200);
      /** @type {Step<ErrorBody>} */
      const refused = await f.step(
        'createAccount',
        { json: { unique_id: newUniqueId(), method: method.code }, bearer: g.narrowKey },
        403,
      );
      f.expect(
        refused.json?.error?.code === 'ability_missing' &&
          refused.json.error.message.includes('accounts:write'),
        `a key without accounts:write is refused with ${JSON.stringify(refused.json)}, expected ability_missing naming it`,
        refused,
      );
    }
  },
};

/**
 * The portal's id of the deposit account `uniqueId` at `address`, from the accounts page of
 * the signed-in merchant's apps (newest first), with the methods that take a test deposit.
 * @param {Flow} f @param {Runner} portal @param {string} uniqueId @param {string} address
 */
async function portalAccount(f, portal, uniqueId, address) {
  /** @type {Step<AppList>} */
  const apps = await f.step('getApps', { via: portal }, 200);
  for (const app of apps.json?.data ?? []) {
    /** @type {Step<AppAccounts>} */
    const details = await f.step('getAppDetails', { via: portal, path: { id: app.id } }, 200);
    const found = (details.json?.data?.accounts?.data ?? []).find(
      (a) => a?.unique_id === uniqueId && a?.address?.toLowerCase() === address.toLowerCase(),
    );
    if (found) return found;
  }
  return f.skip(`no app of the signed-in merchant lists the account ${uniqueId}`);
}

/**
 * Polls `read` until `done` says what is awaited is there; the last answer either way.
 * @template T
 * @param {() => Promise<Step<T>>} read @param {(s: Step<T>) => boolean} done
 */
async function poll(read, done) {
  const deadline = performance.now() + WAIT_MS;
  for (;;) {
    const step = await read();
    if (done(step) || performance.now() > deadline) return { step, done: done(step) };
    await sleep(POLL_MS);
  }
}

/** @type {FlowDefinition} */
export const gatewayDeposit = {
  name: 'gateway: test deposit -> pending -> mined -> credited',
  ops: ['listDeposits', 'getDeposit', 'listBalances'],
  needs: (r) => {
    const g = /** @type {GatewayRunner} */ (r);
    if (!g.key) return needsKey(g);
    if (!g.portal?.session)
      return 'needs a portal session (--register or --token) to send a test deposit';
    return r.options.mine ? null : 'needs --mine to mine the confirmations';
  },
  /** @param {Flow} f */
  async run(f) {
    const g = /** @type {GatewayRunner} */ (f.runner);
    const portal = /** @type {Runner} */ (g.portal);
    const mineCommand = /** @type {string} */ (g.options.mine);
    const method = await depositMethod(f);
    /** @type {Step<BalanceList>} */
    const before = await f.step('listBalances', {}, 200);
    const start = totals(before.json, method.code);
    const uniqueId = newUniqueId();
    const { account } = await openAccount(f, uniqueId, method);
    const target = await portalAccount(f, portal, uniqueId, account.address);
    if (!(target.test_methods ?? []).includes(method.code)) {
      f.skip(`${method.code} takes no test deposit on this server (not on its local chain)`);
    }
    /** @type {Step<DepositPage>} */
    const none = await f.step('listDeposits', { query: { unique_id: uniqueId } }, 200);
    f.expect(
      (none.json?.data ?? []).length === 0,
      `a new account already has deposits: ${JSON.stringify(none.json?.data)}`,
      none,
    );
    /** @type {Step<TestDeposit>} */
    const sent = await f.step(
      'sendTestDeposit',
      { via: portal, json: { account_id: target.id, method: method.code, amount: TEST_AMOUNT } },
      200,
    );
    const txHash = sent.json?.data?.thash;

    const query = { query: { unique_id: uniqueId } };
    /** @param {Step<DepositPage>} s */
    const listed = (s) => (s.json?.data ?? []).find((d) => d?.tx_hash === txHash);
    const sighting = await poll(
      /** @returns {Promise<Step<DepositPage>>} */
      () => f.step('listDeposits', query, 200),
      (s) => Boolean(listed(s)),
    );
    const deposit = listed(sighting.step);
    if (!deposit) {
      f.abort(
        `the test deposit ${txHash} is not listed for ${uniqueId} ${WAIT_MS / 1000} s after it was sent`,
        sighting.step,
      );
    }
    // With at most one block mined since (auto-mining), a method needing 3 or more is short.
    const pendingExpected = method.confirmations > 2;
    f.expect(
      deposit.address.toLowerCase() === account.address.toLowerCase() &&
        deposit.method === method.code &&
        deposit.block_number === sent.json?.data?.block_number &&
        micro(deposit.amount) === micro(TEST_AMOUNT) &&
        (!pendingExpected || (deposit.status === 0 && deposit.credited_at === null)),
      `the test deposit of ${TEST_AMOUNT} in block ${sent.json?.data?.block_number} is listed as ${JSON.stringify(deposit)}${pendingExpected ? ', expected Pending (0)' : ''}`,
      sighting.step,
    );
    /** @type {Step<Deposit>} */
    const one = await f.step('getDeposit', { path: { id: deposit.id } }, 200);
    f.expect(
      one.json?.tx_hash === txHash && one.json?.unique_id === uniqueId,
      `getDeposit(${deposit.id}) answers ${JSON.stringify(one.json)}`,
      one,
    );
    if (pendingExpected) {
      /** @type {Step<BalanceList>} */
      const pending = await f.step('listBalances', {}, 200);
      const now = totals(pending.json, method.code);
      f.expect(
        now.received !== null &&
          start.received !== null &&
          now.received - start.received === micro(TEST_AMOUNT) &&
          now.credited === start.credited,
        `listBalances for ${method.code} went from ${JSON.stringify(before.json?.data)} to ${JSON.stringify(pending.json?.data)} with ${TEST_AMOUNT} pending`,
        pending,
      );
    }

    const blocks = String(Math.max(1, method.confirmations));
    const mined = await runCommand(mineCommand, { blocks });
    if (!mined.ok) {
      g.options.log(`  --mine failed: ${mined.command}\n${mined.output}`);
      f.abort(`the --mine command failed: ${mined.output.split('\n')[0] ?? ''}`, one);
    }
    const credited = await poll(
      () => f.step('getDeposit', { path: { id: deposit.id } }, 200),
      (s) => [3, 5].includes(/** @type {Deposit | undefined} */ (s.json)?.status ?? -1),
    );
    const final = /** @type {Deposit | undefined} */ (credited.step.json);
    if (final?.status !== 3) {
      f.abort(
        final?.status === 5
          ? `the test deposit failed (${final.failure_reason}) after ${blocks} blocks were mined`
          : `the test deposit is not credited (status 3) ${WAIT_MS / 1000} s after ${blocks} blocks were mined: status ${final?.status}`,
        credited.step,
      );
    }
    f.expect(
      final.credited_at !== null && final.failure_reason === null,
      `the credited deposit reads ${JSON.stringify(final)}`,
      credited.step,
    );
    /** @type {Step<DepositPage>} */
    const filtered = await f.step(
      'listDeposits',
      { query: { unique_id: uniqueId, status: '3' } },
      200,
    );
    f.expect(
      (filtered.json?.data ?? []).some((d) => d?.id === deposit.id),
      `listDeposits?status=3 does not list the credited deposit ${deposit.id}`,
      filtered,
    );
    /** @type {Step<BalanceList>} */
    const after = await f.step('listBalances', {}, 200);
    const end = totals(after.json, method.code);
    const amount = micro(TEST_AMOUNT);
    f.expect(
      end.received !== null &&
        end.credited !== null &&
        start.received !== null &&
        start.credited !== null &&
        end.received - start.received === amount &&
        end.credited - start.credited === amount,
      `listBalances for ${method.code} went from ${JSON.stringify(before.json?.data)} to ${JSON.stringify(after.json?.data)} after ${TEST_AMOUNT} was credited`,
      after,
    );
  },
};

/**
 * @typedef {{ method: string, address: string, amount_due: string, paid: string, due: string }} InvoiceOption
 * @typedef {{ id: string, status: string, exceptions: string[], order_id: string | null,
 *   checkout_url: string, payment_options: InvoiceOption[], payments: { tx_hash: string }[] }} Invoice
 * @typedef {{ data: Invoice[], next_cursor: string | null }} InvoicePage
 */

const INVOICE_AMOUNT = '10.00';

/** Micro-units back to a decimal string. @param {bigint} value */
const fromMicro = (value) =>
  `${value / 1_000_000n}.${(value % 1_000_000n).toString().padStart(6, '0')}`.replace(/\.?0+$/, '');

/** @type {FlowDefinition} */
export const gatewayInvoice = {
  name: 'gateway: invoice -> paid in two parts -> settled',
  ops: ['createInvoice', 'getInvoice', 'listInvoices', 'cancelInvoice'],
  needs: (r) => {
    const g = /** @type {GatewayRunner} */ (r);
    if (!g.key) return needsKey(g);
    if (!r.options.pay) return 'needs --pay to pay the invoice on the chain';
    return r.options.mine ? null : 'needs --mine to mine the confirmations';
  },
  /** @param {Flow} f */
  async run(f) {
    const g = /** @type {GatewayRunner} */ (f.runner);
    const method = await depositMethod(f);
    const orderId = `order-${randomBytes(5).toString('hex')}`;
    /** @type {Step<Invoice & ErrorBody>} */
    const created = await f.step(
      'createInvoice',
      {
        json: {
          amount: INVOICE_AMOUNT,
          currency: 'USD',
          methods: [method.code],
          order_id: orderId,
          description: 'contract check',
        },
      },
      [201, 402, 503],
    );
    if (created.res.status !== 201) {
      f.skip(`createInvoice refused: ${created.json?.error?.message}`);
    }
    const invoice = created.json;
    const option = (invoice.payment_options ?? []).find((o) => o?.method === method.code);
    f.expect(
      invoice.status === 'new' &&
        invoice.exceptions.length === 0 &&
        invoice.order_id === orderId &&
        invoice.checkout_url.endsWith(`/pay/${invoice.id}`) &&
        option !== undefined &&
        micro(option.amount_due) !== null &&
        option.due === option.amount_due,
      `createInvoice answers ${JSON.stringify(invoice)}`,
      created,
    );
    if (!option) f.abort(`the invoice has no payment option for ${method.code}`, created);
    const due = /** @type {bigint} */ (micro(option.amount_due));
    const first = due / 2n;
    const rest = due - first;

    /** @param {string} amount @param {Step<Invoice>} after */
    const pay = async (amount, after) => {
      const paid = await runCommand(/** @type {string} */ (g.options.pay), {
        address: option.address,
        amount,
        method: method.code,
      });
      if (!paid.ok) {
        g.options.log(`  --pay failed: ${paid.command}\n${paid.output}`);
        f.abort(`the --pay command failed: ${paid.output.split('\n')[0] ?? ''}`, after);
      }
    };
    /** @returns {Promise<Step<Invoice>>} */
    const read = () => f.step('getInvoice', { path: { id: invoice.id } }, 200);
    /** @param {(i: Invoice) => boolean} done @param {string} what */
    const until = async (done, what) => {
      const seen = await poll(read, (s) => done(s.json));
      const now = seen.step.json;
      if (!seen.done) {
        f.abort(
          `the invoice is not ${what} ${WAIT_MS / 1000} s later: ${JSON.stringify(now)}`,
          seen.step,
        );
      }
      return { invoice: now, step: seen.step };
    };

    await pay(fromMicro(first), created);
    const partial = await until((i) => (i?.payments ?? []).length === 1, 'paid in part');
    f.expect(
      partial.invoice.status === 'new' && partial.invoice.exceptions.includes('paid_partial'),
      `after ${fromMicro(first)} of ${option.amount_due} the invoice reads ${JSON.stringify(partial.invoice)}, expected new and paid_partial`,
      partial.step,
    );
    await pay(fromMicro(rest), partial.step);
    await until(
      (i) => i?.status === 'processing' || i?.status === 'settled',
      'processing after the rest',
    );
    const mined = await runCommand(/** @type {string} */ (g.options.mine), {
      blocks: String(Math.max(1, method.confirmations)),
    });
    if (!mined.ok) f.abort(`the --mine command failed: ${mined.output}`, partial.step);
    const settled = await until((i) => i?.status === 'settled', 'settled');
    f.expect(
      settled.invoice.payments.length === 2 && !settled.invoice.exceptions.includes('paid_over'),
      `the settled invoice reads ${JSON.stringify(settled.invoice)}`,
      settled.step,
    );
    /** @type {Step<InvoicePage>} */
    const listed = await f.step(
      'listInvoices',
      { query: { status: 'settled', order_id: orderId } },
      200,
    );
    f.expect(
      (listed.json?.data ?? []).some((i) => i?.id === invoice.id),
      `listInvoices?status=settled&order_id=${orderId} does not list ${invoice.id}`,
      listed,
    );
    /** @type {Step<ErrorBody>} */
    const cancel = await f.step('cancelInvoice', { path: { id: invoice.id } }, 409);
    f.expect(
      cancel.json?.error?.code === 'invoice_state',
      `cancelling a settled invoice answers ${JSON.stringify(cancel.json)}, expected invoice_state`,
      cancel,
    );
  },
};
