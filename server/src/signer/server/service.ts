import { isAddress, parseUnits } from 'viem';
import type { Db } from '../../db/connection';
import { ChainUnavailableError } from '../../domain/chain/adapter';
import { NATIVE_TRANSFER_GAS, TOKEN_TRANSFER_GAS } from '../../domain/chain/sender';
import { specNativeDecimals, specNativeName } from '../../domain/chain/specChains';
import { unitsToDecimal } from '../../domain/money';
import { GAS_BRANCH } from '../../domain/payments/gasProvisioner';
import { INVOICE_BRANCH } from '../../domain/invoices/invoices';
import { ACCOUNT_BRANCH } from '../../domain/payments/accounts';
import { depositsWithMethod } from '../../domain/payments/deposits';
import {
  OPERATIONAL_WALLET_NEEDS_GAS,
  type SignerAnswer,
  type SignerRequest,
} from '../client/protocol';
import { addressForm } from '../client/requestMac';
import { refuse, type SignerDeps, type Transfer } from './deps';
import { TxPipeline } from './pipeline';
import { RefundCap } from './refund';
import { DailyCaps } from './limits';
import { Refusals } from './refusals';
import { Registrations } from './registrations';
import { WithdrawalSigner } from './withdrawal';

/**
 * A sweep asked for this long or less before its address's hold ends is the web process's clock
 * running ahead of the signer's; asked earlier, the web process did not see the hold.
 */
const HOLD_GRACE_MS = 10 * 60_000;

// The signer's requests: a deposit's gas top-up and its sweep (here), a withdrawal
// (withdrawal.ts), and the registrations of an app's payout addresses and whitelist in the
// signer's own store (registrations.ts). Each money request is re-checked before anything is
// signed: the web process names only a row (and, for a sweep, where it wants the money to go),
// the signer reads the rest itself, and takes where money may go, and when, from its own store,
// never from the shared database. What is signed goes through the pipeline (pipeline.ts).
// Requests run one at a time per chain (and the registrations one at a time of their own), so a
// chain whose providers hang holds up only its own requests; one signer runs per deployment.

export type { SignerDeps, SignerSettings } from './deps';

/**
 * A deposit with what the signer checks, and where its address's key is: a deposit account's
 * (account/2/<index>), or a settled invoice's (account/3/<index>), whose credit is a deposit at
 * the invoice's address with the invoice's id as unique_id (domain/invoices/settlement.ts).
 */
