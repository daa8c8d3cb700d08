import type { Insertable } from 'kysely';
import { engineOf, type Db } from '../../db/connection';
import type { AppAccountsTable } from '../../db/schema';
import { giveBackAddress, handOutAddress } from '../chain/addressPool';
import { BRANCH_PATHS } from '../chain/derivationCounters';
import { prepared } from '../../db/prepared';
import { insertRows, runNamed, runShaped } from '../../db/rowInserts';
import { PlanLimitError, refuseOverPlan } from '../apps/plan';
import { tronAddressFromEvm } from '../chain/addresses';
import { fieldInvalid, NotFoundError } from '../errors';
import { afterCursor, pageOf } from '../cursor';
import { newTimeOrderedId } from '../ids';

// The gateway's payment methods and deposit accounts of an app. An account is one address per
// customer (`unique_id`) and chain, derived from the gateway's extended public key on branch 2
// (account/2/<index>): apart from the users' own deposit addresses (branch 0) and the gas
// wallets (branch 1), and never a private key on this server.

export const ACCOUNT_BRANCH = BRANCH_PATHS.accounts;

export interface GatewayMethod {
  id: string;
  code: string;
  name: string;
  network: string;
  networkType: string;
  chainId: number;
  tokenContract: string | null;
  decimals: number;
  confirmations: number;
  minDeposit: string;
  depositsEnabled: boolean;
  withdrawalsEnabled: boolean;
}

// Every gateway call on a method and the app details screen read it: prepared.
const enabledGatewayMethods = prepared(
  { appId: '' },
  (db, p) =>
    db
      .selectFrom('app_payment_methods')
      .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
      .select([
        'payment_methods.id',
        'payment_methods.code',
        'payment_methods.name',
        'payment_methods.network_name',
        'payment_methods.network_type',
        'payment_methods.chain_id',
        'payment_methods.token_contract_address',
        'payment_methods.decimals',
        'payment_methods.confirmations',
        'payment_methods.min_deposit',
        'app_payment_methods.deposit_status',
        'app_payment_methods.withdraw_status',
      ])
      .where('app_payment_methods.app_id', '=', p.appId)
      .where('payment_methods.code', 'is not', null)
      .orderBy('payment_methods.sort_order'),
  { ownerOf: (p) => p.appId },
);

/** The app's enabled methods that have a gateway code, in the portal's order. */
export async function gatewayMethods(db: Db, appId: string): Promise<GatewayMethod[]> {
  const rows = await enabledGatewayMethods(db, { appId });
  return rows.map((row) => ({
    id: row.id,
    code: row.code ?? '',
    name: row.name,
    network: row.network_name,
    networkType: row.network_type,
    chainId: row.chain_id,
    tokenContract: row.token_contract_address,
    decimals: row.decimals,
    confirmations: row.confirmations,
    minDeposit: row.min_deposit,
    depositsEnabled: row.deposit_status === 1,
    withdrawalsEnabled: row.withdraw_status === 1,
  }));
}

export interface GatewayAccount {
  uniqueId: string;
  methodCode: string;
  chainId: number;
  address: string;
  createdAt: string;
}

const accountOfCustomer = prepared({ appId: '', uniqueId: '', chainId: 0 }, (db, p) =>
  db
    .selectFrom('app_accounts')
    .select(['address', 'created_at'])
    .where('app_id', '=', p.appId)
    .where('unique_id', '=', p.uniqueId)
    .where('chain_id', '=', p.chainId),
);

/**
 * The customer's account on `code`'s chain: the existing one (created false), or a new one
 * within the merchant's plan (PlanLimitError past a limit or without a package). No lock: the
 * index comes from its branch's counter (derivationCounters.ts), so two creations never share
 * one, and the unique (app, unique_id, chain) index settles two requests for one customer at once:
 * the second inserts nothing and answers the first's account.
 *
 * No read comes first: the insert itself tells whether the customer has an account (a read
 * before it was a round trip of its own per creation on PostgreSQL, and creations are most of
 * what a flash sale asks). A customer who has one costs the read after the insert instead, and
 * the index it was handed goes back to this process's next creation, so asking again for an
 * account uses up no index.
 */
export async function openAccount(
  db: Db,
  xpub: string,
  input: { appId: string; uniqueId: string; code: string; now: Date },
): Promise<{ account: GatewayAccount; created: boolean }> {
  const method = (await gatewayMethods(db, input.appId)).find((m) => m.code === input.code);
  if (!method) throw fieldInvalid('method', `The app has not enabled ${input.code}.`);
  if (!method.depositsEnabled) {
    throw fieldInvalid('method', `Deposits of ${input.code} are switched off for this app.`);
  }
  const view = (row: { address: string; created_at: string }): GatewayAccount => ({
    uniqueId: input.uniqueId,
    methodCode: method.code,
    chainId: method.chainId,
    address: row.address,
    createdAt: row.created_at,
  });
  const customer = { appId: input.appId, uniqueId: input.uniqueId, chainId: method.chainId };
  const existing = async () => {
    const [theirs] = await accountOfCustomer(db, customer);
    return theirs && { account: view(theirs), created: false };
  };
  // Only new accounts count against the plan: the ones handed out keep working. An account is
  // no transaction of the plan's, so the check needs no lock: it only reads.
  try {
    await refuseOverPlan(db, input.appId, input.now, 'account');
  } catch (error) {
    if (error instanceof PlanLimitError) {
      const found = await existing();
      if (found) return found;
    }
    throw error;
  }
  const handed = await handOutAddress(db, xpub, 'accounts');
  const row = {
    address: method.networkType === 'EVM' ? handed.evm : tronAddressFromEvm(handed.evm),
    created_at: input.now.toISOString(),
  };
  const inserted = await insertAccount(db, {
    id: newTimeOrderedId('acc', input.now),
    app_id: input.appId,
    payment_method_id: method.id,
    unique_id: input.uniqueId,
    chain_id: method.chainId,
    derivation_index: handed.index,
    ...row,
  });
  if (inserted) return { account: view(row), created: true };
  giveBackAddress(db, xpub, 'accounts', handed);
  const found = await existing();
  if (!found) throw new Error(`No account for ${input.uniqueId} after a conflict`);
  return found;
}

