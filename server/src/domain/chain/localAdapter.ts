import { randomBytes } from 'node:crypto';
import { getAddress, keccak256, stringToHex, zeroAddress } from 'viem';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import { InvalidError } from '../errors';
import { newId } from '../ids';
import { creditsMicro } from '../billing/ledger';
import { chainAmountToMicro, MAX_TOTAL_MICRO, microToChainAmount, microToString } from '../money';
import {
  NATIVE_LOG_INDEX,
  type BlockStamp,
  type ChainAdapter,
  type ChainTransfer,
  type Recipients,
  type TokenTransfer,
  type TransferRef,
} from './adapter';
import { lockForTransaction } from '../../db/locks';
import { prepared } from '../../db/prepared';
import { addressKey, isTronChain, specUsdt, type SpecChainId } from './specChains';

/** BEP20 USDT has 18 decimals; the local chain mimics it. */
export const LOCAL_TOKEN_DECIMALS = 18;

/** The chain of the users' own wallet deposits: BNB Smart Chain (USDT BEP20). */
const WALLET_CHAIN_ID: SpecChainId = 56;

type Executor = Kysely<Database> | Transaction<Database>;

/** Recipients per query (SQLite allows 32,766 parameters in a statement, PostgreSQL 65,535). */
const ADDRESSES_PER_QUERY = 1_000;

/**
 * The chain when no RPC serves a chain id: every chain id of the spec at once, each with its own
 * blocks (chain_heads), in the chain_transfers table. Each recorded transfer is its own block
 * with a random tx hash, a token transfer log index 0 and a native one NATIVE_LOG_INDEX; empty
 * blocks mined on top (`mineLocalBlocks`) give deposits their confirmations. Balances are the
 * sums of the transfers in and out. Blocks never reorganise here, so a block's hash is a
 * function of its chain and number. A user's own wallet deposit is final at once
 * (confirmations 1).
 */
export class LocalChainAdapter implements ChainAdapter {
  readonly kind = 'local';
  readonly confirmations = 1;

  constructor(
    private readonly db: Db,
    readonly chainId: SpecChainId = WALLET_CHAIN_ID,
  ) {}

  async latestBlock(): Promise<number> {
    return localHead(this.db, this.chainId);
  }

  async tokenDecimals(): Promise<number> {
    return specUsdt(this.chainId)?.decimals ?? LOCAL_TOKEN_DECIMALS;
  }

  async transfersToAny(
    addresses: readonly string[],
    fromBlock: number,
    toBlock: number,
  ): Promise<TokenTransfer[]> {
    const usdt = specUsdt(this.chainId);
    if (!usdt) return [];
    return this.tokenTransfers(usdt.contract, addresses, fromBlock, toBlock);
  }

  tokenContract(methodContract: string): string {
    return addressKey(methodContract);
  }

  async blockHash(blockNumber: number): Promise<string | null> {
    return this.hashUnder(blockNumber, await this.latestBlock());
  }

  /** The hash of block `blockNumber` with the chain at `head` (null past it): see blockHash. */
  private async hashUnder(blockNumber: number, head: number): Promise<string | null> {
    if (blockNumber > head) return null;
    // Each reorg at or below the block gave it another hash: the branch it is on now.
    const forks = await this.db
      .selectFrom('local_chain_reorgs')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('chain_id', '=', this.chainId)
      .where('reorged_at', 'is not', null)
      .where('block_number', '<=', blockNumber)
      .executeTakeFirst();
    const branch = Number(forks?.n ?? 0);
    const suffix = branch === 0 ? '' : `:${branch}`;
    return keccak256(stringToHex(`local:${this.chainId}:${blockNumber}${suffix}`));
  }

  /**
   * A local block's time is the latest its transfers carry, up to it (empty blocks carry none).
   * The head is the present: the local chain is the database, never out of reach, and a read of
   * its head at `now` has seen every block it held then.
   */
  async blockStamp(blockNumber: number, now: Date): Promise<BlockStamp | null> {
    const head = await this.latestBlock();
    const hash = await this.hashUnder(blockNumber, head);
    if (hash === null) return null;
    const row = await this.db
      .selectFrom('chain_transfers')
      .select((eb) => eb.fn.max('created_at').as('latest'))
      .where('chain_id', '=', this.chainId)
      .where('block_number', '<=', blockNumber)
      .executeTakeFirst();
    const latest = row?.latest ? new Date(row.latest).getTime() : 0;
    const time = blockNumber >= head ? Math.max(latest, now.getTime()) : latest;
    return { hash, time: new Date(time).toISOString() };
  }

