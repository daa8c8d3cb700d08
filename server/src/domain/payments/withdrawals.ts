import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import type { Database, SendStatus, SendTransactionsTable } from '../../db/schema';
import type {
  MigrationResultSet,
  Transaction,
  Updateable,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';
import { withdrawalRequest, type RequestSigner } from '../../signer/client/requestMac';
import { PAYMENT_METHODS, TEST_CHAIN_OF } from '../chain/paymentMethods';
import { checkPayoutAddress, lostDestination } from '../chain/addresses';
import { withdrawalHoldEnd } from '../apps/apps';
import { refuseOverPlan } from '../apps/plan';
import { ChainNotServedError, type GasBalanceReader } from '../chain/balances';
import { ConflictError, fieldInvalid, ForbiddenError, NotFoundError } from '../errors';
import { gatewayMethods, type GatewayMethod } from './accounts';
import { newId } from '../ids';
import { chainAmountToMicro, microToChainAmount, storedMicro, unitsToDecimal } from '../money';
import { emitWithdrawalEvent } from '../webhooks/events';
import { getWithdrawal, withdrawalOf, withdrawalRows, type Withdrawal } from './withdrawalReads';
import { followSend } from '../refunds/sendStatus';
import { codedMessages } from '../messageCodes';

// Withdrawals (send_transactions): the gateway reserves and queues them; the signer, a process
// apart that holds the keys, signs, broadcasts and follows them. The statuses, as the spec
// numbers them:
//   2 Queued                 reserved in the operational wallet, waiting for the signer;
//   3 Processing Transfer    taken by the signer (being signed and broadcast);
//   4 Energy Transferred     Tron-style networks only;
//   5 Awaiting Confirmation  broadcast; tx_hash set;
//   1 Completed              confirmed on chain;
//   6 Unsuccessful           failure_reason says why; 7 Cancelled.
// 0 Pending is the spec's and unused: a withdrawal is reserved and queued as it is accepted.
//
// A reservation is not a stored counter but the rows themselves: a withdrawal holds its amount
// and its fee reserve (gas_reserve_raw, native coin) in its wallet while it is in 0, 2, 3, 4 or
// 5, or Unsuccessful with a signed transaction that did not fail on chain (it may still be
// mined). Requests of one merchant take one lock (db/locks.ts), read the wallet's balances and
// its reserved rows, then insert: two concurrent requests never both spend the same balance.
// The balance read is conservative (micro-units, truncated), so a check never overstates it.

export const WITHDRAWAL_STATUS = {
  queued: 2,
  processing: 3,
  energyTransferred: 4,
  awaitingConfirmation: 5,
  completed: 1,
  unsuccessful: 6,
  cancelled: 7,
} as const satisfies Record<string, SendStatus>;

/** The failure_reason of a transaction mined and failed: its nonce is spent, nothing moved. */
export const FAILED_ON_CHAIN = 'reverted';

const RESERVING: readonly SendStatus[] = [0, 2, 3, 4, 5];
/** The portal's Cancel and Reinitiate act on these. */
const ACTIONABLE: readonly SendStatus[] = [3, 6];

/**
 * Native coin held back per withdrawal for its network fee: about 100,000 gas (an ERC-20
 * transfer takes ~65,000) at a generous price per chain. The signer pays the real fee.
 */
const LIVE_GAS_RESERVE: Readonly<Record<number, bigint>> = {
  56: 5n * 10n ** 14n, // 0.0005 BNB (5 gwei)
  1: 5n * 10n ** 15n, // 0.005 ETH (50 gwei)
  137: 3n * 10n ** 16n, // 0.03 POL (300 gwei)
};
/** Each test network reserves as its live twin does, so test mode meets the same checks. */
const GAS_RESERVE: Readonly<Record<number, bigint>> = {
  ...LIVE_GAS_RESERVE,
  ...Object.fromEntries(
    [...TEST_CHAIN_OF]
      .filter(([live]) => LIVE_GAS_RESERVE[live] !== undefined)
      .map(([live, test]) => [test, LIVE_GAS_RESERVE[live]]),
  ),
};

export const WITHDRAWAL_MSG = codedMessages('withdrawal', {
  notEnabled: (code: string) => `The app has not enabled ${code}.`,
  switchedOff: (code: string) =>
    `Withdrawals of ${code} are switched off for this app (its For Withdraw switch in the portal).`,
  notSupported: (code: string, network: string) =>
    `Withdrawals of ${code} are not supported on this network yet (${network}).`,
  address: (network: string) =>
    `Not a valid ${network} address: check it (EVM: 0x and 40 hex digits, a mixed-case address must carry its EIP-55 checksum; Tron: base58check, T…).`,
  zero: 'The amount is zero: withdraw more than 0.',
  decimals: (code: string, decimals: number | string) =>
    `${code} has ${decimals} decimals: the amount has more.`,
  zeroAddress: 'to_address is the zero address: coins and tokens sent there are lost.',
  tokenContract: (code: string) =>
    `to_address is ${code}'s own token contract: tokens sent there are lost.`,
  ownWallet:
    "to_address is one of this app's own operational wallets: a withdrawal there pays the network fee and sends nothing out.",
  ownAccount:
    "to_address is one of this app's own deposit accounts: a payment from its operational wallet is not a deposit, and would stay there, never credited nor swept.",
  whitelist:
    'Withdrawals need an IP whitelist: this app has none. Add your servers’ addresses under Merchant Setting in the portal.',
  held: (until: string) =>
    `The app's settings were changed (its IP whitelist or a payout address): withdrawals are held until ${until}.`,
  walletNotReady: (code: string) =>
    `The operational wallet of ${code} is still being created: try again in a few seconds.`,
  notCancellable:
    'Only a withdrawal in Processing Transfer or Unsuccessful status can be cancelled.',
  notRequeueable:
    'Only a withdrawal in Processing Transfer or Unsuccessful status can be re-initiated.',
  signed: 'This withdrawal’s transaction is signed and may still be mined: it cannot be cancelled.',
  broadcast:
    'This withdrawal was broadcast and may still be mined: it cannot be re-initiated until it fails on chain.',
} as const);

/** The fee reserve of a payment out on `chainId`; undefined where the gateway sends none. */
export function gasReserve(chainId: number): bigint | undefined {
  return GAS_RESERVE[chainId];
}

/** The whitelist a payout needs is missing (the gateway answers 403 `whitelist_required`). */
export class WhitelistRequiredError extends ForbiddenError {
  readonly code = 'whitelist_required';
}

/**
 * A changed IP whitelist or payout address is still held: the signer would refuse the withdrawal
 * (the gateway answers 409 `settings_hold` with `hold_until`).
 */
export class SettingsHoldError extends ConflictError {
  readonly code = 'settings_hold';
  constructor(readonly holdUntil: string) {
    super(WITHDRAWAL_MSG.held(holdUntil));
  }
}

/** The operational wallet cannot cover it now (the gateway answers 409 with `code`). */
export class WalletRefusedError extends ConflictError {
  constructor(
    readonly code: 'insufficient_balance' | 'insufficient_gas' | 'wallet_not_ready',
    message: string,
  ) {
    super(message);
  }
}

/** The exact base units of a decimal amount text in a token of `decimals`. */
function parseAmount(code: string, text: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) {
    throw fieldInvalid('amount', WITHDRAWAL_MSG.decimals(code, decimals));
  }
  const raw = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(significant.padEnd(decimals, '0'));
  if (raw === 0n) throw fieldInvalid('amount', WITHDRAWAL_MSG.zero);
  return raw;
}

