import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { DepositStatus } from '../../db/schema';
import { SIGNER_REFUSED, type SignerAnswer } from '../../signer/client/protocol';
import type { SignerClient } from '../../signer/client/client';
import { payoutRegistrationPending, payoutRegistrationQueued } from '../apps/signerRegistration';
import { getDeposit } from './depositReads';
import { depositsWithMethod } from './deposits';
import { emitDepositEvents } from '../webhooks/events';
import { deep, final, minedBlock, type SendingDeps } from './withdrawalSending';
import type { SpecChainId } from '../chain/specChains';

// Deposits complete: after status 3 (credited), the signer tops up the deposit address's gas
// from the app's operational wallet (4 Gas Transferred), then sweeps the address's whole balance
// to the gateway's fee address (the fee recorded at credit) and the payout address (1
// Completed). A native-coin deposit has its own gas and goes from 3 straight to the sweep. The
// signer follows its transactions and re-checks every request; this job only asks, in order,
// and moves the rows: each move a compare-and-set on the status it leaves. A transaction that
// reverts fails the deposit (5: gas_failed or sweep_failed); Re-initiate sends it through
// verification again and on from there, the signer reading the chain first (a top-up already
// there or a sweep already mined is not paid again). Tron-style methods wait (no signing there).
// A wait the merchant can end (the operational wallet lacks the gas for a top-up) is recorded on
// the row with the signer's words (waiting_reason, waiting_message), which the gateway and the
// portal show, and cleared as soon as the signer answers otherwise or the deposit moves.
// A completed deposit's sweep is followed until its block is final (followCompletedSweeps): a
// reorg that takes it away sets the deposit back to 4 (3 for a coin) with deposit.reorged, the
// signer sends the same signed sweep again, and the deposit completes again.

const BATCH = 20;
/** The most deposits of one app's method a pass takes. */
const PER_METHOD = 5;

export interface CompletionResult {
  gasTransferred: number;
  completed: number;
  failed: number;
}

/**
 * One pass over the deposits at 3 or 4 on EVM chains, oldest credit first, at most PER_METHOD of
 * each app's method.
 */
export async function completeDeposits(
  db: Db,
  signer: SignerClient,
  now: Date,
  /** Counts a signer_refused answer (the signer_refusals_total metric). */
  signerRefused?: (request: 'sweep') => void,
  /** Only this chain's deposits (each chain's job its own: a hanging chain holds up no other). */
  chainId?: number,
): Promise<CompletionResult> {
  const result: CompletionResult = { gasTransferred: 0, completed: 0, failed: 0 };
  const candidates = depositsWithMethod(db)
    .select([
      'receive_transactions.id',
      'receive_transactions.app_id',
      'receive_transactions.payment_method_id',
      'receive_transactions.deposit_status',
      'receive_transactions.credited_at',
      'payment_methods.is_token',
      'app_payment_methods.collect_address',
      'app_payment_methods.payout_hold_until',
      'receive_transactions.waiting_reason',
      'receive_transactions.waiting_message',
      // Each app's method takes its turn: what holds a deposit up (no gas in the operational
      // wallet, a held payout address, the signer's answer) holds up that method's deposits.
      sql<number>`row_number() over (
        partition by receive_transactions.app_id, receive_transactions.payment_method_id
        order by receive_transactions.credited_at, receive_transactions.id)`.as('turn'),
    ])
    .where('receive_transactions.deposit_status', 'in', [3, 4])
    .where('receive_transactions.tx_hash', 'is not', null)
    .where('payment_methods.network_type', '=', 'EVM')
    .$call((q) =>
      chainId === undefined ? q : q.where('receive_transactions.chain_id', '=', chainId),
    )
    // Not taken while they cannot move: a change of payout address the signer has not
    // registered yet (no top-up either: the sweep could not follow), and a topped-up deposit
    // whose payout address is held.
    .where((eb) =>
      eb.not(
        eb.or([
          payoutRegistrationQueued(
            'receive_transactions.app_id',
            'receive_transactions.payment_method_id',
          ),
          eb.and([
            eb('receive_transactions.deposit_status', '=', 4),
            // (not null first: a null comparison would make the whole condition null)
            eb('app_payment_methods.payout_hold_until', 'is not', null),
            eb('app_payment_methods.payout_hold_until', '>', now.toISOString()),
          ]),
        ]),
      ),
    );
  // At most PER_METHOD of each app's method a pass, oldest credit first: deposits that cannot
  // move never crowd out another merchant's, or another method's.
  const rows = await db
    .selectFrom(candidates.as('d'))
    .selectAll()
    .where('d.turn', '<=', PER_METHOD)
    .orderBy('d.credited_at', 'asc')
    .orderBy('d.id', 'asc')
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    let status = row.deposit_status;
    if (status === 3 && row.is_token === 1) {
      const answer = await signer.request({ op: 'topUpGas', depositId: row.id });
      if (answer.state === 'done') {
        if (!(await move(db, row, 3, 4, now, { gas_transfer_txid: answer.txHash }))) continue;
        result.gasTransferred += 1;
        status = 4;
      } else {
        await noteWait(db, row, answer);
        if (await failOn(db, row, answer, 'gas_failed', now)) result.failed += 1;
        continue;
      }
    }
    // A held payout address (the signer's hold end, once it registered the change), or a change
    // the signer has not registered yet: the signer would not sweep there; the deposit waits.
    if (row.payout_hold_until !== null && new Date(row.payout_hold_until) > now) continue;
    if (await payoutRegistrationPending(db, row.app_id, row.payment_method_id)) continue;
    const answer = await signer.request({
      op: 'sweep',
      depositId: row.id,
      to: row.collect_address,
    });
    if (answer.state === 'refused' && answer.code === SIGNER_REFUSED) signerRefused?.('sweep');
    if (answer.state === 'done') {
      result.completed += await completeAt(db, row, status, answer.txHash, now);
    } else if (answer.state === 'needsGas' && status === 4) {
      // Back to awaiting gas, silently: its credit (deposit.confirmed) was already announced.
      await move(db, row, 4, 3, now, {}, false);
    } else if (await failOn(db, row, answer, 'sweep_failed', now)) {
      result.failed += 1;
    }
  }
  return result;
}