  async tokenTransfers(
    token: string,
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]> {
    return this.transfers(addressKey(token), recipients, fromBlock, toBlock);
  }

  async nativeTransfers(
    recipients: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]> {
    return this.transfers(null, recipients, fromBlock, toBlock);
  }

  async transferNow(ref: TransferRef): Promise<ChainTransfer | null> {
    const row = await this.rows(ref.token === null ? null : addressKey(ref.token))
      .where('tx_hash', '=', ref.txHash)
      .where('log_index', '=', ref.logIndex)
      .executeTakeFirst();
    return row ? transferOf(row) : null;
  }

  private rows(token: string | null) {
    return this.db
      .selectFrom('chain_transfers')
      .selectAll()
      .where('chain_id', '=', this.chainId)
      .where('token_contract', token === null ? 'is' : '=', token);
  }

  private async transfers(
    token: string | null,
    addresses: Recipients,
    fromBlock: number,
    toBlock: number,
  ): Promise<ChainTransfer[]> {
    if (typeof addresses === 'function') {
      // The range read whole, its recipients matched after.
      const all = (
        await this.rows(token)
          .where('block_number', '>=', fromBlock)
          .where('block_number', '<=', toBlock)
          .execute()
      ).map(transferOf);
      const watched = await addresses([...new Set(all.map((t) => t.to))]);
      return all
        .filter((t) => watched.has(t.to))
        .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    }
    const out: ChainTransfer[] = [];
    // In lists of bounded size: the engines cap the parameters of one statement.
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_QUERY) {
      const rows = await this.rows(token)
        .where('to_address', 'in', addresses.slice(i, i + ADDRESSES_PER_QUERY).map(addressKey))
        .where('block_number', '>=', fromBlock)
        .where('block_number', '<=', toBlock)
        .execute();
      out.push(...rows.map(transferOf));
    }
    return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }
}

function transferOf(row: {
  tx_hash: string;
  log_index: number;
  from_address: string;
  to_address: string;
  amount_raw: string;
  block_number: number;
  created_at: string;
  token_contract: string | null;
}): ChainTransfer {
  return {
    txHash: row.tx_hash,
    logIndex: row.log_index,
    from: row.from_address,
    to: row.to_address,
    amount: BigInt(row.amount_raw),
    blockNumber: row.block_number,
    timestamp: row.created_at,
    token: row.token_contract,
  };
}

export interface LocalTransfer {
  chainId: SpecChainId;
  /** The token's contract address; null for the native coin. */
  token: string | null;
  to: string;
  /** Base units of the asset. */
  amount: bigint;
  createdAt: string;
}

/**
 * A payer's transfer on the local chain in a new block of its chain id (from the zero address,
 * as a mint: the payer is outside the gateway).
 */
export async function recordLocalChainTransfer(
  db: Db,
  transfer: LocalTransfer,
): Promise<ChainTransfer> {
  const [recorded] = await recordLocalChainBlock(db, transfer.chainId, [transfer]);
  if (!recorded) throw new Error('No transfer recorded');
  return recorded;
}

/** Several payers' transfers in one new block of `chainId`, as a busy chain's block holds. */
export async function recordLocalChainBlock(
  db: Db,
  chainId: SpecChainId,
  transfers: readonly Omit<LocalTransfer, 'chainId'>[],
): Promise<ChainTransfer[]> {
  return db.transaction().execute(async (trx) => {
    // One block at a time on a chain, whichever process records it.
    await lockForTransaction(trx, `local_chain:${chainId}`);
    const blockNumber = await newBlock(trx, chainId);
    const recorded: ChainTransfer[] = [];
    for (const transfer of transfers) {
      recorded.push(await appendTransfer(trx, { ...transfer, chainId }, blockNumber));
    }
    return recorded;
  });
}

/** The chain's next block, now its head; the caller holds the chain's lock. */
async function newBlock(trx: Transaction<Database>, chainId: SpecChainId): Promise<number> {
  const blockNumber = (await localHead(trx, chainId)) + 1;
  await setLocalHead(trx, chainId, blockNumber);
  return blockNumber;
}