/** The chain's own coin (what pays the fees), e.g. BNB on BNB Smart Chain. */
function nativeOf(chainId: number): { name: string; decimals: number } {
  const native = PAYMENT_METHODS.find((m) => m.chain_id === chainId && m.is_token === 0);
  return { name: native?.name ?? 'native coin', decimals: native?.decimals ?? 18 };
}

export interface WalletNeed {
  method: GatewayMethod & { isToken: boolean };
  fromAddress: string;
  amountRaw: bigint;
  gasRaw: bigint;
  /** A row being re-queued: its own reservation is not counted against it. */
  exceptId?: string;
}

/** The wallet's balances in base units (a lower bound: the reader rounds down to micro-units). */
async function walletBalances(
  reader: GasBalanceReader,
  need: WalletNeed,
): Promise<{ native: bigint; token: bigint }> {
  const { method } = need;
  const native = nativeOf(method.chainId);
  try {
    const read = await reader.read(
      {
        chain_id: method.chainId as Parameters<GasBalanceReader['read']>[0]['chain_id'],
        network_name: method.network,
        network_type: method.networkType === 'EVM' ? 'EVM' : 'TRON',
        is_token: method.isToken ? 1 : 0,
        token_contract_address: method.tokenContract,
        decimals: method.decimals,
      },
      need.fromAddress,
    );
    return {
      native: microToChainAmount(read.nativeMicro, native.decimals),
      token: microToChainAmount(read.tokenMicro ?? 0n, method.decimals),
    };
  } catch (error) {
    if (error instanceof ChainNotServedError) {
      throw new WalletRefusedError('wallet_not_ready', error.message);
    }
    throw error;
  }
}