type AccountRow = Insertable<AppAccountsTable> & { id: string };
interface QueuedInsert {
  row: AccountRow;
  done: (inserted: boolean) => void;
  failed: (error: unknown) => void;
}
const queuedInserts = new WeakMap<Db, QueuedInsert[]>();
/**
 * The most rows one shared insert takes: 8 values a row, far below SQLite's 32,766 variables a
 * statement; a turn with more creations starts another statement.
 */
export const SHARED_INSERT_ROWS = 500;

/**
 * Inserts a new account unless its customer has one on its chain (false then). The inserts that
 * this process's creations ask for in one turn of the event loop go in one statement: one commit
 * for them all, where each insert was its own (on SQLite a commit also makes the other process
 * read its pages afresh).
 */
function insertAccount(db: Db, row: AccountRow): Promise<boolean> {
  return new Promise((done, failed) => {
    const queue = queuedInserts.get(db);
    if (queue && queue.length < SHARED_INSERT_ROWS) {
      queue.push({ row, done, failed });
      return;
    }
    const batch = [{ row, done, failed }];
    queuedInserts.set(db, batch);
    setImmediate(() => void flushInserts(db, batch));
  });
}

async function flushInserts(db: Db, batch: QueuedInsert[]): Promise<void> {
  if (queuedInserts.get(db) === batch) queuedInserts.delete(db);
  const statement = (rows: AccountRow[]) =>
    insertRows(db, db, 'app_accounts', rows)
      .onConflict((oc) => oc.columns(['app_id', 'unique_id', 'chain_id']).doNothing())
      .returning('id');
  // PostgreSQL keeps the statement's text (runShaped): Kysely built and compiled it anew for
  // each shared insert, 4 % of a process's CPU in a run of creations.
  const insert = (rows: AccountRow[]): Promise<{ id: string }[]> =>
    engineOf(db) === 'postgres'
      ? runShaped(db, 'accounts', [{ table: 'app_accounts', rows }], () => statement(rows))
      : runNamed(db, statement(rows));
  try {
    const inserted = new Set((await insert(batch.map((queued) => queued.row))).map((r) => r.id));
    for (const queued of batch) queued.done(inserted.has(queued.row.id));
  } catch (error) {
    if (batch.length === 1) {
      batch[0]?.failed(error);
      return;
    }
    // One row refused fails the statement: each is written alone, so only its own creation fails.
    for (const queued of batch) {
      insert([queued.row]).then((rows) => queued.done(rows.length > 0), queued.failed);
    }
  }
}

const accountColumns = [
  'app_accounts.id',
  'app_accounts.unique_id',
  'app_accounts.address',
  'app_accounts.created_at',
  'app_accounts.chain_id',
  'payment_methods.code',
] as const;

function accountView(row: {
  unique_id: string;
  address: string;
  created_at: string;
  chain_id: number | null;
  code: string | null;
}): GatewayAccount {
  return {
    uniqueId: row.unique_id,
    methodCode: row.code ?? '',
    chainId: row.chain_id ?? 0,
    address: row.address,
    createdAt: row.created_at,
  };
}

/** The accounts of one customer, one per chain; NotFoundError when there are none. */
export async function customerAccounts(
  db: Db,
  appId: string,
  uniqueId: string,
): Promise<GatewayAccount[]> {
  const rows = await db
    .selectFrom('app_accounts')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_accounts.payment_method_id')
    .select(accountColumns)
    .where('app_accounts.app_id', '=', appId)
    .where('app_accounts.unique_id', '=', uniqueId)
    .orderBy('app_accounts.created_at')
    .execute();
  if (rows.length === 0) throw new NotFoundError(`No accounts for ${uniqueId}.`);
  return rows.map(accountView);
}

/**
 * A page of the app's accounts, newest first. The cursor is the last row's (created_at, id):
 * paging by index stays fast however many accounts an app has, where an offset would not.
 */
export async function listAccounts(
  db: Db,
  appId: string,
  page: { cursor: string | undefined; limit: number },
): Promise<{ accounts: GatewayAccount[]; nextCursor: string | null }> {
  const rows = await db
    .selectFrom('app_accounts')
    .innerJoin('payment_methods', 'payment_methods.id', 'app_accounts.payment_method_id')
    .select(accountColumns)
    .where('app_accounts.app_id', '=', appId)
    .$if(page.cursor !== undefined, (q) => q.where(afterCursor('app_accounts', page.cursor ?? '')))
    .orderBy('app_accounts.created_at', 'desc')
    .orderBy('app_accounts.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const { rows: shown, nextCursor } = pageOf('app_accounts', rows, page.limit);
  return { accounts: shown.map(accountView), nextCursor };
}
