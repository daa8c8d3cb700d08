import type { HDKey } from '@scure/bip32';
import {
  bytesToHex,
  encodeFunctionData,
  getAddress,
  isAddress,
  keccak256,
  parseAbi,
  parseUnits,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { SignerConfig } from '../config';
import type { Db } from '../db/connection';
import type { ChainTxPurpose, ChainTxsTable } from '../db/schema';
import { ChainUnavailableError } from '../domain/chain/adapter';
import {
  NATIVE_TRANSFER_GAS,
  TOKEN_TRANSFER_GAS,
  TransactionRejectedError,
  type ChainSender,
} from '../domain/chain/sender';
import { addressKey, specNativeDecimals } from '../domain/chain/specChains';
import { GAS_BRANCH } from '../domain/gasProvisioner';
import { ACCOUNT_BRANCH } from '../domain/gatewayAccounts';
import { newId } from '../domain/ids';
import type { Clock } from '../domain/time';
import type { SignerAnswer, SignerRequest } from './protocol';

// The signer's three requests. Each is re-checked against the database before anything is
// signed: the web process names only a row (and, for a sweep, where it wants the money to go),
// and the signer reads the rest itself. Every transaction is stored (raw and hash) before its
// broadcast, one at a time per (chain, sender): the next nonce is taken only once the previous
// transaction of that sender is mined; one not mined within replaceAfterMs is signed again at
// its nonce at a higher price, one the node forgot (dropped) is broadcast again as it was.
// Requests run one at a time in this process (`serve` below), and one signer runs per deployment.

const ERC20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
/** A replacement pays at least this much more (nodes want 10 %+ to take it). */
const REPLACE_BUMP_PERCENT = 125n;

export type SignerSettings = Pick<
  SignerConfig,
  'feeAddress' | 'sweepMin' | 'gasTopUpCap' | 'replaceAfterMs'
>;

export interface SignerDeps {
  db: Db;
  /** The account key (m/44'/60'/0'). */
  account: HDKey;
  senderFor(chainId: number): ChainSender;
  /** Where a method's token is on the served chain (the watcher's mapping, chain/index.ts). */
  tokenContract(chainId: number, methodContract: string): string;
  settings: SignerSettings;
  clock: Clock;
  /** Where each signature is logged (besides the signer_log table). */
  log(line: Record<string, unknown>): void;
}

type TxRow = ChainTxsTable;

interface Transfer {
  purpose: ChainTxPurpose;
  refId: string;
  chainId: number;
  keyPath: string;
  from: string;
  /** Who gets the value. */
  to: string;
  token: string | null;
  amount: bigint;
  reason: string;
}

/** A deposit with what the signer checks. */
async function depositContext(db: Db, id: string) {
  return db
    .selectFrom('receive_transactions')
    .innerJoin('payment_methods', 'payment_methods.id', 'receive_transactions.payment_method_id')
    .innerJoin('app_payment_methods', (join) =>
      join
        .onRef('app_payment_methods.app_id', '=', 'receive_transactions.app_id')
        .onRef(
          'app_payment_methods.payment_method_id',
          '=',
          'receive_transactions.payment_method_id',
        ),
    )
    .innerJoin('app_accounts', (join) =>
      join
        .onRef('app_accounts.app_id', '=', 'receive_transactions.app_id')
        .onRef('app_accounts.unique_id', '=', 'receive_transactions.unique_id')
        .onRef('app_accounts.chain_id', '=', 'receive_transactions.chain_id'),
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
      'app_payment_methods.collect_address',
      'app_payment_methods.payout_hold_until',
      'app_payment_methods.gas_address',
      'app_payment_methods.gas_index',
      'app_accounts.derivation_index',
    ])
    .where('receive_transactions.id', '=', id)
    .executeTakeFirst();
}

type Deposit = NonNullable<Awaited<ReturnType<typeof depositContext>>>;

export class SignerService {
  constructor(private readonly deps: SignerDeps) {}