/**
 * Refuses (WalletRefusedError) unless the wallet covers `need` after the withdrawals it has
 * reserved. Call inside the transaction that then writes the reservation, under the lock.
 */
export async function refuseUnlessCovered(
  trx: Db,
  reader: GasBalanceReader,
  need: WalletNeed,
): Promise<void> {
  const { method } = need;
  const reserved = await trx
    .selectFrom('send_transactions')
    .select(['id', 'payment_method_id', 'amount_raw', 'gas_reserve_raw'])
    .where('chain_id', '=', method.chainId)
    .where('from_address', '=', need.fromAddress)
    .where((eb) =>
      eb.or([
        eb('status', 'in', RESERVING),
        eb.and([
          eb('status', '=', WITHDRAWAL_STATUS.unsuccessful),
          eb('signed_tx', 'is not', null),
          eb.or([eb('failure_reason', 'is', null), eb('failure_reason', '!=', FAILED_ON_CHAIN)]),
        ]),
      ]),
    )
    .execute();
  const nativeIds = new Set(
    PAYMENT_METHODS.filter((m) => m.is_token === 0).map((m) => m.id as string),
  );
  let tokenReserved = 0n;
  let nativeReserved = 0n;
  for (const row of reserved) {
    if (row.id === need.exceptId) continue;
    const amount = BigInt(row.amount_raw ?? '0');
    nativeReserved += BigInt(row.gas_reserve_raw ?? '0');
    if (nativeIds.has(row.payment_method_id)) nativeReserved += amount;
    else if (row.payment_method_id === method.id) tokenReserved += amount;
  }
  const balance = await walletBalances(reader, need);
  const native = nativeOf(method.chainId);
  const show = (raw: bigint, decimals: number, name: string) =>
    `${unitsToDecimal(raw < 0n ? 0n : raw, decimals)} ${name}`;
  if (method.isToken) {
    const available = balance.token - tokenReserved;
    if (available < need.amountRaw) {
      throw new WalletRefusedError(
        'insufficient_balance',
        `The operational wallet of ${method.code} holds ${show(balance.token, method.decimals, method.name)}, of which ${show(tokenReserved, method.decimals, method.name)} is reserved for withdrawals not yet sent: ${show(available, method.decimals, method.name)} is available, ${show(need.amountRaw, method.decimals, method.name)} was asked.`,
      );
    }
  }
  const nativeNeeded = need.gasRaw + (method.isToken ? 0n : need.amountRaw);
  const nativeAvailable = balance.native - nativeReserved;
  if (nativeAvailable < nativeNeeded) {
    throw new WalletRefusedError(
      method.isToken ? 'insufficient_gas' : 'insufficient_balance',
      method.isToken
        ? `The operational wallet of ${method.code} lacks ${native.name} for the network fee: it holds ${show(balance.native, native.decimals, native.name)}, ${show(nativeReserved, native.decimals, native.name)} reserved for withdrawals not yet sent, and a withdrawal reserves ${show(need.gasRaw, native.decimals, native.name)}. Send ${native.name} to ${need.fromAddress}.`
        : `The operational wallet of ${method.code} holds ${show(balance.native, native.decimals, native.name)}, of which ${show(nativeReserved, native.decimals, native.name)} is reserved for withdrawals not yet sent: ${show(nativeAvailable, native.decimals, native.name)} is available, ${show(nativeNeeded, native.decimals, native.name)} is needed (the amount and a ${show(need.gasRaw, native.decimals, native.name)} fee reserve).`,
    );
  }
}

