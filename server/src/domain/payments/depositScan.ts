import type { Db } from '../../db/connection';
import type { StrayFlag } from '../../db/schema';
import type { ChainAdapter, ChainTransfer, Recipients } from '../chain/adapter';
import { addressKey } from '../chain/specChains';
import { decimalToMicro, microToChainAmount } from '../money';

// The watcher's reading side, one chain at a time: which methods a chain carries, and which
// transfers to the apps' deposit accounts its new blocks hold. gatewayDeposits.ts records them
// and moves their rows through the statuses.
//
// One cursor per chain (watch_cursors): the last block read, its hash and its time (how far the
// chain's clock has been read: invoices expire by it, domain/invoices/chainClock.ts). Each pass reads on
// from there, at most MAX_BLOCKS_PER_PASS blocks (a first run starts FIRST_SCAN_LOOKBACK blocks
// back). When the block at the cursor has another hash than when it was read, a reorg replaced
// it: the pass reads again from a window of the chain's deepest confirmations below it, so a
// transfer re-mined in another block is found there and updates its row (never a second row,
// and never missed). Blocks deeper than that window are past every method's confirmations.

/** On its first run on a chain, the watcher reads this many blocks back from the head. */
const FIRST_SCAN_LOOKBACK = 5_000;
/** Blocks read per pass: native transfers cost one block body each over JSON-RPC. */
export const MAX_BLOCKS_PER_PASS = 1_000;
/**
 * Up to this many addresses watched on a chain, the chain is asked for transfers to them by name
 * (one eth_getLogs filter takes MAX_LOG_ADDRESSES of them); beyond, it is read whole per block
 * range and the recipients are looked up (watchedAddresses below).
 */
export const FEW_ADDRESSES = 500;
/** Recipients looked up per query: well inside both engines' parameter limits. */
const ADDRESSES_PER_QUERY = 500;

/** A payment method the watcher follows on its chain. */
export interface WatchedMethod {
  id: string;
  chainId: number;
  /** The coin or token (USDT, BNB, ...), the same name on every chain. */
  asset: string;
  /** Where its token is on the served chain; null for the native coin. */
  contract: string | null;
  decimals: number;
  confirmations: number;
  /** The smallest deposit credited, in base units. */
  minimum: bigint;
}

export interface DepositAccount {
  app_id: string;
  unique_id: string;
  address: string;
  /** The account's own method and its coin or token (USDT, BNB, ...). */
  method_id: string | null;
  asset: string | null;
}

export interface FoundTransfer {
  method: WatchedMethod;
  account: Pick<DepositAccount, 'app_id' | 'unique_id' | 'address'>;
  transfer: ChainTransfer;
  /** Null in the account's own method; else how it strayed (strayFlag). */
  flag: StrayFlag | null;
}

/**
 * How a deposit to an account strayed from the account's method: on another EVM chain in the
 * same coin or token, or in another one; null in the account's own.
 */
function strayFlag(
  account: Pick<DepositAccount, 'method_id' | 'asset'>,
  method: Pick<WatchedMethod, 'id' | 'asset'>,
): StrayFlag | null {
  if (account.method_id === null || account.method_id === method.id) return null;
  return account.asset === method.asset ? 'wrong_network' : 'wrong_asset';
}

/**
 * A transfer to an invoice's address: in a method the invoice offers (`flag` null), or not
 * (another EVM chain's or another token's: flagged, counted only once the merchant accepts it).
 */
export interface FoundInvoiceTransfer {
  method: WatchedMethod;
  invoice: { id: string; appId: string; address: string };
  transfer: ChainTransfer;
  flag: StrayFlag | null;
}

export interface ChainScan {
  head: number;
  found: FoundTransfer[];
  invoiceTransfers: FoundInvoiceTransfer[];
  /** Moves the cursor past the blocks read: call it once their transfers are recorded. */
  advance(): Promise<void>;
}

/**
 * The methods with a gateway code on the adapter's chain, switched on or not: addresses already
 * handed out stay watched. A token without a contract cannot be read and is left out.
 */
