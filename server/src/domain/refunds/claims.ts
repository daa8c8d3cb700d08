import type { Db } from '../../db/connection';
import type { RefundStatus } from '../../db/schema';
import { refundRequest, type RequestSigner } from '../../signer/client/requestMac';
import { ChainUnavailableError } from '../chain/adapter';
import { checkPayoutAddress, lostDestination } from '../chain/addresses';
import type { GasBalanceReader } from '../chain/balances';
import { ConflictError, InvalidError, NotFoundError, type FieldErrors } from '../errors';
import { unitsToDecimal } from '../money';
import type { GatewayMethod } from '../payments/accounts';
import { emitRefundEvent } from '../webhooks/events';
import { fundRefund } from './funding';
import { claimTokenHash, destination } from './refunds';
import { refundRows, refundView, type Refund, type RefundRow } from './views';
import { codedMessages } from '../messageCodes';

// The shopper's side of a claim link (`/refund/<token>`): what the page shows of the refund,
// and the claim itself. The token is the only key (192 random bits, found by its SHA-256), so
// nothing of the merchant beyond the app's name and logo and the refund's own facts leaves here.
//
// A claim is a compare-and-set on `pending_claim` before the link's expiry: the first claim
// sets the address for good; a second one, a claim after the expiry (whether or not the refunds
// job has marked it expired yet) or after a cancel is refused, each with its own sentence, and
// writes nothing. The address is checked as a merchant's is (destination() in refunds.ts)
// before anything is written; a claimed refund is MACed for the signer and funded in the same
// transaction, with its refund.claimed event last.

/** Where a claim link stands, as its page shows it. */
export type ClaimState =
  | { kind: 'open' }
  | {
      /** claimed: on its way (awaiting funds, queued, being sent); then completed or failed. */
      kind: 'claimed' | 'completed' | 'failed';
      address: string;
      status: RefundStatus;
      txHash: string | null;
    }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

/** What the claim page shows of a refund. */
export interface RefundClaim {
  appName: string;
  /** The app's logo, a stored image's file name (public by name), or null. */
  appLogo: string | null;
  /** False for a test app's refund: its page says no real money moves. */
  livemode: boolean;
  /** The exact token amount, in the token's decimals. */
  amount: string;
  /** The coin or token (USDT) and the method's code (USDT-BEP20). */
  asset: string;
  method: string;
  /** The network by name and its chain id. */
  network: string;
  chainId: number;
  /** Until when the link can be claimed (ISO). */
  expiresAt: string | null;
  /** The merchant's reason for the refund. */
  reason: string;
  state: ClaimState;
}

/** Why a claim is refused by the refund's state. */
export type ClaimConflict = 'claimed' | 'expired' | 'cancelled';

export const CLAIM_MSG = codedMessages('claim', {
  notFound: 'No refund has this claim link.',
  claimed: 'This refund was claimed already: the address it is paid to cannot be changed.',
  expired: 'This claim link has expired: ask the merchant for a new refund link.',
  cancelled: 'The merchant cancelled this refund: it can no longer be claimed.',
} as const);

/** A claim refused by the refund's state: already claimed, expired or cancelled. */
export class ClaimConflictError extends ConflictError {
  constructor(readonly reason: ClaimConflict) {
    super(CLAIM_MSG[reason]);
  }
}

/**
 * Why an address was refused: not an address of the refund's network (`format`, a typo or an
 * address of another network), one where tokens are lost (`lost`: the zero address, the token's
 * contract), or one of the merchant's own (`merchant`: its operational wallet, a deposit account,
 * the invoice's address). The message is destination()'s.
 */
export type ClaimAddressProblem = 'format' | 'lost' | 'merchant';

export class ClaimAddressError extends InvalidError {
  constructor(
    readonly problem: ClaimAddressProblem,
    errors: FieldErrors,
  ) {
    super(undefined, errors);
  }
}

/** The refund of claim link `token`, with its app and method. */
function claimRows(db: Db, token: string) {
  return refundRows(db)
    .innerJoin('apps as a', 'a.id', 'refunds.app_id')
    .select([
      'a.app_name',
      'a.logo as app_logo',
      'a.livemode as app_livemode',
      'pm.name as asset',
      'pm.network_name',
      'pm.network_type',
      'pm.token_contract_address',
    ])
    .where('refunds.claim_token_hash', '=', claimTokenHash(token));
}

type ClaimRow = RefundRow & {
  app_name: string;
  app_logo: string | null;
  app_livemode: number;
  asset: string;
  network_name: string;
  network_type: string;
  token_contract_address: string | null;
};

/** The link's expiry has passed (a link with none can never be claimed). */
function pastExpiry(row: Pick<RefundRow, 'claim_expires_at'>, now: Date): boolean {
  return row.claim_expires_at === null || new Date(row.claim_expires_at).getTime() <= now.getTime();
}

/** What stops a claim of `row` now; null when it can be claimed. */
function conflictOf(row: RefundRow, now: Date): ClaimConflict | null {
  if (row.status === 'cancelled') return 'cancelled';
  if (row.status === 'expired') return 'expired';
  if (row.status !== 'pending_claim') return 'claimed';
  return pastExpiry(row, now) ? 'expired' : null;
}