  /** Answers one request; never throws for a refusal (only for a bug or an outage). */
  async handle(request: SignerRequest): Promise<SignerAnswer> {
    try {
      if (request.op === 'topUpGas') return await this.topUpGas(request.depositId);
      if (request.op === 'sweep') return await this.sweep(request.depositId, request.to);
      return await this.sendWithdrawal(request.withdrawalId);
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
    const followed = await this.follow(
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
    const mined = await this.rows(depositId, 'gas');
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
    if (opBalance < amount + NATIVE_TRANSFER_GAS * price) {
      return { state: 'waiting', reason: 'The operational wallet lacks the gas to top up.' };
    }
    return this.sign(sender, {
      purpose: 'gas',
      refId: depositId,
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
    const ready = deposit.is_token === 1 ? [4] : [3];
    if (!ready.includes(deposit.deposit_status)) {
      return refuse(
        `Deposit ${depositId} is in status ${deposit.deposit_status}, not ${ready.join(' or ')}.`,
      );
    }
    // The payout address is the one configured for the app and method, whatever was asked.
    if (
      !isAddress(to, { strict: false }) ||
      addressKey(to) !== addressKey(deposit.collect_address)
    ) {
      return refuse(`${to} is not the payout address configured for this app and method.`);
    }
    const now = this.deps.clock();
    if (deposit.payout_hold_until !== null && new Date(deposit.payout_hold_until) > now) {
      return refuse(
        `The payout address was changed: sweeps to it are held until ${deposit.payout_hold_until}.`,
      );
    }
    if (deposit.derivation_index === null || deposit.address === null) {
      return refuse(`Deposit ${depositId} has no derived address.`);
    }
    const chainId = deposit.chain_id ?? 0;
    const sender = this.deps.senderFor(chainId);
    const from = deposit.address;
    const followed = await this.follow(
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
    const rows = await this.rows(depositId, null);
    const swept = rows.find((r) => r.purpose === 'sweep' && r.status === 'mined');
    if (swept) return { state: 'done', txHash: swept.tx_hash };
    const token =
      deposit.is_token === 1 && deposit.token_contract_address
        ? this.tokenOnChain(sender, deposit.token_contract_address)
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
            to: deposit.collect_address,
            amount: token === null ? balance - cost : balance,
          };
    const gasNeeded = cost + (token === null ? leg.amount : 0n);
    if (leg.amount <= 0n || native < gasNeeded) {
      return { state: 'needsGas', reason: `${from} lacks the gas to sweep (${native} wei).` };
    }
    return this.sign(sender, {
      ...leg,
      refId: depositId,
      chainId,
      keyPath: `${ACCOUNT_BRANCH}/0/${deposit.derivation_index}`,
      from,
      token,
      reason:
        leg.purpose === 'sweep_fee'
          ? `gateway fee of deposit ${depositId}`
          : `sweep of deposit ${depositId} to the payout address`,
    });
  }

  private async sendWithdrawal(withdrawalId: string): Promise<SignerAnswer> {
    const db = this.deps.db;
    const w = await db
      .selectFrom('send_transactions')
      .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
      .innerJoin('apps', 'apps.id', 'send_transactions.app_id')
      .innerJoin('app_payment_methods', (join) =>
        join
          .onRef('app_payment_methods.app_id', '=', 'send_transactions.app_id')
          .onRef(
            'app_payment_methods.payment_method_id',
            '=',
            'send_transactions.payment_method_id',
          ),
      )
      .select([
        'send_transactions.id',
        'send_transactions.app_id',
        'send_transactions.status',
        'send_transactions.to_address',
        'send_transactions.amount_raw',
        'send_transactions.from_address',
        'send_transactions.signed_tx',
        'send_transactions.nonce',
        'payment_methods.network_type',
        'payment_methods.chain_id',
        'payment_methods.is_token',
        'payment_methods.token_contract_address',
        'payment_methods.decimals',
        'payment_methods.code',
        'app_payment_methods.withdraw_status',
        'app_payment_methods.gas_address',
        'app_payment_methods.gas_index',
        'apps.whitelist_ip',
        'apps.whitelist_hold_until',
      ])
      .where('send_transactions.id', '=', withdrawalId)
      .executeTakeFirst();
    if (!w) return refuse(`No withdrawal ${withdrawalId}.`);
    if (w.network_type !== 'EVM')
      return refuse('Withdrawals are not supported on this network yet.');
    if (!w.gas_address || w.gas_index === null) {
      return refuse('The operational wallet is not provisioned yet.');
    }
    const chainId = w.chain_id;
    const sender = this.deps.senderFor(chainId);
    // Only once: a transaction signed for its current attempt is followed, never signed anew.
    // A revert is the current attempt's while the row still holds that attempt's nonce (a
    // Re-initiate after a revert clears it).
    const followed = await this.follow(
      sender,
      chainId,
      w.gas_address,
      ['withdrawal'],
      w.id,
      (row) => w.signed_tx !== null && w.nonce !== null && row.nonce === Number(w.nonce),
    );
    if (followed) return followed;
    const rows = await this.rows(w.id, 'withdrawal');
    const mined = rows.find((r) => r.status === 'mined');
    if (mined) return { state: 'done', txHash: mined.tx_hash };
    // Here nothing of it can be mined: no transaction signed, or the node rejected the one
    // signed (never broadcast), so a new one replaces it on the row.
    if (w.status !== 3) return refuse(`Withdrawal ${w.id} is in status ${w.status}, not 3.`);
    if (w.amount_raw === null) return refuse(`Withdrawal ${w.id} has no exact amount.`);
    if (w.withdraw_status !== 1) return refuse('Withdrawals of this method are switched off.');
    if (!w.whitelist_ip || w.whitelist_ip.trim() === '') {
      return refuse('The app has no IP whitelist: withdrawals need one.');
    }
    const hold = await this.withdrawalHold(w.app_id, w.whitelist_hold_until);
    if (hold) return refuse(`The app's settings changed: withdrawals are held until ${hold}.`);
    if (!isAddress(w.to_address, { strict: false })) {
      return refuse(`${w.to_address} is not an address of this network.`);
    }
    if (w.from_address !== null && addressKey(w.from_address) !== addressKey(w.gas_address)) {
      return refuse(`Withdrawal ${w.id} was reserved in another wallet than ${w.gas_address}.`);
    }
    const token =
      w.is_token === 1 && w.token_contract_address
        ? this.tokenOnChain(sender, w.token_contract_address)
        : null;
    const amount = BigInt(w.amount_raw);
    const price = await sender.gasPrice();
    const cost = (token === null ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS) * price;
    const native = await sender.balance(w.gas_address, null);
    const held = token === null ? native - cost : await sender.balance(w.gas_address, token);
    if (held < amount) {
      return refuse(
        `The operational wallet ${w.gas_address} holds ${held < 0n ? 0n : held} base units of ${w.code}, less than the ${amount} to send.`,
      );
    }
    if (native < cost + (token === null ? amount : 0n)) {
      return refuse(
        `The operational wallet ${w.gas_address} lacks the network fee: it holds ${native} wei of the native coin, the transfer costs up to ${cost} wei. Fund it, then Re-initiate.`,
      );
    }
    return this.sign(
      sender,
      {
        purpose: 'withdrawal',
        refId: w.id,
        chainId,
        keyPath: `${GAS_BRANCH}/0/${w.gas_index}`,
        from: w.gas_address,
        to: getAddress(w.to_address),
        token,
        amount,
        reason: `withdrawal ${w.id} of app ${w.app_id}`,
      },
      undefined,
      w.signed_tx,
    );
  }

  /** The latest end of a hold on the app's settings (whitelist or any payout address), if on. */
  private async withdrawalHold(
    appId: string,
    whitelistHold: string | null,
  ): Promise<string | null> {
    const payout = await this.deps.db
      .selectFrom('app_payment_methods')
      .select((eb) => eb.fn.max('payout_hold_until').as('until'))
      .where('app_id', '=', appId)
      .executeTakeFirst();
    const now = this.deps.clock();
    const holds = [whitelistHold, payout?.until ?? null].filter(
      (h): h is string => h !== null && new Date(h) > now,
    );
    return holds.sort().at(-1) ?? null;
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

  /** The token where the watcher read it (USDT_CONTRACT stands in for the spec's on a test chain). */
  private tokenOnChain(sender: ChainSender, contract: string): string {
    return addressKey(this.deps.tokenContract(sender.chainId, contract));
  }

  /** Every transaction signed for a row, oldest first (all of them: never pay twice). */
  private async rows(refId: string, purpose: ChainTxPurpose | null) {
    return this.deps.db
      .selectFrom('chain_txs')
      .selectAll()
      .where('ref_id', '=', refId)
      .$if(purpose !== null, (q) => q.where('purpose', '=', purpose ?? 'gas'))
      .orderBy('created_at', 'asc')
      .execute();
  }

  /**
   * Settles the sender's transactions in flight with their receipts, then answers for the
   * request's own: pending (broadcast again if dropped, replaced if too slow) or failed on chain.
   * null: nothing of this request in flight and nothing failed; waiting: another transaction of
   * the sender is in flight (one at a time).
   */
  private async follow(
    sender: ChainSender,
    chainId: number,
    from: string,
    purposes: readonly ChainTxPurpose[],
    refId: string,
    /** Whether a reverted transaction is the request's current attempt (not history). */
    current: (row: TxRow) => boolean,
  ): Promise<SignerAnswer | null> {
    const db = this.deps.db;
    const inFlight = await db
      .selectFrom('chain_txs')
      .selectAll()
      .where('chain_id', '=', chainId)
      .where('from_address', '=', addressKey(from))
      .where('status', 'in', ['pending', 'replaced'])
      .orderBy('sent_at', 'asc')
      .execute();
    for (const row of inFlight) {
      const receipt = await sender.receipt(row.tx_hash as Hex);
      if (!receipt) continue;
      await db
        .updateTable('chain_txs')
        .set({
          status: receipt.success ? 'mined' : 'failed',
          block_number: receipt.blockNumber,
          error: receipt.success ? null : 'reverted on chain',
        })
        .where('id', '=', row.id)
        .execute();
      // The others at its nonce can never be mined now.
      await db
        .updateTable('chain_txs')
        .set({ status: 'replaced' })
        .where('chain_id', '=', chainId)
        .where('from_address', '=', row.from_address)
        .where('nonce', '=', row.nonce)
        .where('id', '!=', row.id)
        .where('status', '=', 'pending')
        .execute();
      await db
        .updateTable('chain_txs')
        .set({ status: 'failed', error: 'another transaction took its nonce' })
        .where('chain_id', '=', chainId)
        .where('from_address', '=', row.from_address)
        .where('nonce', '=', row.nonce)
        .where('id', '!=', row.id)
        .where('status', '=', 'replaced')
        .execute();
    }
    const pending = await db
      .selectFrom('chain_txs')
      .selectAll()
      .where('chain_id', '=', chainId)
      .where('from_address', '=', addressKey(from))
      .where('status', '=', 'pending')
      .orderBy('sent_at', 'desc')
      .executeTakeFirst();
    if (pending) {
      if (pending.ref_id !== refId || !purposes.includes(pending.purpose)) {
        return { state: 'waiting', reason: `${from} has another transaction in flight.` };
      }
      return this.keepGoing(sender, pending);
    }
    const own = (await this.rows(refId, null)).filter((r) => purposes.includes(r.purpose));
    const last = own.at(-1);
    if (last?.status === 'failed' && last.block_number !== null && current(last)) {
      return { state: 'failed', txHash: last.tx_hash, reason: `${last.purpose} reverted on chain` };
    }
    return null;
  }

  /** A transaction in flight: broadcast again when dropped, replaced when too slow. */
  private async keepGoing(sender: ChainSender, row: TxRow): Promise<SignerAnswer> {
    const now = this.deps.clock().getTime();
    if (!(await sender.known(row.tx_hash as Hex))) {
      // Dropped from the mempool: the same transaction again (never a new nonce while it could
      // still be mined).
      await this.broadcast(sender, row);
      return { state: 'pending', txHash: row.tx_hash };
    }
    if (now - row.sent_at < this.deps.settings.replaceAfterMs) {
      return { state: 'pending', txHash: row.tx_hash };
    }
    const current = await sender.gasPrice();
    const bumped = (BigInt(row.gas_price) * REPLACE_BUMP_PERCENT) / 100n + 1n;
    const price = current > bumped ? current : bumped;
    const replacement = await this.sign(
      sender,
      {
        purpose: row.purpose,
        refId: row.ref_id,
        chainId: row.chain_id,
        keyPath: row.key_path,
        from: row.from_address,
        to: row.to_address,
        token: row.token_contract,
        amount: BigInt(row.amount_raw),
        reason: `replacement of ${row.tx_hash} at nonce ${row.nonce} (not mined in time)`,
      },
      { nonce: row.nonce, gasPrice: price, replaces: row.id },
    );
    return replacement.state === 'sent' ? { ...replacement, state: 'pending' } : replacement;
  }

  /**
   * Signs, stores (before the broadcast), logs and broadcasts one transfer. A withdrawal's
   * signed transaction is stored on its row too, in the same database transaction, as a
   * compare-and-set: the row still in 3 and still holding `withdrawalSigned` (what the signer
   * read: none, or one the node rejected). A row the portal cancelled meanwhile signs nothing.
   */
  private async sign(
    sender: ChainSender,
    t: Transfer,
    replacing?: { nonce: number; gasPrice: bigint; replaces: string },
    withdrawalSigned: string | null = null,
  ): Promise<SignerAnswer> {
    const db = this.deps.db;
    const from = addressKey(t.from);
    const key = this.deps.account.derive(`m/${t.keyPath}`);
    if (!key.privateKey) throw new Error('The account key has no private half');
    const signer = privateKeyToAccount(bytesToHex(key.privateKey));
    // The key must be the sender's: a row naming another address is refused, not signed.
    if (addressKey(signer.address) !== from) {
      return refuse(`The key at ${t.keyPath} is not ${from}'s.`);
    }
    const nonce = replacing?.nonce ?? (await this.nextNonce(sender, t.chainId, from));
    const gasPrice = replacing?.gasPrice ?? (await sender.gasPrice());
    const raw = await signer.signTransaction(
      t.token === null
        ? {
            type: 'legacy',
            chainId: await sender.signingChainId(),
            nonce,
            gasPrice,
            gas: NATIVE_TRANSFER_GAS,
            to: getAddress(t.to),
            value: t.amount,
          }
        : {
            type: 'legacy',
            chainId: await sender.signingChainId(),
            nonce,
            gasPrice,
            gas: TOKEN_TRANSFER_GAS,
            to: getAddress(t.token),
            value: 0n,
            data: encodeFunctionData({
              abi: ERC20,
              functionName: 'transfer',
              args: [getAddress(t.to), t.amount],
            }),
          },
    );
    const hash = keccak256(raw);
    const now = this.deps.clock();
    const row: TxRow = {
      id: newId('ctx'),
      chain_id: t.chainId,
      from_address: from,
      key_path: t.keyPath,
      nonce,
      purpose: t.purpose,
      ref_id: t.refId,
      to_address: addressKey(t.to),
      token_contract: t.token,
      amount_raw: t.amount.toString(),
      gas_price: gasPrice.toString(),
      raw_tx: raw,
      tx_hash: hash,
      status: 'pending',
      block_number: null,
      error: null,
      created_at: now.toISOString(),
      sent_at: now.getTime(),
    };
    const stored = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('chain_txs').values(row).execute();
        if (t.purpose === 'withdrawal') {
          const onRow = await trx
            .updateTable('send_transactions')
            .set({ signed_tx: raw, tx_hash: hash, nonce })
            .where('id', '=', t.refId)
            .$if(replacing !== undefined, (q) => q.where('nonce', '=', nonce))
            .$if(replacing === undefined, (q) =>
              q
                .where('status', '=', 3)
                .where((eb) =>
                  withdrawalSigned === null
                    ? eb('signed_tx', 'is', null)
                    : eb('signed_tx', '=', withdrawalSigned),
                ),
            )
            .executeTakeFirst();
          if (Number(onRow.numUpdatedRows) === 0) {
            // Rolled back: nothing of it is stored, nothing is broadcast.
            throw new RowMovedOn();
          }
        }
        if (replacing) {
          await trx
            .updateTable('chain_txs')
            .set({ status: 'replaced' })
            .where('id', '=', replacing.replaces)
            .where('status', '=', 'pending')
            .execute();
        }
        await trx
          .insertInto('signer_log')
          .values({
            id: newId('sig'),
            request: t.purpose,
            ref_id: t.refId,
            chain_id: t.chainId,
            from_address: from,
            nonce,
            tx_hash: hash,
            reason: t.reason,
            created_at: now.toISOString(),
          })
          .execute();
      })
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof RowMovedOn) return false;
          throw error;
        },
      );
    if (!stored) return refuse(`Withdrawal ${t.refId} moved on before it was signed.`);
    this.deps.log({
      msg: 'signed',
      purpose: t.purpose,
      ref: t.refId,
      chain: t.chainId,
      from,
      to: row.to_address,
      token: t.token,
      amount: row.amount_raw,
      nonce,
      gasPrice: row.gas_price,
      txHash: hash,
      reason: t.reason,
    });
    return this.broadcast(sender, row);
  }

