import { parseUnits } from 'viem';
import type { Db } from '../../db/connection';
import { PAYMENT_METHODS } from '../chain/paymentMethods';
import {
  mineLocalBlocks,
  recordLocalChainTransfer,
  reorgLocalTransfer,
} from '../chain/localAdapter';
import { addressKey } from '../chain/specChains';
import { ConflictError, fieldInvalid, ForbiddenError, NotFoundError } from '../errors';
import { unitsToDecimal } from '../money';
import { gatewayMethods, type GatewayMethod } from '../payments/accounts';
import type { LocalChains } from '../payments/testDeposits';
import { loadInvoices } from '../invoices/invoices';
import { watcherKind } from '../payments/deposits';
import { runNow } from '../../jobs/queue';
import { claimRequests } from '../rateLimits';
import { codedMessages } from '../messageCodes';

// Test mode's payer: one call makes a scenario's transfers on the local chain of a test network,
// and the watcher, the invoice state machine and the webhooks take them from there exactly as
// they take live money. Nothing here writes a payment, a status or an event.

export const SCENARIOS = ['full', 'partial', 'over', 'late', 'reorg', 'wrong_network'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What an account (no price) can be paid with: an amount, on its own network or another. */
const ACCOUNT_SCENARIOS: readonly Scenario[] = ['full', 'wrong_network'];

/** Simulated payments (or confirmations) one invoice takes a minute from its checkout or the portal. */
export const INVOICE_SIMULATION_LIMIT = 30;

const SIMULATION_MESSAGES = codedMessages('simulation', {
  liveApp: 'Payments are simulated in test mode only: use a test key (csl_test_…).',
  target: 'Send invoice_id or address, not both.',
  noTarget: 'Send the invoice_id or the address to pay.',
  accountScenario:
    'An account has no price: simulate full or wrong_network, with the amount to send.',
  accountAmount: 'Send the amount to pay the account, in the method’s units.',
  amountOnePlace: 'Enter an amount more than 0, with at most 1 decimal place.',
  amount: (places: string) => `Enter an amount more than 0, with at most ${places} decimal places.`,
  invoiceMethod: (code: string, offered: string) =>
    `The invoice cannot be paid in ${code}; it offers ${offered}.`,
  accountMethod: (code: string) =>
    `The app has not enabled ${code} on this account's network: add it in test mode's Payment Setting.`,
  invoiceState: (status: string) =>
    `The invoice is ${status}: only a new or processing invoice takes a simulated payment.`,
  paidInFull: 'The invoice is already paid in full in this method: simulate over to pay more.',
  noOtherNetwork: (asset: string) =>
    `${asset} runs on no other EVM test network: wrong_network needs one to send on.`,
  publicTestnet: (network: string) =>
    `${network} runs on a public test network here: send a real testnet transfer instead.`,
  unknownPayment: 'No simulated payment has this transaction hash in this test mode.',
  liveInvoice: 'This invoice is live: payments are simulated on test mode’s invoices only.',
  invoiceLimitOneSecond: `At most ${INVOICE_SIMULATION_LIMIT} simulated payments or confirmations a minute per invoice: try again in 1 second.`,
  invoiceLimit: (seconds: string) =>
    `At most ${INVOICE_SIMULATION_LIMIT} simulated payments or confirmations a minute per invoice: try again in ${seconds} seconds.`,
  nothingToConfirm:
    'No payment to this invoice is on a test network’s local chain: simulate one first.',
} as const);

/** The refusals of simulated payments; a count of 1 has its own message (and code). */
export const SIMULATION_MSG = {
  ...SIMULATION_MESSAGES,
  amount: (places: number) =>
    places === 1 ? SIMULATION_MESSAGES.amountOnePlace : SIMULATION_MESSAGES.amount(String(places)),
  invoiceLimit: (seconds: number) =>
    seconds === 1
      ? SIMULATION_MESSAGES.invoiceLimitOneSecond
      : SIMULATION_MESSAGES.invoiceLimit(String(seconds)),
} as const;

export interface SimulatedPayment {
  scenario: Scenario;
  invoiceId: string | null;
  address: string;
  method: string;
  chainId: number;
  amount: string;
  txHash: string;
  blockNumber: number;
  confirmations: number;
}

interface Target {
  invoiceId: string | null;
  address: string;
  method: GatewayMethod | TestMethod;
  /** Base units to send, before the scenario's shape. */
  due: bigint | null;
  decimals: number;
}

interface TestMethod {
  id: string;
  code: string;
  chainId: number;
  tokenContract: string | null;
  decimals: number;
  confirmations: number;
  network: string;
  asset: string;
}

function testMethod(id: string): TestMethod | undefined {
  const m = PAYMENT_METHODS.find((row) => row.id === id && row.livemode === 0);
  if (!m) return undefined;
  return {
    id: m.id,
    code: m.code ?? m.id,
    chainId: m.chain_id,
    tokenContract: m.token_contract_address ?? null,
    decimals: m.decimals,
    confirmations: m.confirmations ?? 1,
    network: m.network_name,
    asset: m.name,
  };
}

/** The same coin or token on another EVM test network: where a wrong_network payment goes. */
function otherNetwork(methodId: string): TestMethod | undefined {
  const own = PAYMENT_METHODS.find((row) => row.id === methodId);
  if (!own) return undefined;
  const other = PAYMENT_METHODS.find(
    (row) =>
      row.livemode === 0 &&
      row.network_type === 'EVM' &&
      own.network_type === 'EVM' &&
      row.name === own.name &&
      row.chain_id !== own.chain_id,
  );
  return other ? testMethod(other.id) : undefined;
}

/** The scenario's amount from what is due: half, a tenth more, or all of it. */
function shaped(scenario: Scenario, due: bigint): bigint {
  if (scenario === 'partial') return due / 2n > 0n ? due / 2n : 1n;
  if (scenario === 'over') return due + (due / 10n > 0n ? due / 10n : 1n);
  return due;
}

/** A decimal amount in `decimals` places as base units; a field error when it is not one. */
function unitsOf(amount: string, decimals: number): bigint {
  const match = /^(\d{1,30})(?:\.(\d+))?$/.exec(amount.trim());
  if (!match || (match[2]?.length ?? 0) > decimals) {
    throw fieldInvalid('amount', SIMULATION_MSG.amount(decimals));
  }
  const units = parseUnits(amount.trim(), decimals);
  if (units <= 0n) throw fieldInvalid('amount', SIMULATION_MSG.amount(decimals));
  return units;
}

async function testAppOnly(db: Db, appId: string): Promise<void> {
  const app = await db
    .selectFrom('apps')
    .select('livemode')
    .where('id', '=', appId)
    .executeTakeFirst();
  if (!app) throw new NotFoundError();
  if (app.livemode !== 0) throw new ForbiddenError(SIMULATION_MSG.liveApp);
}

async function invoiceTarget(
  db: Db,
  appId: string,
  invoiceId: string,
  methodCode: string | undefined,
): Promise<Target & { status: string; expiresAt: string }> {
  const [record] = await loadInvoices(db, appId, [invoiceId]);
  if (!record) throw new NotFoundError();
  const { invoice, options, payments } = record;
  if (invoice.status !== 'new' && invoice.status !== 'processing') {
    throw new ConflictError(SIMULATION_MSG.invoiceState(invoice.status));
  }
  const option =
    methodCode === undefined ? options[0] : options.find((o) => o.method_code === methodCode);
  if (!option) {
    const offered = options.map((o) => o.method_code).join(', ');
    throw fieldInvalid('method', SIMULATION_MSG.invoiceMethod(methodCode ?? '', offered));
  }
  const method = testMethod(option.payment_method_id);
  if (!method) throw new ForbiddenError(SIMULATION_MSG.liveApp);
  const paid = payments
    .filter((p) => p.payment_method_id === option.payment_method_id && p.status !== 'removed')
    .reduce((sum, p) => sum + BigInt(p.amount_raw), 0n);
  const due = BigInt(option.amount_due_raw) - paid;
  return {
    invoiceId: invoice.id,
    address: option.address,
    method,
    due,
    decimals: option.decimals,
    status: invoice.status,
    expiresAt: invoice.expires_at,
  };
}

async function accountTarget(
  db: Db,
  appId: string,
  address: string,
  methodCode: string | undefined,
): Promise<Target> {
  const account = await db
    .selectFrom('app_accounts')
    .select(['address', 'chain_id'])
    .where('app_id', '=', appId)
    .where('address', '=', addressKey(address.trim()))
    .executeTakeFirst();
  if (!account) throw new NotFoundError();
  const methods = await gatewayMethods(db, appId);
  const method = methods.find(
    (m) => m.chainId === account.chain_id && (methodCode === undefined || m.code === methodCode),
  );
  if (!method) throw fieldInvalid('method', SIMULATION_MSG.accountMethod(methodCode ?? ''));
  return {
    invoiceId: null,
    address: account.address,
    method,
    due: null,
    decimals: method.decimals,
  };
}

/**
 * A payer's transfer for `scenario` to a test app's invoice or deposit account, on the local
 * chain of the method's test network:
 * - full: what the invoice still asks in the method (an account: `amount`);
 * - partial: half of that, so the invoice waits for the rest;
 * - over: a tenth more than it asks;
 * - late: the invoice's expiry is moved to now, as a test clock would, and then it is paid in
 *   full: its late window decides whether it settles, flagged paid_late;
 * - reorg: paid in full, and the confirmation that follows (confirmPayment) is a reorg that takes
 *   the payment off the chain: the invoice goes back to new (invalid once expired);
 * - wrong_network: the amount in the same coin or token on another EVM test network, to the same
 *   address, for the merchant to accept or refund.
 * `amount`, when given, replaces the scenario's amount (in the method's units).
 */
export async function simulatePayment(
  db: Db,
  local: LocalChains,
  input: {
    appId: string;
    invoiceId?: string;
    address?: string;
    method?: string;
    amount?: string;
    scenario: Scenario;
    now: Date;
  },
): Promise<SimulatedPayment> {
  await testAppOnly(db, input.appId);
  if (input.invoiceId !== undefined && input.address !== undefined) {
    throw fieldInvalid('invoice_id', SIMULATION_MSG.target);
  }
  let target: Target;
  let expiresAt: string | null = null;
  if (input.invoiceId !== undefined) {
    const invoice = await invoiceTarget(db, input.appId, input.invoiceId, input.method);
    target = invoice;
    expiresAt = invoice.expiresAt;
  } else if (input.address !== undefined) {
    if (!ACCOUNT_SCENARIOS.includes(input.scenario)) {
      throw fieldInvalid('scenario', SIMULATION_MSG.accountScenario);
    }
    if (input.amount === undefined) throw fieldInvalid('amount', SIMULATION_MSG.accountAmount);
    target = await accountTarget(db, input.appId, input.address, input.method);
  } else {
    throw fieldInvalid('invoice_id', SIMULATION_MSG.noTarget);
  }

  let units: bigint;
  if (input.amount !== undefined) {
    units = unitsOf(input.amount, target.decimals);
  } else {
    const due = target.due ?? 0n;
    if (due <= 0n && input.scenario !== 'over') {
      throw new ConflictError(SIMULATION_MSG.paidInFull);
    }
    const base = due > 0n ? due : 1n;
    units = shaped(input.scenario, base);
  }

  let method: GatewayMethod | TestMethod = target.method;
  if (input.scenario === 'wrong_network') {
    const other = otherNetwork(method.id);
    if (!other) {
      const asset = testMethod(method.id)?.asset ?? method.code;
      throw new ConflictError(SIMULATION_MSG.noOtherNetwork(asset));
    }
    // The same amount of the asset, in the other network's decimals.
    units = parseUnits(unitsToDecimal(units, target.decimals), other.decimals);
    method = other;
  }
  const chain = local.get(method.chainId);
  if (!chain) {
    throw new ConflictError(SIMULATION_MSG.publicTestnet(testMethod(method.id)?.network ?? ''));
  }
  if (input.scenario === 'late' && target.invoiceId !== null && expiresAt !== null) {
    // The test clock: the invoice's expiry is now, so the payment below arrives after it.
    const moved = new Date(input.now.getTime() - 1_000).toISOString();
    if (moved < expiresAt) {
      await db
        .updateTable('invoices')
        .set({ expires_at: moved })
        .where('id', '=', target.invoiceId)
        .where('app_id', '=', input.appId)
        .execute();
    }
  }
  const transfer = await recordLocalChainTransfer(db, {
    chainId: chain.chainId,
    token: method.tokenContract === null ? null : chain.tokenContract(method.tokenContract),
    to: target.address,
    amount: units,
    createdAt: input.now.toISOString(),
  });
  if (input.scenario === 'reorg') {
    // Taken off the chain by the confirmation that follows (confirmPayment).
    await db
      .insertInto('local_chain_reorgs')
      .values({
        tx_hash: transfer.txHash,
        chain_id: chain.chainId,
        block_number: transfer.blockNumber,
        reorged_at: null,
      })
      .execute();
  }
  // The watcher sees the new block now, as it would a real chain's next head.
  await runNow(db, watcherKind(chain.chainId), Date.now());
  return {
    scenario: input.scenario,
    invoiceId: target.invoiceId,
    address: target.address,
    method: method.code,
    chainId: method.chainId,
    amount: unitsToDecimal(units, method.decimals),
    txHash: transfer.txHash,
    blockNumber: transfer.blockNumber,
    confirmations: method.confirmations,
  };
}

/**
 * Mines the blocks a simulated payment still needs to be final (its method's confirmations), on
 * the local chain of its test network; answers the head after.
 */
export async function confirmPayment(
  db: Db,
  local: LocalChains,
  input: { appId: string; txHash: string },
): Promise<{ chainId: number; head: number; mined: number }> {
  await testAppOnly(db, input.appId);
  const transfer = await db
    .selectFrom('chain_transfers')
    .select(['chain_id', 'block_number', 'token_contract', 'to_address'])
    .where('tx_hash', '=', input.txHash.trim())
    .executeTakeFirst();
  if (!transfer) throw new NotFoundError(SIMULATION_MSG.unknownPayment);
  // Only a payment to the app's own addresses, in a test network's method.
  const { token_contract: token } = transfer;
  const method = PAYMENT_METHODS.find(
    (m) =>
      m.livemode === 0 &&
      m.chain_id === transfer.chain_id &&
      (token === null
        ? !m.token_contract_address
        : !!m.token_contract_address && addressKey(m.token_contract_address) === token),
  );
  const owned = await ownsAddress(db, input.appId, transfer.to_address);
  if (!method || !owned) throw new NotFoundError(SIMULATION_MSG.unknownPayment);
  const chain = local.get(transfer.chain_id);
  if (!chain) throw new ConflictError(SIMULATION_MSG.publicTestnet(method.network_name));
  const needed = method.confirmations ?? 1;
  const reorg = await db
    .selectFrom('local_chain_reorgs')
    .select('tx_hash')
    .where('tx_hash', '=', input.txHash.trim())
    .where('reorged_at', 'is', null)
    .executeTakeFirst();
  if (reorg) {
    // The reorg scenario: the branch that wins holds the blocks the payment needed, without it.
    const after = await reorgLocalTransfer(db, chain.chainId, reorg.tx_hash, {
      mined: needed,
      now: new Date(),
    });
    await runNow(db, watcherKind(chain.chainId), Date.now());
    return {
      chainId: transfer.chain_id,
      head: after ?? (await chain.latestBlock()),
      mined: needed,
    };
  }
  const head = await chain.latestBlock();
  const missing = Math.max(0, transfer.block_number + needed - head);
  const after = missing > 0 ? await mineLocalBlocks(db, missing, chain.chainId) : head;
  if (missing > 0) await runNow(db, watcherKind(chain.chainId), Date.now());
  return { chainId: transfer.chain_id, head: after, mined: missing };
}

async function ownsAddress(db: Db, appId: string, address: string): Promise<boolean> {
  const [account, option] = await Promise.all([
    db
      .selectFrom('app_accounts')
      .select('id')
      .where('app_id', '=', appId)
      .where('address', '=', address)
      .executeTakeFirst(),
    db
      .selectFrom('invoice_payment_options as o')
      .innerJoin('invoices as i', 'i.id', 'o.invoice_id')
      .select('o.invoice_id')
      .where('i.app_id', '=', appId)
      .where('o.address', '=', address)
      .executeTakeFirst(),
  ]);
  return account !== undefined || option !== undefined;
}

/**
 * Counts one simulation (or confirmation) of invoice `invoiceId` in its minute, its checkout
 * page's and the portal's together: 0 when it may go ahead, else the seconds until it may.
 */
export async function claimInvoiceSimulation(
  db: Db,
  invoiceId: string,
  now: number,
): Promise<number> {
  const window = await claimRequests(db, `test-helpers:invoice:${invoiceId}`, 60_000, now, 1);
  if (window.count <= INVOICE_SIMULATION_LIMIT) return 0;
  return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
}

/** Why an invoice's own pages offer no simulated payment: a live app's, no longer payable, on a public testnet. */
export type SimulationRefusal = 'live' | 'final' | 'testnet';

/**
 * Whether an invoice (its app's mode, its status, the chain of the option to pay) can take a
 * simulated payment on this server, or why not: what simulatePayment would refuse before paying,
 * so a page can leave out the buttons it would refuse.
 */
export function simulationRefusal(
  invoice: { livemode: boolean; status: string; chainId: number | undefined },
  local: LocalChains,
): SimulationRefusal | null {
  if (invoice.livemode) return 'live';
  if (invoice.status !== 'new' && invoice.status !== 'processing') return 'final';
  if (invoice.chainId === undefined || !local.has(invoice.chainId)) return 'testnet';
  return null;
}

/**
 * Mines the blocks every simulated payment to test invoice `invoiceId`'s addresses still needs
 * (confirmPayment for each transfer on a local chain to them); answers how many blocks it mined.
 */
export async function confirmInvoicePayments(
  db: Db,
  local: LocalChains,
  input: { appId: string; invoiceId: string },
): Promise<{ payments: number; mined: number }> {
  await testAppOnly(db, input.appId);
  const [record] = await loadInvoices(db, input.appId, [input.invoiceId]);
  if (!record) throw new NotFoundError();
  const addresses = [...new Set(record.options.map((o) => addressKey(o.address)))];
  const chains = [...local.keys()];
  const transfers =
    addresses.length === 0 || chains.length === 0
      ? []
      : await db
          .selectFrom('chain_transfers')
          .select('tx_hash')
          .where('to_address', 'in', addresses)
          .where('chain_id', 'in', chains)
          .orderBy('block_number')
          .execute();
  if (transfers.length === 0) throw new ConflictError(SIMULATION_MSG.nothingToConfirm);
  const hashes = new Set(transfers.map((row) => row.tx_hash));
  let mined = 0;
  for (const txHash of hashes) {
    mined += (await confirmPayment(db, local, { appId: input.appId, txHash })).mined;
  }
  return { payments: hashes.size, mined };
}