async function depositContext(db: Db, id: string) {
  const row = await depositsWithMethod(db)
    // The account whose address it was paid to, on whichever EVM chain it was paid (an account
    // opened on one is watched on all: domain/payments/depositScan.ts).
    .leftJoin('app_accounts', (join) =>
      join
        .onRef('app_accounts.app_id', '=', 'receive_transactions.app_id')
        .onRef('app_accounts.unique_id', '=', 'receive_transactions.unique_id')
        .onRef('app_accounts.address', '=', 'receive_transactions.address'),
    )
    // A settled invoice's credit, at its address on whichever chain it was paid (an accepted
    // payment on a chain the invoice did not offer too: domain/invoices/strays.ts); the key
    // derived from its index must be the address's, or the pipeline refuses to sign.
    .leftJoin('invoices', (join) =>
      join
        .onRef('invoices.id', '=', 'receive_transactions.unique_id')
        .onRef('invoices.app_id', '=', 'receive_transactions.app_id'),
    )
    .select([
      'receive_transactions.id',
      'receive_transactions.app_id',
      'receive_transactions.payment_method_id',
      'receive_transactions.deposit_status',
      'receive_transactions.address',
      'receive_transactions.chain_id',
      'receive_transactions.process_datetime',
      'payment_methods.network_type',
      'payment_methods.is_token',
      'payment_methods.token_contract_address',
      'payment_methods.decimals',
      'payment_methods.min_deposit',
      'app_payment_methods.gas_address',
      'app_payment_methods.gas_index',
      'app_accounts.derivation_index',
      'invoices.derivation_index as invoice_index',
    ])
    .where('receive_transactions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { derivation_index: account, invoice_index: invoice, ...rest } = row;
  const keyPath =
    account !== null
      ? `${ACCOUNT_BRANCH}/0/${account}`
      : invoice !== null
        ? `${INVOICE_BRANCH}/0/${invoice}`
        : null;
  return { ...rest, keyPath };
}

type Deposit = NonNullable<Awaited<ReturnType<typeof depositContext>>>;

export class SignerService {
  private readonly pipeline: TxPipeline;
  private readonly withdrawals: WithdrawalSigner;
  private readonly refusals: Refusals;
  private readonly registrations: Registrations;
  /** Each lane's last request, which the lane's next one waits for. */
  private readonly lanes = new Map<string, Promise<SignerAnswer>>();

  constructor(private readonly deps: SignerDeps) {
    this.pipeline = new TxPipeline(deps);
    this.refusals = new Refusals(deps);
    this.withdrawals = new WithdrawalSigner(
      deps,
      this.pipeline,
      this.refusals,
      new DailyCaps(deps, this.refusals),
      new RefundCap(deps, this.refusals),
    );
    this.registrations = new Registrations(deps, this.refusals);
  }

  /**
   * Answers one request, after the requests of its lane before it (laneOf); never throws for a
   * refusal (only for a bug or an outage).
   */
  async handle(request: SignerRequest): Promise<SignerAnswer> {
    const lane = await this.laneOf(request);
    const before = this.lanes.get(lane) ?? Promise.resolve();
    const turn = before.then(
      () => this.answer(request),
      () => this.answer(request),
    );
    this.lanes.set(lane, turn);
    try {
      return await turn;
    } finally {
      if (this.lanes.get(lane) === turn) this.lanes.delete(lane);
    }
  }

  /**
   * A request's lane: the chain its transaction is on (the chain the handler will read too: a
   * deposit's, a withdrawal's method's), or the registrations'. A sender's transactions are one
   * at a time within a chain (pipeline.ts); chains share nothing the signer holds in memory.
   */
  private async laneOf(request: SignerRequest): Promise<string> {
    const { db } = this.deps;
    if (request.op === 'topUpGas' || request.op === 'sweep') {
      const row = await db
        .selectFrom('receive_transactions')
        .select('chain_id')
        .where('id', '=', request.depositId)
        .executeTakeFirst();
      return `chain:${row?.chain_id ?? 0}`;
    }
    if (request.op === 'sendWithdrawal') {
      const row = await db
        .selectFrom('send_transactions')
        .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
        .select('payment_methods.chain_id')
        .where('send_transactions.id', '=', request.withdrawalId)
        .executeTakeFirst();
      return `chain:${row?.chain_id ?? 0}`;
    }
    return 'registrations';
  }

  private async answer(request: SignerRequest): Promise<SignerAnswer> {
    try {
      if (request.op === 'topUpGas') return await this.topUpGas(request.depositId);
      if (request.op === 'sweep') return await this.sweep(request.depositId, request.to);
      if (request.op === 'sendWithdrawal') return await this.withdrawals.send(request.withdrawalId);
      return await this.registrations.register(request);
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        return { state: 'waiting', reason: `The chain is unreachable: ${error.message}` };
      }
      throw error;
    }
  }

  private async topUpGas(depositId: string): Promise<SignerAnswer> {
    const d = await depositContext(this.deps.db, depositId);
    const refusal = this.depositRefusal(d);
    if (refusal) return refusal;
    const deposit = d as Deposit;
    if (deposit.is_token !== 1) return refuse('A native-coin deposit needs no gas top-up.');
    if (deposit.deposit_status !== 3) {
      return refuse(`Deposit ${depositId} is in status ${deposit.deposit_status}, not 3.`);
    }
    if (!deposit.gas_address || deposit.gas_index === null) {
      return { state: 'waiting', reason: 'The operational wallet is not provisioned yet.' };
    }
    const chainId = deposit.chain_id ?? 0;
    const sender = this.deps.senderFor(chainId);
    // A top-up a reorg took away is sent again (the same bytes), never topped up twice.
    await this.pipeline.recheckMined(sender, depositId, ['gas']);
    const followed = await this.pipeline.follow(
      sender,
      chainId,
      deposit.gas_address,
      ['gas'],
      depositId,
      (row) =>
        // A revert before the deposit's last move (a Re-initiate) is history.
        row.created_at >= (deposit.process_datetime ?? ''),
    );
    if (followed) return followed;
    const price = await sender.gasPrice();
    const legs = (await this.feeOwed(deposit)) > 0n ? 2n : 1n;
    const needed = legs * TOKEN_TRANSFER_GAS * price;
    const has = await sender.balance(deposit.address ?? '', null);
    const mined = await this.pipeline.rows(depositId, 'gas');
    if (has >= needed) {
      return { state: 'done', txHash: mined.find((r) => r.status === 'mined')?.tx_hash ?? null };
    }
    const amount = needed - has;
    const spent = mined
      .filter((r) => r.status === 'mined' || r.status === 'pending')
      .reduce((sum, r) => sum + BigInt(r.amount_raw), 0n);
    const cap = parseUnits(this.deps.settings.gasTopUpCap, specNativeDecimals(chainId));
    if (spent + amount > cap) {
      return refuse(
        `A top-up of ${amount} would take deposit ${depositId}'s gas past the cap (${cap}).`,
      );
    }
    const opBalance = await sender.balance(deposit.gas_address, null);
    const topUpCost = amount + NATIVE_TRANSFER_GAS * price;
    if (opBalance < topUpCost) {
      const coin = (raw: bigint) =>
        `${unitsToDecimal(raw, specNativeDecimals(chainId))} ${specNativeName(chainId)}`;
      return {
        state: 'waiting',
        code: OPERATIONAL_WALLET_NEEDS_GAS,
        reason:
          `The operational wallet ${deposit.gas_address} holds ${coin(opBalance)}; the gas ` +
          `top-up of this deposit needs ${coin(topUpCost)} (the network fees of its sweep and of ` +
          `the top-up itself). Send at least ${coin(topUpCost - opBalance)} to ` +
          `${deposit.gas_address}.`,
      };
    }
    return this.pipeline.sign(sender, {
      purpose: 'gas',
      refId: depositId,
      appId: deposit.app_id,
      paymentMethodId: deposit.payment_method_id,
      chainId,
      keyPath: `${GAS_BRANCH}/0/${deposit.gas_index}`,
      from: deposit.gas_address,
      to: deposit.address ?? '',
      token: null,
      amount,
      reason: `gas top-up of deposit ${depositId} (${legs} token transfer(s) at ${price} wei)`,
    });
  }

  private async sweep(depositId: string, to: string): Promise<SignerAnswer> {
    const d = await depositContext(this.deps.db, depositId);
    const refusal = this.depositRefusal(d);
    if (refusal) return refusal;
    const deposit = d as Deposit;
    if (deposit.deposit_status === 1) return this.followSweep(deposit);
    const ready = deposit.is_token === 1 ? [4] : [3];
    if (!ready.includes(deposit.deposit_status)) {
      return refuse(
        `Deposit ${depositId} is in status ${deposit.deposit_status}, not ${ready.join(' or ')}.`,
      );
    }
    const payout = await this.payoutCheck(deposit, to);
    if (payout.answer) return payout.answer;
    if (deposit.keyPath === null || deposit.address === null) {
      return refuse(`Deposit ${depositId} has no derived address.`);
    }
    const chainId = deposit.chain_id ?? 0;
    const sender = this.deps.senderFor(chainId);
    const from = deposit.address;
    // A sweep (or its fee leg) a reorg took away is sent again: not `done` while it is not mined.
    await this.pipeline.recheckMined(sender, depositId, ['sweep_fee', 'sweep']);
    const followed = await this.pipeline.follow(
      sender,
      chainId,
      from,
      ['sweep_fee', 'sweep'],
      depositId,
      (row) =>
        // A revert before the deposit's last move (a Re-initiate) is history.
        row.created_at >= (deposit.process_datetime ?? ''),
    );
    if (followed) return followed;
    const rows = await this.pipeline.rows(depositId, null);
    const swept = rows.find((r) => r.purpose === 'sweep' && r.status === 'mined');
    if (swept) return { state: 'done', txHash: swept.tx_hash };
    const token =
      deposit.is_token === 1 && deposit.token_contract_address
        ? this.pipeline.tokenOnChain(sender, deposit.token_contract_address)
        : null;
    const balance = await sender.balance(from, token);
    const native = token === null ? balance : await sender.balance(from, null);
    const price = await sender.gasPrice();
    const cost = (token === null ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS) * price;
    const feePaid = rows.some((r) => r.purpose === 'sweep_fee' && r.status === 'mined');
    const fee = feePaid ? 0n : await this.feeOwed(deposit);
    if (!feePaid) {
      const minimum = parseUnits(
        this.deps.settings.sweepMin ?? deposit.min_deposit,
        deposit.decimals,
      );
      if (balance < minimum || balance === 0n) {
        return { state: 'waiting', reason: `The balance ${balance} is below the sweep minimum.` };
      }
    }
    const feeAddress = this.deps.settings.feeAddress;
    const leg: Pick<Transfer, 'purpose' | 'to' | 'amount'> =
      fee > 0n && feeAddress
        ? { purpose: 'sweep_fee', to: feeAddress, amount: fee < balance ? fee : balance }
        : {
            purpose: 'sweep',
            to: payout.to,
            amount: token === null ? balance - cost : balance,
          };
    const gasNeeded = cost + (token === null ? leg.amount : 0n);
    if (leg.amount <= 0n || native < gasNeeded) {
      return { state: 'needsGas', reason: `${from} lacks the gas to sweep (${native} wei).` };
    }
    return this.pipeline.sign(sender, {
      ...leg,
      refId: depositId,
      appId: deposit.app_id,
      paymentMethodId: deposit.payment_method_id,
      chainId,
      keyPath: deposit.keyPath,
      from,
      token,
      reason:
        leg.purpose === 'sweep_fee'
          ? `gateway fee of deposit ${depositId}`
          : `sweep of deposit ${depositId} to the payout address`,
    });
  }

  /**
   * A completed deposit's sweep, followed until the gateway finds it final: read again from the
   * chain (a reorg that took it away makes it pending, its same signed bytes sent again), never
   * signed anew. Its answer is the mined sweep, or where it stands.
   */
  private async followSweep(deposit: Deposit): Promise<SignerAnswer> {
    const chainId = deposit.chain_id ?? 0;
    const sender = this.deps.senderFor(chainId);
    await this.pipeline.recheckMined(sender, deposit.id, ['sweep_fee', 'sweep']);
    const followed = await this.pipeline.follow(
      sender,
      chainId,
      deposit.address ?? '',
      ['sweep_fee', 'sweep'],
      deposit.id,
      (row) => row.created_at >= (deposit.process_datetime ?? ''),
    );
    if (followed) return followed;
    const swept = (await this.pipeline.rows(deposit.id, null)).find(
      (r) => r.purpose === 'sweep' && r.status === 'mined',
    );
    if (swept) return { state: 'done', txHash: swept.tx_hash };
    return { state: 'waiting', reason: `Deposit ${deposit.id} has no sweep of its own to follow.` };
  }

  /**
   * Where a sweep may go: only the payout address the signer's store has in effect for the app
   * and method. One registered but still held makes it wait (and, asked for well before the hold
   * ends, is recorded and alerted: the web process did not see the hold); one the store does not
   * know is refused as untrusted.
   */
  private async payoutCheck(
    deposit: Deposit,
    to: string,
  ): Promise<{ answer: SignerAnswer; to?: never } | { answer?: never; to: string }> {
    const now = this.deps.clock().getTime();
    const { inEffect, pending } = this.deps.store.payout(
      deposit.app_id,
      deposit.payment_method_id,
      now,
    );
    const asked = addressForm(to);
    if (inEffect?.address === asked && isAddress(to, { strict: false })) return { to };
    const distrust = { request: 'sweep' as const, refId: deposit.id, appId: deposit.app_id };
    if (pending?.address === asked) {
      const until = new Date(pending.effectiveAt).toISOString();
      if (pending.effectiveAt - now > HOLD_GRACE_MS) {
        await this.refusals.record({
          ...distrust,
          reason: `A sweep to ${to} was asked for while the signer holds that payout address until ${until}: the hold was cleared in the database, or the web process is compromised.`,
        });
      }
      return {
        answer: {
          state: 'waiting',
          reason: `The payout address was changed: sweeps to it are held until ${until}.`,
        },
      };
    }
    return {
      answer: await this.refusals.refuse({
        ...distrust,
        reason: `${to} is not the payout address the signer has in effect for this app and method.`,
      }),
    };
  }

  private depositRefusal(d: Deposit | undefined): SignerAnswer | null {
    if (!d) return refuse('No such deposit.');
    if (d.network_type !== 'EVM') return refuse('Sweeps are not supported on this network yet.');
    return null;
  }

  /**
   * The gateway's fee still owed by the deposit's address: the fees recorded at credit of every
   * deposit there that this sweep takes along (credited, not swept yet).
   */
  private async feeOwed(deposit: Deposit): Promise<bigint> {
    if (!this.deps.settings.feeAddress) return 0n;
    const rows = await this.deps.db
      .selectFrom('receive_transactions')
      .select('fee_raw')
      .where('app_id', '=', deposit.app_id)
      .where('payment_method_id', '=', deposit.payment_method_id)
      .where('address', '=', deposit.address)
      .where('deposit_status', 'in', [3, 4])
      .execute();
    return rows.reduce((sum, r) => sum + BigInt(r.fee_raw ?? '0'), 0n);
  }
}