export async function watchedMethods(db: Db, adapter: ChainAdapter): Promise<WatchedMethod[]> {
  const rows = await db
    .selectFrom('payment_methods')
    .select([
      'id',
      'chain_id',
      'name',
      'is_token',
      'token_contract_address',
      'decimals',
      'confirmations',
      'min_deposit',
    ])
    .where('chain_id', '=', adapter.chainId)
    .where('code', 'is not', null)
    .orderBy('sort_order')
    .execute();
  return rows.flatMap((row) => {
    const contract = row.token_contract_address;
    if (row.is_token === 1 && !contract) return [];
    return [
      {
        id: row.id,
        chainId: row.chain_id,
        asset: row.name,
        contract: row.is_token === 1 && contract ? adapter.tokenContract(contract) : null,
        decimals: row.decimals,
        confirmations: row.confirmations,
        minimum: microToChainAmount(decimalToMicro(row.min_deposit), row.decimals),
      },
    ];
  });
}

/**
 * Reads the chain's next blocks (see above) for transfers to any deposit account or invoice
 * address. On an EVM chain that is every invoice's EVM address, whichever chains it offers: a
 * transfer in a method it did not offer (another chain's, another token's) is found and flagged
 * (invoicePaid), for the merchant to accept or refund.
 */
export async function scanChain(
  db: Db,
  adapter: ChainAdapter,
  methods: readonly WatchedMethod[],
  now: Date,
): Promise<ChainScan> {
  const chainId = adapter.chainId;
  const head = await adapter.latestBlock();
  const cursor = await db
    .selectFrom('watch_cursors')
    .select(['scanned_block', 'scanned_hash', 'scanned_time'])
    .where('chain_id', '=', chainId)
    .executeTakeFirst();
  let from = cursor ? cursor.scanned_block + 1 : Math.max(0, head - FIRST_SCAN_LOOKBACK);
  if (
    cursor?.scanned_hash &&
    (await adapter.blockHash(cursor.scanned_block)) !== cursor.scanned_hash
  ) {
    const window = Math.max(1, ...methods.map((m) => m.confirmations));
    from = Math.max(0, cursor.scanned_block - window + 1);
  }
  const to = Math.min(head, from + MAX_BLOCKS_PER_PASS - 1);
  // Without a hash to compare later, the cursor stays where it was (on a first run, before `from`).
  const saveHead = () => saveCursor(db, chainId, null, head, from - 1);
  if (from > to) {
    // Nothing new to read. A real chain's clock moves with its blocks only; the local chain's
    // head is the present (LocalChainAdapter.blockStamp), so its time is read again.
    const again =
      cursor && (adapter.kind === 'local' || cursor.scanned_time === null)
        ? await adapter.blockStamp(cursor.scanned_block, now)
        : null;
    const advance =
      cursor && again
        ? () => saveCursor(db, chainId, { block: cursor.scanned_block, ...again }, head, from - 1)
        : saveHead;
    return { head, found: [], invoiceTransfers: [], advance };
  }

  const watched = await watchedAddresses(db, chainId);
  // Gas top-ups come from the apps' operational wallets: not deposits.
  const gasWallets = new Set(
    (
      await db
        .selectFrom('app_payment_methods')
        .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
        .select('app_payment_methods.gas_address')
        .where('payment_methods.chain_id', '=', chainId)
        .where('app_payment_methods.gas_address', 'is not', null)
        .execute()
    ).map((r) => addressKey(r.gas_address ?? '')),
  );
  const found: FoundTransfer[] = [];
  const invoiceTransfers: FoundInvoiceTransfer[] = [];
  for (const method of methods) {
    const transfers =
      method.contract === null
        ? await adapter.nativeTransfers(watched.recipients, from, to)
        : await adapter.tokenTransfers(method.contract, watched.recipients, from, to);
    for (const transfer of transfers) {
      if (gasWallets.has(addressKey(transfer.from))) continue;
      const account = watched.accounts.get(addressKey(transfer.to));
      if (account) found.push({ method, account, transfer, flag: strayFlag(account, method) });
      const paid = invoicePaid(watched.options.get(addressKey(transfer.to)) ?? [], method);
      if (paid) {
        const { option, flag } = paid;
        invoiceTransfers.push({
          method,
          invoice: { id: option.invoice_id, appId: option.app_id, address: option.address },
          transfer,
          flag,
        });
      }
    }
  }
  // The hash is read after the blocks: a reorg during the pass shows as a mismatch next time.
  const stamp = await adapter.blockStamp(to, now);
  return {
    head,
    found,
    invoiceTransfers,
    advance: () =>
      stamp === null ? saveHead() : saveCursor(db, chainId, { block: to, ...stamp }, head, to),
  };
}

