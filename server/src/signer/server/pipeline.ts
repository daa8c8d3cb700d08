import { bytesToHex, encodeFunctionData, getAddress, keccak256, parseAbi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainTxPurpose } from '../../db/schema';
import { ChainUnavailableError } from '../../domain/chain/adapter';
import {
  NATIVE_TRANSFER_GAS,
  TOKEN_TRANSFER_GAS,
  TransactionRejectedError,
  type ChainSender,
} from '../../domain/chain/sender';
import { addressKey } from '../../domain/chain/specChains';
import { newId } from '../../domain/ids';
import type { SignerAnswer } from '../client/protocol';
import { refuse, RowMovedOn, type SignerDeps, type Transfer, type TxRow } from './deps';

// The transaction pipeline: every transaction is stored (raw and hash) before its broadcast,
// one at a time per (chain, sender): the next nonce is taken only once the previous transaction of
// that sender is mined; one not mined within replaceAfterMs is signed again at its nonce at a
// higher price, one the node forgot (dropped) is broadcast again as it was.

const ERC20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
/** A replacement pays at least this much more (nodes want 10 %+ to take it). */
const REPLACE_BUMP_PERCENT = 125n;

/** What a receipt says of a transaction: mined in its block, or failed there (reverted). */
function minedAs(receipt: { blockNumber: number; success: boolean }) {
  return {
    status: receipt.success ? ('mined' as const) : ('failed' as const),
    block_number: receipt.blockNumber,
    error: receipt.success ? null : 'reverted on chain',
  };
}

export class TxPipeline {
  constructor(private readonly deps: SignerDeps) {}

  /** The token where the watcher read it (USDT_CONTRACT stands in for the spec's on a test chain). */
  tokenOnChain(sender: ChainSender, contract: string): string {
    return addressKey(this.deps.tokenContract(sender.chainId, contract));
  }

  /** Every transaction signed for a row, oldest first (all of them: never pay twice). */
  async rows(refId: string, purpose: ChainTxPurpose | null) {
    return this.deps.db
      .selectFrom('chain_txs')
      .selectAll()
      .where('ref_id', '=', refId)
      .$if(purpose !== null, (q) => q.where('purpose', '=', purpose ?? 'gas'))
      .orderBy('created_at', 'asc')
      .execute();
  }

  /**
   * Reads again the receipts of the request's mined transactions (until the gateway finds them
   * final, it asks on each pass). One whose block a reorg took away is back in flight: another
   * transaction at its nonce that the new history mined is recorded as mined instead (only one
   * transaction of a nonce is ever mined: nothing is paid twice); otherwise it is pending again,
   * and follow() broadcasts the same signed bytes (this signer's own record must hold their hash).
   * One mined again in another block has that block recorded; one the new history reverted is
   * failed on chain.
   */
  async recheckMined(sender: ChainSender, refId: string, purposes: readonly ChainTxPurpose[]) {
    const db = this.deps.db;
    const own = (await this.rows(refId, null)).filter((r) => purposes.includes(r.purpose));
    for (const row of own.filter((r) => r.status === 'mined')) {
      const receipt = await sender.receipt(row.tx_hash as Hex);
      if (receipt) {
        if (receipt.blockNumber === row.block_number && receipt.success) continue;
        await db.updateTable('chain_txs').set(minedAs(receipt)).where('id', '=', row.id).execute();
        continue;
      }
      const siblings = own.filter((r) => r.nonce === row.nonce && r.id !== row.id);
      let sibling: { id: string; blockNumber: number; success: boolean } | null = null;
      for (const other of siblings) {
        const found = await sender.receipt(other.tx_hash as Hex);
        if (found) sibling = { id: other.id, ...found };
      }
      const now = this.deps.clock();
      const instead = sibling;
      if (instead) {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('chain_txs')
            .set({
              status: 'failed',
              block_number: null,
              error: 'another transaction took its nonce',
            })
            .where('id', '=', row.id)
            .execute();
          await trx
            .updateTable('chain_txs')
            .set(minedAs(instead))
            .where('id', '=', instead.id)
            .execute();
        });
      } else {
        const signed = this.deps.store.signedHashes(refId, row.purpose);
        if (keccak256(row.raw_tx as Hex) !== row.tx_hash || !signed.includes(row.tx_hash)) {
          // Bytes this signer has no record of signing are never broadcast.
          this.deps.log({ msg: 'reorged, not signed here', ref: refId, txHash: row.tx_hash });
          continue;
        }
        // sent_at now: the same bytes go out again before any replacement is considered.
        await db
          .updateTable('chain_txs')
          .set({ status: 'pending', block_number: null, sent_at: now.getTime() })
          .where('id', '=', row.id)
          .where('status', '=', 'mined')
          .execute();
      }
      this.deps.log({
        msg: 'reorged',
        purpose: row.purpose,
        ref: refId,
        chain: row.chain_id,
        nonce: row.nonce,
        txHash: row.tx_hash,
        block: row.block_number,
        minedInstead: instead?.id ?? null,
      });
    }
  }

  /**
   * Settles the sender's transactions in flight with their receipts, then answers for the
   * request's own: pending (broadcast again if dropped, replaced if too slow) or failed on chain.
   * null: nothing of this request in flight and nothing failed; waiting: another transaction of
   * the sender is in flight (one at a time).
   */
  async follow(
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
      await db.updateTable('chain_txs').set(minedAs(receipt)).where('id', '=', row.id).execute();
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
      // Its lowest nonce first: after a reorg several may be pending again, and a later nonce
      // can be mined only after it.
      .orderBy('nonce', 'asc')
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
        ...this.deps.store.ownerOf(row.ref_id),
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
  async sign(
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
    // On the signer's own record first: a signature it could not record is never broadcast, and
    // one recorded whose row then moved on is taken off again.
    this.deps.store.recordSigned(
      {
        refId: t.refId,
        kind: t.purpose,
        appId: t.appId,
        paymentMethodId: t.paymentMethodId,
        chainId: t.chainId,
        from,
        nonce,
        destination: t.to,
        amountRaw: t.amount.toString(),
        txHash: hash,
      },
      now.getTime(),
    );
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
          this.deps.store.forgetSigned(hash);
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

  async broadcast(sender: ChainSender, row: TxRow): Promise<SignerAnswer> {
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
