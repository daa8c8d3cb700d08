// The Subscriptions flow: fund the wallet, buy a package, see it in the history, cancel it,
// and leave the roomiest package in force for the apps flow.
import { runCommand } from '../command.mjs';

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
 * The answers this flow reads, as the contract declares them.
 * @typedef {{ id: string, name: string, price: number, app_count: number }} Package
 * @typedef {{ id: string, package_id: string, status: number }} CurrentSubscription
 * @typedef {{ data: Package[], current_subscription: CurrentSubscription | null }} PackageList
 * @typedef {{ data: { payInBalance: number } }} Balance
 * @typedef {{ id: string, package: string, price: number, status: number }} SubscriptionRow
 * @typedef {{ data: { data: SubscriptionRow[] } }} SubscriptionList
 * @typedef {{ data: { amount_due: number, credit: number, payable: boolean } }} Quote
 */

/** @param {unknown} a @param {unknown} b */
const near = (a, b) => typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-6;
/** @type {FlowDefinition} */
export const purchaseAndCancel = {
  name: 'purchase -> history -> cancel',
  ops: [
    'listPackages',
    'getPurchaseQuote',
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
  /** @param {Flow} f */
  async run(f) {
    const r = f.runner;
    // needs() let the flow run: there is an account and a --fund command.
    const account = /** @type {Account} */ (r.account);
    const fundCommand = /** @type {string} */ (r.options.fund);
    /** @type {Step<PackageList>} */
    const listed = await f.step('listPackages', {}, 200);
    const packages = [...(listed.json?.data ?? [])].sort((a, b) => a.price - b.price);
    const [cheapest] = packages;
    if (!cheapest) f.skip('listPackages lists no package');
    const [roomiest = cheapest] = [...packages].sort(
      (a, b) => b.app_count - a.app_count || a.price - b.price,
    );
    /** @type {Step<Balance>} */
    const initial = await f.step('getBalance', {}, 200);
    const before = initial.json?.data?.payInBalance;
    const amount = Math.ceil(cheapest.price + roomiest.price) + 1;
    const fund = await runCommand(fundCommand, {
      username: account.username,
      amount: String(amount),
    });
    if (!fund.ok) {
      f.failed = true;
      r.options.log(`  --fund failed: ${fund.command}\n${fund.output}`);
      f.skip(`the --fund command failed: ${fund.output.split('\n')[0] ?? ''}`);
    }
    // A deposit may wait on chain until the wallet's balance sync credits it.
    await f.step('syncBalance', {}, 200);
    /** @type {Step<Balance>} */
    const funded = await f.step('getBalance', {}, 200);
    f.expect(
      near(funded.json?.data?.payInBalance, before + amount),
      `getBalance shows ${funded.json?.data?.payInBalance} after depositing ${amount} on ${before}`,
      funded,
    );
    /** @type {Step<Quote>} */
    const quote = await f.step('getPurchaseQuote', { query: { package_id: cheapest.id } }, 200);
    f.expect(
      near(quote.json?.data?.amount_due, cheapest.price) && quote.json?.data?.payable === true,
      `a first purchase of ${cheapest.id} (${cheapest.price}) is quoted ${JSON.stringify(quote.json?.data)}`,
      quote,
    );
    await f.step(
      'purchasePackage',
      { json: { package_id: cheapest.id, amount_due: cheapest.price } },
      200,
    );
    /** @type {Step<Balance>} */
    const paid = await f.step('getBalance', {}, 200);
    f.expect(
      near(paid.json?.data?.payInBalance, funded.json?.data?.payInBalance - cheapest.price),
      `buying ${cheapest.id} (${cheapest.price}) took the balance from ${funded.json?.data?.payInBalance} to ${paid.json?.data?.payInBalance}`,
      paid,
    );
    await f.step('purchasePackage', { json: { package_id: cheapest.id } }, 409);
    /** @type {Step<SubscriptionList>} */
    const history = await f.step('listSubscriptions', {}, 200);
    const row = history.json?.data?.data?.[0];
    f.expect(
      row?.package === cheapest.name && row?.status === 1 && near(row?.price, cheapest.price),
      `the newest history row is ${JSON.stringify(row)}, expected the active ${cheapest.name}`,
      history,
    );
    /** @type {Step<PackageList>} */
    const current = await f.step('listPackages', {}, 200);
    const sub = current.json?.current_subscription;
    f.expect(
      sub?.package_id === cheapest.id && sub?.status === 1,
      `current_subscription is ${JSON.stringify(sub)} after buying ${cheapest.id}`,
      current,
    );
    if (!sub?.id) return;
    await f.step('cancelSubscription', { path: { id: sub.id } }, 200);
    /** @type {Step<PackageList>} */
    const canceled = await f.step('listPackages', {}, 200);
    f.expect(
      canceled.json?.current_subscription?.status === 2,
      `after cancelSubscription current_subscription is ${JSON.stringify(canceled.json?.current_subscription)}, expected status 2`,
      canceled,
    );
    await f.step('cancelSubscription', { path: { id: sub.id } }, 409);
    /** @type {Step<SubscriptionList>} */
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
    /** @type {Step<PackageList>} */
    const upgraded = await f.step('listPackages', {}, 200);
    f.expect(
      upgraded.json?.current_subscription?.package_id === roomiest.id &&
        upgraded.json?.current_subscription?.status === 1,
      `after buying ${roomiest.id} current_subscription is ${JSON.stringify(upgraded.json?.current_subscription)}`,
      upgraded,
    );
  },
};