function stateOf(row: RefundRow, now: Date): ClaimState {
  const conflict = conflictOf(row, now);
  if (conflict === null) return { kind: 'open' };
  if (conflict !== 'claimed') return { kind: conflict };
  return {
    kind: row.status === 'completed' ? 'completed' : row.status === 'failed' ? 'failed' : 'claimed',
    address: row.address ?? '',
    status: row.status,
    txHash: row.tx_hash ?? null,
  };
}

/** The refund of claim link `token` as its page shows it at `now`; null for an unknown token. */
export async function claimOf(db: Db, token: string, now: Date): Promise<RefundClaim | null> {
  const row: ClaimRow | undefined = await claimRows(db, token).executeTakeFirst();
  if (!row) return null;
  return {
    appName: row.app_name,
    appLogo: row.app_logo,
    livemode: row.app_livemode !== 0,
    amount: unitsToDecimal(BigInt(row.amount_raw), row.decimals),
    asset: row.asset,
    method: row.method_code ?? row.payment_method_id,
    network: row.network_name,
    chainId: row.chain_id ?? 0,
    expiresAt: row.claim_expires_at === null ? null : new Date(row.claim_expires_at).toISOString(),
    reason: row.reason,
    state: stateOf(row, now),
  };
}

export interface ClaimInput {
  token: string;
  /** The address as the shopper typed it. */
  address: string;
  now: Date;
  /** MACs the refund for the signer once its destination is known. */
  sign: RequestSigner;
  /** Where a method's token is on the chain this server reads, when not at its listed contract. */
  tokenOnChain?: (chainId: number, listedContract: string) => string;
  /** Reads the operational wallet's balances, on the transaction given. */
  readerFor: (db: Db) => GasBalanceReader;
}

/** The refund's method as the address checks need it (enabled by the app or not). */
function methodOf(row: ClaimRow): GatewayMethod {
  return {
    id: row.payment_method_id,
    code: row.method_code ?? row.payment_method_id,
    name: row.asset,
    network: row.network_name,
    networkType: row.network_type,
    chainId: row.chain_id ?? 0,
    tokenContract: row.token_contract_address,
    decimals: row.decimals,
    confirmations: 0,
    minDeposit: '0',
    depositsEnabled: false,
    withdrawalsEnabled: false,
  };
}

/** The shopper's address checked for the refund, or ClaimAddressError with destination()'s message. */
async function checkedAddress(
  db: Db,
  row: ClaimRow,
  method: GatewayMethod,
  input: ClaimInput,
): Promise<string> {
  try {
    return await destination(
      db,
      { appId: row.app_id, address: input.address, tokenOnChain: input.tokenOnChain },
      method,
      { address: row.paid_to },
    );
  } catch (error) {
    if (!(error instanceof InvalidError)) throw error;
    const checked = checkPayoutAddress(
      method.networkType === 'EVM' ? 'EVM' : 'TRON',
      input.address,
    );
    const listed = method.tokenContract;
    const contracts = listed ? [listed, input.tokenOnChain?.(method.chainId, listed)] : [];
    const problem: ClaimAddressProblem = !checked.ok
      ? 'format'
      : lostDestination(checked.address, contracts) !== null
        ? 'lost'
        : 'merchant';
    throw new ClaimAddressError(problem, error.errors);
  }
}

/**
 * The shopper claims the refund of link `token` to `address`: checked first, then in one
 * transaction the compare-and-set from an open claim to `awaiting_funds` with the address, its
 * source and time and the signer's MAC, the funding (queued when the wallet covers it), and the
 * refund.claimed event. Refusals: NotFoundError (no such link), ClaimAddressError (the address),
 * ClaimConflictError (claimed already, expired, cancelled); nothing is written on any of them.
 */
export async function claimRefund(db: Db, input: ClaimInput): Promise<Refund> {
  const { now } = input;
  const row: ClaimRow | undefined = await claimRows(db, input.token).executeTakeFirst();
  if (!row) throw new NotFoundError(CLAIM_MSG.notFound);
  const before = conflictOf(row, now);
  if (before !== null) throw new ClaimConflictError(before);
  const address = await checkedAddress(db, row, methodOf(row), input);
  return db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const moved = await trx
      .updateTable('refunds')
      .set({
        status: 'awaiting_funds',
        address,
        address_source: 'shopper',
        claimed_at: at,
        request_mac: input.sign(refundRequest({ ...row, address })),
        updated_at: at,
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending_claim')
      .where('claim_expires_at', '>', at)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) {
      // Another claim, a cancel or the expiry came first.
      const current = await refundRows(trx)
        .where('refunds.id', '=', row.id)
        .executeTakeFirstOrThrow();
      throw new ClaimConflictError(conflictOf(current, now) ?? 'expired');
    }
    try {
      await fundRefund(trx, input.readerFor(trx), row.id, now);
    } catch (error) {
      // The wallet's chain could not be read: claimed and awaiting funds, the refunds job funds
      // it on a later pass.
      if (!(error instanceof ChainUnavailableError)) throw error;
    }
    const claimed = refundView(
      await refundRows(trx).where('refunds.id', '=', row.id).executeTakeFirstOrThrow(),
      null,
    );
    await emitRefundEvent(trx, row.app_id, claimed, 'refund.claimed', now);
    return claimed;
  });
}