/** Tron's chain id: not an EVM address space (its addresses are its own). */
const TRON = 0;

interface WatchedOption {
  invoice_id: string;
  payment_method_id: string;
  address: string;
  app_id: string;
  /** The option's coin or token (USDT, BNB, ...). */
  asset: string;
}

/**
 * Which invoice a transfer in `method` to one address pays, and whether the invoice offered it
 * there: `options` are the invoice options at that address (one invoice's, an address being
 * one invoice's). Not offered: `wrong_network` when the invoice takes the same coin or token on
 * another chain, `wrong_asset` otherwise.
 */
export function invoicePaid(
  options: readonly WatchedOption[],
  method: Pick<WatchedMethod, 'id' | 'asset'>,
): { option: WatchedOption; flag: StrayFlag | null } | undefined {
  const offered = options.find((o) => o.payment_method_id === method.id);
  if (offered) return { option: offered, flag: null };
  const first = options[0];
  if (!first) return undefined;
  const sameAsset = options.some((o) => o.asset === method.asset);
  return { option: first, flag: sameAsset ? 'wrong_network' : 'wrong_asset' };
}

/**
 * The deposit accounts and invoice addresses of a chain a pass matches transfers against, by
 * stored address (addressKey: EIP-55 for EVM). Up to FEW_ADDRESSES of them, all are loaded and
 * named to the chain (`recipients` is their list). Beyond, none is loaded: `recipients` looks up
 * the recipients of the blocks read, in indexed queries, and keeps the rows found. Either way a
 * pass costs the database and the chain in proportion to the blocks' traffic, never to the
 * number of addresses: deciding which way reads at most FEW_ADDRESSES + 1 rows of each table.
 */
interface WatchedAddresses {
  recipients: Recipients;
  accounts: Map<string, DepositAccount>;
  /** By address: the invoice options there (on an EVM chain, those of every EVM chain). */
  options: Map<string, WatchedOption[]>;
}

async function watchedAddresses(db: Db, chainId: number): Promise<WatchedAddresses> {
  // An EVM address is the same on every EVM chain: on one, the invoices' and the deposit
  // accounts' addresses on all of them are watched, in every method of the chain (a transfer an
  // invoice did not offer is flagged; one to an account is a deposit in the method it came in).
  const chains =
    chainId === TRON
      ? [TRON]
      : (
          await db
            .selectFrom('payment_methods')
            .select('chain_id')
            .distinct()
            .where('network_type', '=', 'EVM')
            .execute()
        ).map((r) => r.chain_id);
  const watched = chains.length > 0 ? chains : [chainId];
  const accountRows = () =>
    db
      .selectFrom('app_accounts as a')
      .leftJoin('payment_methods as am', 'am.id', 'a.payment_method_id')
      .select(['a.app_id', 'a.unique_id', 'a.address', 'a.payment_method_id as method_id'])
      .select('am.name as asset')
      .where('a.chain_id', 'in', watched)
      .where('a.payment_method_id', 'is not', null);
  const optionRows = () =>
    db
      .selectFrom('invoice_payment_options as o')
      .innerJoin('invoices as i', 'i.id', 'o.invoice_id')
      .innerJoin('payment_methods as pm', 'pm.id', 'o.payment_method_id')
      .select(['o.invoice_id', 'o.payment_method_id', 'o.address', 'i.app_id', 'pm.name as asset'])
      .where('o.chain_id', 'in', watched);
  const accounts = new Map<string, DepositAccount>();
  const options = new Map<string, WatchedOption[]>();
  /** Addresses with an account or an option, of those loaded. */
  const known = new Set<string>();
  const keep = (found: { accounts: DepositAccount[]; options: WatchedOption[] }) => {
    for (const a of found.accounts) {
      accounts.set(addressKey(a.address), a);
      known.add(addressKey(a.address));
    }
    for (const o of found.options) {
      const key = addressKey(o.address);
      options.set(key, [...(options.get(key) ?? []), o]);
      known.add(key);
    }
  };

  // Whether either table has more than FEW_ADDRESSES rows, read in an index, without loading
  // one: a busy shop's pass would otherwise build FEW_ADDRESSES + 1 joined rows only to drop them.
  const pastFew = await Promise.all([
    db
      .selectFrom('app_accounts')
      .select('address')
      .where('chain_id', 'in', watched)
      .where('payment_method_id', 'is not', null)
      .offset(FEW_ADDRESSES)
      .limit(1)
      .execute(),
    db
      .selectFrom('invoice_payment_options')
      .select('address')
      .where('chain_id', 'in', watched)
      .offset(FEW_ADDRESSES)
      .limit(1)
      .execute(),
  ]);
  if (pastFew.every((rows) => rows.length === 0)) {
    keep({ accounts: await accountRows().execute(), options: await optionRows().execute() });
    if (known.size <= FEW_ADDRESSES) return { recipients: [...known], accounts, options };
    accounts.clear();
    options.clear();
    known.clear();
  }
  // Each recipient is looked up once a pass, whichever of the chain's methods it was found in.
  const looked = new Set<string>();
  const recipients = async (found: readonly string[]): Promise<ReadonlySet<string>> => {
    const keys = found.map(addressKey);
    const fresh = [...new Set(keys.filter((key) => !looked.has(key)))];
    for (let i = 0; i < fresh.length; i += ADDRESSES_PER_QUERY) {
      const slice = fresh.slice(i, i + ADDRESSES_PER_QUERY);
      keep({
        accounts: await accountRows().where('a.address', 'in', slice).execute(),
        options: await optionRows().where('o.address', 'in', slice).execute(),
      });
      for (const key of slice) looked.add(key);
    }
    return new Set(keys.filter((key) => known.has(key)));
  };
  return { recipients, accounts, options };
}