/** A lock per merchant: their withdrawals' reservations and plan counts, one at a time. */
export async function lockMerchant(trx: Transaction<Database>, appId: string): Promise<void> {
  const app = await trx
    .selectFrom('apps')
    .select('user_id')
    .where('id', '=', appId)
    .executeTakeFirstOrThrow();
  await lockForTransaction(trx, `withdrawals:${app.user_id}`);
}

interface WithdrawalRequest {
  appId: string;
  uniqueId: string;
  code: string;
  toAddress: string;
  amount: string;
  now: Date;
  /** Where a method's token is on the chain this server reads, when not at its listed contract. */
  tokenOnChain?: (chainId: number, listedContract: string) => string;
  /** MACs the accepted withdrawal for the signer (signer/client/requestMac.ts). */
  sign: RequestSigner;
}

/**
 * Refuses (422 on to_address) a destination where the money is lost, or never seen again: the
 * zero address; the token's own contract; one of the app's own operational wallets (a fee paid
 * to move nothing out); one of its own deposit accounts (a payment from an operational wallet is
 * not taken for a deposit, so it would sit there, neither credited nor swept). `to` is in its
 * stored form (EIP-55 for EVM), as addresses are stored.
 */
export async function refuseLostDestination(
  db: Db,
  input: Pick<WithdrawalRequest, 'appId' | 'tokenOnChain'>,
  method: GatewayMethod,
  to: string,
  field = 'to_address',
): Promise<void> {
  const listed = method.tokenContract;
  const contracts = listed ? [listed, input.tokenOnChain?.(method.chainId, listed)] : [];
  const lost = lostDestination(to, contracts);
  // The messages name the field as the withdrawal's request does; another request, its own.
  const refuse = (message: string) => fieldInvalid(field, message.replace(/^to_address/, field));
  if (lost === 'zero_address') throw refuse(WITHDRAWAL_MSG.zeroAddress);
  if (lost === 'token_contract') throw refuse(WITHDRAWAL_MSG.tokenContract(method.code));
  // EVM addresses are stored EIP-55; a row written in lower case matches too.
  const forms = to.startsWith('0x') ? [to, to.toLowerCase()] : [to];
  const wallet = await db
    .selectFrom('app_payment_methods')
    .select('id')
    .where('app_id', '=', input.appId)
    .where('gas_address', 'in', forms)
    .executeTakeFirst();
  if (wallet) throw refuse(WITHDRAWAL_MSG.ownWallet);
  const account = await db
    .selectFrom('app_accounts')
    .select('id')
    .where('app_id', '=', input.appId)
    .where('address', 'in', forms)
    .executeTakeFirst();
  if (account) throw refuse(WITHDRAWAL_MSG.ownAccount);
}

/**
 * Accepts a withdrawal: checks the method, the address (one where the money arrives) and the
 * amount, the app's whitelist and its settings hold, the merchant's plan and the operational
 * wallet, then reserves and queues it (status 2) with its withdrawal.queued event, all in one
 * transaction under the merchant's lock.
 * `readerFor` builds the balance reader on that transaction (the local chain is read from it).
 */