type Row = { id: string; app_id: string };

/**
 * Records why a deposit waits at 3 when the signer names a wait the merchant can end, and clears
 * it when the signer answers anything else; writes only a change (each write ends the app's kept
 * reads).
 */
async function noteWait(
  db: Db,
  row: Row & { waiting_reason: string | null; waiting_message: string | null },
  answer: SignerAnswer,
): Promise<void> {
  const wait = answer.state === 'waiting' && answer.code !== undefined ? answer : null;
  const code = wait?.code ?? null;
  const message = wait?.reason ?? null;
  if (row.waiting_reason === code && row.waiting_message === message) return;
  await db
    .updateTable('receive_transactions')
    .set({ waiting_reason: code, waiting_message: message })
    .where('id', '=', row.id)
    .where('deposit_status', '=', 3)
    .execute();
}

/** Compare-and-set of one deposit's status, its event in the same transaction. */
async function move(
  db: Db,
  row: Row,
  from: DepositStatus,
  to: DepositStatus,
  now: Date,
  set: { gas_transfer_txid?: string | null; collect_txid?: string | null; failure_reason?: string },
  /** Its status's event, none, or deposit.reorged (a completed deposit set back). */
  announce: boolean | 'deposit.reorged' = true,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('receive_transactions')
      .set({
        deposit_status: to,
        process_datetime: now.toISOString(),
        // A deposit that moves waits for nothing it waited for.
        waiting_reason: null,
        waiting_message: null,
        ...set,
      })
      .where('id', '=', row.id)
      .where('deposit_status', '=', from)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    if (announce !== false) {
      const deposit = await getDeposit(trx, row.app_id, row.id);
      await emitDepositEvents(
        trx,
        [{ appId: row.app_id, deposit }],
        now,
        announce === true ? undefined : announce,
      );
    }
    return true;
  });
}

/** A refusal or a revert fails the deposit; waiting and pending leave it where it is. */
async function failOn(
  db: Db,
  row: Row & { deposit_status: DepositStatus },
  answer: SignerAnswer,
  reason: 'gas_failed' | 'sweep_failed',
  now: Date,
): Promise<boolean> {
  if (answer.state !== 'refused' && answer.state !== 'failed') return false;
  const from = reason === 'gas_failed' ? 3 : row.deposit_status;
  return move(db, row, from, 5, now, { failure_reason: reason });
}