  private async broadcast(sender: ChainSender, row: TxRow): Promise<SignerAnswer> {
    try {
      await sender.sendRaw(row.raw_tx as Hex);
    } catch (error) {
      if (error instanceof TransactionRejectedError) {
        // Never reached the chain: the nonce is free again, the row only history.
        await this.deps.db
          .updateTable('chain_txs')
          .set({ status: 'failed', error: error.message })
          .where('id', '=', row.id)
          .execute();
        return { state: 'waiting', reason: error.message };
      }
      if (error instanceof ChainUnavailableError) {
        // Stored: the next request finds it pending, unknown to the node, and sends it again.
        return { state: 'pending', txHash: row.tx_hash };
      }
      throw error;
    }
    const now = this.deps.clock();
    await this.deps.db
      .updateTable('chain_txs')
      .set({ sent_at: now.getTime() })
      .where('id', '=', row.id)
      .execute();
    if (row.purpose === 'withdrawal') {
      // From now on it may be mined: Reinitiate and Cancel read this.
      await this.deps.db
        .updateTable('send_transactions')
        .set({ broadcast_at: now.toISOString() })
        .where('id', '=', row.ref_id)
        .where('broadcast_at', 'is', null)
        .execute();
    }
    return { state: 'sent', txHash: row.tx_hash };
  }

  /** The sender's next nonce: the chain's count, or past the last one this signer used. */
  private async nextNonce(sender: ChainSender, chainId: number, from: string): Promise<number> {
    const onChain = await sender.nonce(from, 'pending');
    const last = await this.deps.db
      .selectFrom('chain_txs')
      .select((eb) => eb.fn.max('nonce').as('nonce'))
      .where('chain_id', '=', chainId)
      .where('from_address', '=', from)
      .where('status', 'in', ['pending', 'mined'])
      .executeTakeFirst();
    const ours = last?.nonce === null || last?.nonce === undefined ? 0 : Number(last.nonce) + 1;
    return Math.max(onChain, ours);
  }
}

/** A withdrawal's row left status 3 (or took another signature) while it was being signed. */
class RowMovedOn extends Error {}

function refuse(reason: string): SignerAnswer {
  return { state: 'refused', reason };
}