export async function requestWithdrawal(
  db: Db,
  readerFor: (db: Db) => GasBalanceReader,
  input: WithdrawalRequest,
): Promise<Withdrawal> {
  const found = (await gatewayMethods(db, input.appId)).find((m) => m.code === input.code);
  if (!found) throw fieldInvalid('method', WITHDRAWAL_MSG.notEnabled(input.code));
  if (!found.withdrawalsEnabled)
    throw fieldInvalid('method', WITHDRAWAL_MSG.switchedOff(input.code));
  const address = checkPayoutAddress(found.networkType === 'EVM' ? 'EVM' : 'TRON', input.toAddress);
  if (!address.ok) throw fieldInvalid('to_address', WITHDRAWAL_MSG.address(found.network));
  if (found.networkType !== 'EVM' || GAS_RESERVE[found.chainId] === undefined) {
    throw fieldInvalid('method', WITHDRAWAL_MSG.notSupported(found.code, found.network));
  }
  await refuseLostDestination(db, input, found, address.address);
  const amountRaw = parseAmount(found.code, input.amount, found.decimals);
  const app = await db
    .selectFrom('apps')
    .innerJoin('app_payment_methods', 'app_payment_methods.app_id', 'apps.id')
    .select(['apps.whitelist_ip', 'app_payment_methods.gas_address'])
    .where('apps.id', '=', input.appId)
    .where('app_payment_methods.payment_method_id', '=', found.id)
    .executeTakeFirstOrThrow();
  if ((app.whitelist_ip ?? '').trim() === '')
    throw new WhitelistRequiredError(WITHDRAWAL_MSG.whitelist);
  // Refused now rather than accepted, counted and then refused by the signer.
  const heldUntil = await withdrawalHoldEnd(db, input.appId, input.now);
  if (heldUntil !== null) throw new SettingsHoldError(heldUntil);
  const fromAddress = app.gas_address;
  if (!fromAddress) {
    throw new WalletRefusedError('wallet_not_ready', WITHDRAWAL_MSG.walletNotReady(found.code));
  }
  const method = { ...found, isToken: found.tokenContract !== null };
  const gasRaw = GAS_RESERVE[found.chainId] ?? 0n;
  const id = newId('wd');
  const at = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    await lockMerchant(trx, input.appId);
    await refuseOverPlan(trx, input.appId, input.now, 'withdrawal');
    await refuseUnlessCovered(trx, readerFor(trx), {
      method,
      fromAddress,
      amountRaw,
      gasRaw,
    });
    const micro = chainAmountToMicro(amountRaw, found.decimals);
    const request = withdrawalRequest({
      id,
      app_id: input.appId,
      payment_method_id: found.id,
      from_address: fromAddress,
      to_address: address.address,
      amount_raw: amountRaw.toString(),
      unique_id: input.uniqueId,
    });
    await trx
      .insertInto('send_transactions')
      .values({
        id,
        app_id: input.appId,
        payment_method_id: found.id,
        thash: null,
        // The portal's figure; dust below a micro-unit shows as 0 (amount_raw is exact).
        amount_micro: micro <= 0n ? 0 : storedMicro(micro),
        to_address: address.address,
        status: WITHDRAWAL_STATUS.queued,
        created_at: at,
        unique_id: input.uniqueId,
        chain_id: found.chainId,
        from_address: fromAddress,
        amount_raw: amountRaw.toString(),
        gas_reserve_raw: gasRaw.toString(),
        updated_at: at,
        request_mac: input.sign(request),
      })
      .execute();
    const withdrawal = await getWithdrawal(trx, input.appId, id);
    await emitWithdrawalEvent(trx, input.appId, withdrawal, input.now);
    return withdrawal;
  });
}

/** The migration that adds request_mac: the start that applies it vouches for rows in flight. */
const MAC_MIGRATION = '0300_signer_request_macs';

/**
 * At the upgrade that brings request MACs, the withdrawals then in flight (2 to 6, 6 because it
 * may be re-initiated) are given theirs, as their rows read then: once, by whichever process
 * applies the migration (`migrated`, what migrateToLatest answered), one UPDATE per row, only
 * where none is set. Any row without a MAC after that is one the web process never accepted.
 */