/**
 * The sweep is mined: this deposit and every other credited one at the same address and method
 * whose balance it took along (credited before the sweep was signed) are Completed.
 */
async function completeAt(
  db: Db,
  row: Row,
  status: DepositStatus,
  txHash: string | null,
  now: Date,
): Promise<number> {
  const sweep = txHash
    ? await db
        .selectFrom('chain_txs')
        .select('created_at')
        .where('tx_hash', '=', txHash)
        .executeTakeFirst()
    : undefined;
  const self = await db
    .selectFrom('receive_transactions')
    .select(['address', 'payment_method_id'])
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  const along = await db
    .selectFrom('receive_transactions')
    .select(['id', 'deposit_status'])
    .where('app_id', '=', row.app_id)
    .where('payment_method_id', '=', self.payment_method_id)
    .where('address', '=', self.address)
    .where('id', '!=', row.id)
    .where('deposit_status', 'in', [3, 4])
    .where('credited_at', '<=', sweep?.created_at ?? now.toISOString())
    .execute();
  let completed = (await move(db, row, status, 1, now, { collect_txid: txHash })) ? 1 : 0;
  for (const other of along) {
    const moved = await move(
      db,
      { id: other.id, app_id: row.app_id },
      other.deposit_status,
      1,
      now,
      {
        collect_txid: txHash,
      },
    );
    if (moved) completed += 1;
  }
  return completed;
}

/**
 * Completed deposits whose sweep is not final yet, each followed through the deposit whose own
 * request signed it (a sweep that took others along is followed once): asked about again, and
 * found final (with the deposits it took along), or set back to 4 (3 for a coin, which pays its
 * own gas) with deposit.reorged when a reorg took it away; the pass above then follows the same
 * signed sweep to its mining anew. Deposits it took along stay completed meanwhile.
 */
export async function followCompletedSweeps(
  deps: Pick<SendingDeps, 'db' | 'signer' | 'head' | 'finalized'>,
  now: Date,
  chainId?: SpecChainId,
): Promise<{ final: number; reorged: number }> {
  const { db } = deps;
  const result = { final: 0, reorged: 0 };
  const rows = await depositsWithMethod(db)
    .innerJoin('chain_txs', (join) =>
      join
        .onRef('chain_txs.tx_hash', '=', 'receive_transactions.collect_txid')
        .onRef('chain_txs.ref_id', '=', 'receive_transactions.id'),
    )
    .select([
      'receive_transactions.id',
      'receive_transactions.app_id',
      'receive_transactions.collect_txid',
      'app_payment_methods.collect_address',
      'payment_methods.is_token',
      'payment_methods.chain_id',
      'payment_methods.confirmations',
    ])
    .where('receive_transactions.deposit_status', '=', 1)
    .where('receive_transactions.swept_final_at', 'is', null)
    .where('payment_methods.network_type', '=', 'EVM')
    .$call((q) => (chainId === undefined ? q : q.where('payment_methods.chain_id', '=', chainId)))
    .orderBy('receive_transactions.process_datetime', 'asc')
    .orderBy('receive_transactions.id', 'asc')
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    const answer = await deps.signer.request({
      op: 'sweep',
      depositId: row.id,
      to: row.collect_address,
    });
    // Chain unreachable, nothing of its own to follow: asked again next pass.
    if (answer.state === 'waiting' || answer.state === 'refused') continue;
    if (answer.state === 'done' && answer.txHash === row.collect_txid) {
      const block = await minedBlock(db, answer.txHash);
      if (block === null || !(await deep(deps, row, block))) continue;
      if (await final(deps, row, block)) {
        const marked = await db
          .updateTable('receive_transactions')
          .set({ swept_final_at: now.toISOString() })
          .where('collect_txid', '=', answer.txHash)
          .where('deposit_status', '=', 1)
          .where('swept_final_at', 'is', null)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) > 0) result.final += 1;
      }
      continue;
    }
    // Its block is gone (the same bytes are on their way again), or another sweep of its nonce
    // was mined instead: not completed any more, until the pass above finds it mined.
    const back = row.is_token === 1 ? 4 : 3;
    if (await move(db, row, 1, back, now, {}, 'deposit.reorged')) result.reorged += 1;
  }
  return result;
}
