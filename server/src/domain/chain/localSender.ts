import {
  decodeFunctionData,
  keccak256,
  parseAbi,
  parseTransaction,
  recoverTransactionAddress,
  zeroAddress,
  type Hex,
  type TransactionSerialized,
} from 'viem';
import type { Db } from '../../db/connection';
import { lockForTransaction } from '../../db/locks';
import { newId } from '../ids';
import { NATIVE_LOG_INDEX } from './adapter';
import { localBalance, localHead, setLocalHead } from './localAdapter';
import {
  NATIVE_TRANSFER_GAS,
  TransactionRejectedError,
  type ChainSender,
  type SentReceipt,
} from './sender';
import { addressKey, isTronChain, type SpecChainId } from './specChains';

// The local chain takes signed transactions as a real one does: the raw EIP-155 transaction is
// decoded, its sender recovered from the signature, and it is accepted only when that sender's
// nonce matches and the sender holds the value, the token amount and the gas. It is mined at
// once in a block of its own: the network fee burnt (a row from the sender to the zero address at
// FEE_LOG_INDEX, which also counts the sender's nonces), the value moved (NATIVE_LOG_INDEX) and an
// ERC-20 `transfer` call's token moved (log 0).

/** The local chains' gas price: 1 gwei. */
export const LOCAL_GAS_PRICE = 1_000_000_000n;
/** Gas an ERC-20 transfer uses on the local chain (a real USDT transfer uses about this). */
const LOCAL_TOKEN_GAS_USED = 52_000n;
/** The log index of a transaction's burnt fee row. */
const FEE_LOG_INDEX = -2;
const ERC20_TRANSFER = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

async function nonceOf(db: Db, chainId: number, address: string): Promise<number> {
  const row = await db
    .selectFrom('chain_transfers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chain_id', '=', chainId)
    .where('from_address', '=', addressKey(address))
    .where('log_index', '=', FEE_LOG_INDEX)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Checks and mines a signed transaction on local chain `chainId`; its hash. */
export async function acceptLocalTransaction(db: Db, chainId: SpecChainId, raw: Hex): Promise<Hex> {
  if (isTronChain(chainId)) {
    throw new TransactionRejectedError('Sending is not supported on this network yet.');
  }
  let tx;
  let from: string;
  try {
    tx = parseTransaction(raw);
    from = addressKey(
      await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized }),
    );
  } catch (error) {
    throw new TransactionRejectedError('Not a signed transaction', { cause: error });
  }
  if (tx.type !== 'legacy' || tx.chainId !== chainId) {
    throw new TransactionRejectedError(`Only EIP-155 transactions signed for chain ${chainId}`);
  }
  if (!tx.to || tx.nonce === undefined || tx.gas === undefined || tx.gasPrice === undefined) {
    throw new TransactionRejectedError('A transfer needs a recipient, a nonce, gas and a price');
  }
  const hash = keccak256(raw);
  const to = addressKey(tx.to);
  const value = tx.value ?? 0n;
  let token: { recipient: string; amount: bigint } | null = null;
  if (tx.data && tx.data !== '0x') {
    try {
      const call = decodeFunctionData({ abi: ERC20_TRANSFER, data: tx.data });
      token = { recipient: addressKey(call.args[0]), amount: call.args[1] };
    } catch (error) {
      throw new TransactionRejectedError('The local chain runs only ERC-20 transfers', {
        cause: error,
      });
    }
  }
  const gasUsed = token ? LOCAL_TOKEN_GAS_USED : NATIVE_TRANSFER_GAS;
  if (tx.gas < gasUsed) throw new TransactionRejectedError('Out of gas');
  const fee = gasUsed * tx.gasPrice;
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `local_chain:${chainId}`);
    const known = await trx
      .selectFrom('chain_transfers')
      .select('id')
      .where('tx_hash', '=', hash)
      .executeTakeFirst();
    if (known) return hash; // broadcast again: already mined
    const expected = await nonceOf(trx, chainId, from);
    if (tx.nonce !== expected) {
      throw new TransactionRejectedError(
        `Nonce ${tx.nonce} of ${from}: the next one is ${expected}`,
      );
    }
    if ((await localBalance(trx, chainId, null, from)) < fee + value) {
      throw new TransactionRejectedError(`Insufficient funds for gas * price + value at ${from}`);
    }
    if (token && (await localBalance(trx, chainId, to, from)) < token.amount) {
      throw new TransactionRejectedError(`Insufficient token balance at ${from}`);
    }
    const block = (await localHead(trx, chainId)) + 1;
    await setLocalHead(trx, chainId, block);
    const at = new Date().toISOString();
    const row = (logIndex: number, tokenContract: string | null, dest: string, amount: bigint) => ({
      id: newId('ctx'),
      chain_id: chainId,
      token_contract: tokenContract,
      tx_hash: hash,
      log_index: logIndex,
      from_address: from,
      to_address: dest,
      amount_raw: amount.toString(),
      block_number: block,
      created_at: at,
    });
    const rows = [row(FEE_LOG_INDEX, null, zeroAddress, fee)];
    if (value > 0n) rows.push(row(NATIVE_LOG_INDEX, null, to, value));
    if (token) rows.push(row(0, to, token.recipient, token.amount));
    await trx.insertInto('chain_transfers').values(rows).execute();
    return hash;
  });
}

/** The local chain's sending side (see above). */
export class LocalChainSender implements ChainSender {
  readonly kind = 'local';

  constructor(
    private readonly db: Db,
    readonly chainId: SpecChainId,
  ) {}

  async signingChainId(): Promise<number> {
    return this.chainId;
  }

  async nonce(address: string): Promise<number> {
    // Mined at once: the pending nonce is the mined one.
    return nonceOf(this.db, this.chainId, address);
  }

  async gasPrice(): Promise<bigint> {
    return LOCAL_GAS_PRICE;
  }

  async balance(address: string, token: string | null): Promise<bigint> {
    return localBalance(this.db, this.chainId, token, address);
  }

  async sendRaw(raw: Hex): Promise<Hex> {
    return acceptLocalTransaction(this.db, this.chainId, raw);
  }

  async receipt(hash: Hex): Promise<SentReceipt | null> {
    const row = await this.db
      .selectFrom('chain_transfers')
      .select('block_number')
      .where('chain_id', '=', this.chainId)
      .where('tx_hash', '=', hash)
      .where('log_index', '=', FEE_LOG_INDEX)
      .executeTakeFirst();
    return row ? { success: true, blockNumber: row.block_number } : null;
  }

  async known(hash: Hex): Promise<boolean> {
    return (await this.receipt(hash)) !== null;
  }
}