export async function macWithdrawalsAtUpgrade(
  db: Db,
  migrated: MigrationResultSet,
  sign: RequestSigner,
): Promise<number> {
  const applied = migrated.results?.some(
    (r) => r.migrationName === MAC_MIGRATION && r.status === 'Success',
  );
  if (!applied) return 0;
  const rows = await db
    .selectFrom('send_transactions')
    .select([
      'id',
      'app_id',
      'payment_method_id',
      'from_address',
      'to_address',
      'amount_raw',
      'unique_id',
    ])
    .where('status', 'in', [2, 3, 4, 5, 6])
    .where('request_mac', 'is', null)
    .execute();
  for (const row of rows) {
    await db
      .updateTable('send_transactions')
      .set({ request_mac: sign(withdrawalRequest(row)) })
      .where('id', '=', row.id)
      .where('request_mac', 'is', null)
      .execute();
  }
  return rows.length;
}

type WithdrawalUpdate = UpdateQueryBuilder<
  Database,
  'send_transactions',
  'send_transactions',
  UpdateResult
>;

/**
 * The one way a withdrawal changes status: a compare-and-set from `from` (and `where`, more
 * conditions on the row) to `to` with `set`, and its withdrawal.* event in the same
 * transaction. Answers whether the row changed (false: another writer moved it first). The
 * portal's actions use it, and so does the signer (docs/gateway.md, "How a withdrawal goes out").
 */
export async function moveWithdrawal(
  trx: Transaction<Database>,
  change: {
    id: string;
    from: readonly SendStatus[];
    to: SendStatus;
    set?: Omit<Updateable<SendTransactionsTable>, 'status' | 'updated_at'>;
    where?: (update: WithdrawalUpdate) => WithdrawalUpdate;
    now: Date;
    /** Reported as this event instead of its status's (a reorg's move from 1 back to 5). */
    event?: 'withdrawal.reorged';
  },
): Promise<boolean> {
  let update = trx
    .updateTable('send_transactions')
    .set({
      // A withdrawal that moves waits for nothing it waited for.
      waiting_reason: null,
      waiting_message: null,
      ...change.set,
      status: change.to,
      updated_at: change.now.toISOString(),
    })
    .where('id', '=', change.id)
    .where('status', 'in', change.from);
  if (change.where) update = change.where(update);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  const { app_id: appId, refund_id: refundId } = await trx
    .selectFrom('send_transactions')
    .select(['app_id', 'refund_id'])
    .where('id', '=', change.id)
    .executeTakeFirstOrThrow();
  if (refundId !== null) {
    await followSend(trx, refundId, change.to, change.now, change.event === 'withdrawal.reorged');
    return true;
  }
  // Rows from before the gateway's withdrawals have no API form, hence no event.
  const row = await withdrawalRows(trx, appId)
    .where('send_transactions.id', '=', change.id)
    .executeTakeFirst();
  if (row) await emitWithdrawalEvent(trx, appId, withdrawalOf(row), change.now, change.event);
  return true;
}

/** A withdrawal of one of `userId`'s apps, as the portal's actions read it. */
async function ownedWithdrawal(db: Db, userId: string, id: string) {
  const row = await db
    .selectFrom('send_transactions')
    .innerJoin('apps', 'apps.id', 'send_transactions.app_id')
    .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
    .select([
      'send_transactions.id',
      'send_transactions.app_id',
      'send_transactions.status',
      'send_transactions.signed_tx',
      'send_transactions.broadcast_at',
      'send_transactions.failure_reason',
      'send_transactions.from_address',
      'send_transactions.amount_raw',
      'send_transactions.gas_reserve_raw',
      'payment_methods.code',
    ])
    .where('send_transactions.id', '=', id)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError();
  return row;
}

/**
 * The portal's Cancel: from 3 or 6 to 7, only while no transaction is signed, or once the
 * signed one failed on chain (a compare-and-set on exactly that: never after a broadcast that
 * may still be mined). Cancelled, it reserves nothing.
 */