async function appendTransfer(
  trx: Transaction<Database>,
  transfer: LocalTransfer,
  blockNumber: number,
): Promise<ChainTransfer> {
  const hash = randomBytes(32).toString('hex');
  const recorded: ChainTransfer = {
    // Tron transaction ids are bare hex; EVM hashes carry 0x.
    txHash: isTronChain(transfer.chainId) ? hash : `0x${hash}`,
    logIndex: transfer.token === null ? NATIVE_LOG_INDEX : 0,
    from: isTronChain(transfer.chainId) ? TRON_ZERO_ADDRESS : zeroAddress,
    to: addressKey(transfer.to),
    amount: transfer.amount,
    blockNumber,
    timestamp: transfer.createdAt,
    token: transfer.token === null ? null : addressKey(transfer.token),
  };
  await trx
    .insertInto('chain_transfers')
    .values({
      id: newId('ctx'),
      chain_id: transfer.chainId,
      token_contract: recorded.token,
      tx_hash: recorded.txHash,
      log_index: recorded.logIndex,
      from_address: recorded.from,
      to_address: recorded.to,
      amount_raw: recorded.amount.toString(),
      block_number: recorded.blockNumber,
      created_at: transfer.createdAt,
    })
    .execute();
  return recorded;
}

/** Tron's form of the zero address (0x41 followed by 20 zero bytes). */
const TRON_ZERO_ADDRESS = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

/**
 * A USDT (BEP20) transfer to a user's wallet deposit address on the local chain. With `payee`,
 * refused (InvalidError) when that wallet would take in more than MAX_TOTAL_MICRO in all,
 * counting what it was credited and the transfers to it not credited yet.
 */
export async function recordLocalTransfer(
  db: Db,
  transfer: { to: string; amountMicro: bigint; createdAt: string },
  payee?: { userId: string; username: string },
): Promise<TokenTransfer> {
  const usdt = walletUsdt();
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `local_chain:${WALLET_CHAIN_ID}`);
    if (payee) {
      // Uncredited transfers first, credits second: a sync committing in between is counted
      // twice (a stricter check), never missed.
      const onTheWay = await uncreditedMicro(trx, transfer.to);
      const incoming = onTheWay + (await creditsMicro(trx, payee.userId));
      if (incoming + transfer.amountMicro > MAX_TOTAL_MICRO) {
        const room = MAX_TOTAL_MICRO - incoming;
        throw new InvalidError(
          `Refused: ${payee.username}'s wallet would take in more than ` +
            `${microToString(MAX_TOTAL_MICRO)} USDT in all, the most one wallet can hold ` +
            `(${microToString(incoming)} USDT credited or on the way; at most ` +
            `${microToString(room > 0n ? room : 0n)} more).`,
        );
      }
    }
    return appendTransfer(
      trx,
      {
        chainId: WALLET_CHAIN_ID,
        token: usdt.contract,
        to: transfer.to,
        amount: microToChainAmount(transfer.amountMicro, usdt.decimals),
        createdAt: transfer.createdAt,
      },
      await newBlock(trx, WALLET_CHAIN_ID),
    );
  });
}

function walletUsdt(): { contract: string; decimals: number } {
  const usdt = specUsdt(WALLET_CHAIN_ID);
  if (!usdt) throw new Error('The spec has no USDT on BNB Smart Chain');
  return usdt;
}

/** Transfers to `address` on the local chain that no credited deposit records yet. */
async function uncreditedMicro(db: Executor, address: string): Promise<bigint> {
  const usdt = walletUsdt();
  const rows = await db
    .selectFrom('chain_transfers')
    .select(['tx_hash', 'log_index', 'amount_raw'])
    .where('chain_id', '=', WALLET_CHAIN_ID)
    .where('token_contract', '=', usdt.contract)
    .where('to_address', '=', getAddress(address))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('deposits')
            .select('deposits.id')
            .whereRef('deposits.tx_hash', '=', 'chain_transfers.tx_hash')
            .whereRef('deposits.log_index', '=', 'chain_transfers.log_index')
            .where('deposits.status', '=', 1),
        ),
      ),
    )
    .execute();
  return rows.reduce(
    (sum, row) => sum + chainAmountToMicro(BigInt(row.amount_raw), usdt.decimals),
    0n,
  );
}

/**
 * The balance of `address` on a local chain, in base units of the asset (token null: the native
 * coin): what was transferred to it less what it sent. Summed as BigInt, never as floats.
 */