/** The cursor's new position (null: unchanged) and the head seen; `initial` for a new cursor. */
async function saveCursor(
  db: Db,
  chainId: number,
  scanned: { block: number; hash: string; time: string } | null,
  head: number,
  initial: number,
): Promise<void> {
  const update = scanned
    ? {
        scanned_block: scanned.block,
        scanned_hash: scanned.hash,
        scanned_time: scanned.time,
        head_block: head,
      }
    : { head_block: head };
  await db
    .insertInto('watch_cursors')
    .values({ chain_id: chainId, scanned_block: initial, ...update })
    .onConflict((oc) => oc.column('chain_id').doUpdateSet(update))
    .execute();
}

/**
 * Per chain whose watcher has run, from its cursor alone (no chain is asked: /healthz reads it):
 * how long ago the last block it read was mined (null before its time was kept), and blocks
 * between the head it saw last and that block. A chain whose providers all hang stops moving its
 * cursor, so its seconds grow.
 */
export async function chainLags(
  db: Db,
  now: Date,
): Promise<{ chainId: number; seconds: number | null; blocks: number }[]> {
  const cursors = await db
    .selectFrom('watch_cursors')
    .select(['chain_id', 'scanned_block', 'head_block', 'scanned_time'])
    .orderBy('chain_id')
    .execute();
  return cursors.map((c) => ({
    chainId: c.chain_id,
    seconds:
      c.scanned_time === null
        ? null
        : Math.max(0, Math.floor((now.getTime() - Date.parse(c.scanned_time)) / 1000)),
    blocks: Math.max(0, (c.head_block ?? c.scanned_block) - c.scanned_block),
  }));
}

/**
 * Per chain whose watcher has run: blocks between its head and the cursor. The local chain's
 * head is read live; an RPC chain's is the one its watcher saw last (a scrape calls no RPC).
 */
export async function watcherLag(
  db: Db,
  chains: readonly ChainAdapter[],
): Promise<{ chainId: number; kind: ChainAdapter['kind']; lag: number }[]> {
  const cursors = await db
    .selectFrom('watch_cursors')
    .select(['chain_id', 'scanned_block', 'head_block'])
    .execute();
  const byChain = new Map(cursors.map((c) => [c.chain_id, c]));
  const lags = [];
  for (const chain of chains) {
    const cursor = byChain.get(chain.chainId);
    if (!cursor) continue;
    const head = chain.kind === 'local' ? await chain.latestBlock() : cursor.head_block;
    if (head === null) continue;
    lags.push({
      chainId: chain.chainId,
      kind: chain.kind,
      lag: Math.max(0, head - cursor.scanned_block),
    });
  }
  return lags;
}