export async function cancelWithdrawal(
  db: Db,
  userId: string,
  id: string,
  now: Date,
): Promise<void> {
  const row = await ownedWithdrawal(db, userId, id);
  if (!ACTIONABLE.includes(row.status)) throw new ConflictError(WITHDRAWAL_MSG.notCancellable);
  const moved = await db.transaction().execute((trx) =>
    moveWithdrawal(trx, {
      id,
      from: ACTIONABLE,
      to: WITHDRAWAL_STATUS.cancelled,
      where: (update) =>
        update.where((eb) =>
          eb.or([eb('signed_tx', 'is', null), eb('failure_reason', '=', FAILED_ON_CHAIN)]),
        ),
      now,
    }),
  );
  if (moved) return;
  const current = await ownedWithdrawal(db, userId, id);
  throw new ConflictError(
    ACTIONABLE.includes(current.status) ? WITHDRAWAL_MSG.signed : WITHDRAWAL_MSG.notCancellable,
  );
}

/**
 * Cancels send `id` while nothing of it is signed, or what was signed failed on chain (a
 * compare-and-set on exactly that, from Queued, Processing Transfer or Unsuccessful): a refund's
 * cancel. Answers whether it moved.
 */
export function cancelSendBeforeSigning(
  trx: Transaction<Database>,
  id: string,
  now: Date,
): Promise<boolean> {
  return moveWithdrawal(trx, {
    id,
    from: [WITHDRAWAL_STATUS.queued, ...ACTIONABLE],
    to: WITHDRAWAL_STATUS.cancelled,
    where: (update) =>
      update.where((eb) =>
        eb.or([eb('signed_tx', 'is', null), eb('failure_reason', '=', FAILED_ON_CHAIN)]),
      ),
    now,
  });
}

/**
 * The portal's Reinitiate: from 3 or 6 back to 2 (Queued), only if nothing was broadcast or
 * the broadcast failed on chain. Failed on chain, the signed transaction is cleared (the signer
 * signs afresh with a new nonce); signed but never broadcast, it is kept, so the signer sends
 * those same bytes and a retry can never pay twice. A row that reserved nothing (Unsuccessful)
 * takes its reservation again, checked against the wallet under the merchant's lock.
 */
export async function reinitiateWithdrawal(
  db: Db,
  readerFor: (db: Db) => GasBalanceReader,
  userId: string,
  id: string,
  now: Date,
): Promise<void> {
  const row = await ownedWithdrawal(db, userId, id);
  if (!ACTIONABLE.includes(row.status)) throw new ConflictError(WITHDRAWAL_MSG.notRequeueable);
  const failedOnChain = row.failure_reason === FAILED_ON_CHAIN;
  if (row.broadcast_at !== null && !failedOnChain)
    throw new ConflictError(WITHDRAWAL_MSG.broadcast);
  const method = row.code
    ? (await gatewayMethods(db, row.app_id)).find((m) => m.code === row.code)
    : undefined;
  const moved = await db.transaction().execute(async (trx) => {
    await lockMerchant(trx, row.app_id);
    const reserving = RESERVING.includes(row.status) || (row.signed_tx !== null && !failedOnChain);
    // Rows from before the gateway (no wallet recorded) have nothing to reserve.
    if (!reserving && method && row.from_address && row.amount_raw !== null) {
      await refuseUnlessCovered(trx, readerFor(trx), {
        method: { ...method, isToken: method.tokenContract !== null },
        fromAddress: row.from_address,
        amountRaw: BigInt(row.amount_raw),
        gasRaw: BigInt(row.gas_reserve_raw ?? '0'),
        exceptId: row.id,
      });
    }
    return moveWithdrawal(trx, {
      id,
      from: [row.status],
      to: WITHDRAWAL_STATUS.queued,
      set: failedOnChain
        ? { signed_tx: null, tx_hash: null, nonce: null, broadcast_at: null, failure_reason: null }
        : { failure_reason: null },
      // The same facts the decision read: nothing broadcast since, or still failed on chain.
      where: (update) =>
        failedOnChain
          ? update.where('failure_reason', '=', FAILED_ON_CHAIN)
          : update.where('broadcast_at', 'is', null),
      now,
    });
  });
  if (!moved) throw new ConflictError(WITHDRAWAL_MSG.notRequeueable);
}