export async function localBalance(
  db: Db,
  chainId: SpecChainId,
  token: string | null,
  address: string,
): Promise<bigint> {
  const owner = addressKey(address);
  const rows = await db
    .selectFrom('chain_transfers')
    .select(['to_address', 'amount_raw'])
    .where('chain_id', '=', chainId)
    .where('token_contract', token === null ? 'is' : '=', token === null ? null : addressKey(token))
    .where((eb) => eb.or([eb('to_address', '=', owner), eb('from_address', '=', owner)]))
    .execute();
  return rows.reduce(
    (sum, row) => sum + (row.to_address === owner ? 1n : -1n) * BigInt(row.amount_raw),
    0n,
  );
}

const headRow = prepared({ chainId: 0 }, (db, p) =>
  db.selectFrom('chain_heads').select('block_number').where('chain_id', '=', p.chainId),
);

/**
 * The newest block of a local chain: its head row, which every block it makes sets (migration
 * 0640); 0 before its first.
 */
export async function localHead(
  db: Executor,
  chainId: SpecChainId = WALLET_CHAIN_ID,
): Promise<number> {
  const [head] = await headRow(db, { chainId });
  return head?.block_number ?? 0;
}

const headRows = prepared({}, (db) =>
  db
    .selectFrom('chain_heads as h')
    .leftJoin('watch_cursors as c', 'c.chain_id', 'h.chain_id')
    .select(['h.chain_id', 'h.block_number', 'c.head_block']),
);

/** A chain's head, and the head its watcher's last pass read (null before its first pass). */
export interface FollowedHead {
  head: number;
  watched: number | null;
}

/**
 * Every local chain's head in one read (0 for a chain with no block yet: see localHead), with
 * the head its watcher last read (watch_cursors).
 */
export async function localHeads(
  db: Executor,
  chainIds: readonly SpecChainId[],
): Promise<Map<SpecChainId, FollowedHead>> {
  const rows = await headRows(db, {});
  const heads = new Map(
    rows.map((row) => [row.chain_id, { head: row.block_number, watched: row.head_block }]),
  );
  return new Map(
    chainIds.map((chainId) => [chainId, heads.get(chainId) ?? { head: 0, watched: null }]),
  );
}

export async function setLocalHead(
  db: Executor,
  chainId: SpecChainId,
  blockNumber: number,
): Promise<void> {
  await db
    .insertInto('chain_heads')
    .values({ chain_id: chainId, block_number: blockNumber })
    .onConflict((oc) => oc.column('chain_id').doUpdateSet({ block_number: blockNumber }))
    .execute();
}

/**
 * A reorg of local chain `chainId` that takes transfer `txHash` off it: its block and every one
 * after are replaced by a branch without it, as long as the chain was, and `mined` blocks longer
 * (a reorg's winning branch is the longer one). The blocks from its block on get new hashes;
 * the other transfers stay, as if mined again at the same heights. Answers the new head, or null
 * when no transfer has that hash.
 */
export async function reorgLocalTransfer(
  db: Db,
  chainId: SpecChainId,
  txHash: string,
  input: { mined: number; now: Date },
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `local_chain:${chainId}`);
    const transfer = await trx
      .selectFrom('chain_transfers')
      .select('block_number')
      .where('chain_id', '=', chainId)
      .where('tx_hash', '=', txHash)
      .executeTakeFirst();
    if (!transfer) return null;
    await trx
      .deleteFrom('chain_transfers')
      .where('chain_id', '=', chainId)
      .where('tx_hash', '=', txHash)
      .execute();
    await trx
      .insertInto('local_chain_reorgs')
      .values({
        tx_hash: txHash,
        chain_id: chainId,
        block_number: transfer.block_number,
        reorged_at: input.now.toISOString(),
      })
      .onConflict((oc) =>
        oc.column('tx_hash').doUpdateSet({
          block_number: transfer.block_number,
          reorged_at: input.now.toISOString(),
        }),
      )
      .execute();
    const head = (await localHead(trx, chainId)) + input.mined;
    await setLocalHead(trx, chainId, head);
    return head;
  });
}

/** Mines `count` empty blocks on a local chain (confirmations for what it holds); the new head. */
export async function mineLocalBlocks(
  db: Db,
  count: number,
  chainId: SpecChainId = WALLET_CHAIN_ID,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `local_chain:${chainId}`);
    const head = (await localHead(trx, chainId)) + count;
    await setLocalHead(trx, chainId, head);
    return head;
  });
}
