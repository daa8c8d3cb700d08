import type { SpecChainId } from '../chain/specChains';
import type { Db } from '../../db/connection';
import type { SendStatus } from '../../db/schema';
import { HELD_FOR_APPROVAL, SIGNER_REFUSED, type SignerAnswer } from '../../signer/client/protocol';
import type { SignerClient } from '../../signer/client/client';
import { FAILED_ON_CHAIN, moveWithdrawal, WITHDRAWAL_STATUS } from './withdrawals';

// Withdrawals go out: this job takes the queued ones (2), oldest first, moves each to 3
// (Processing Transfer) and asks the signer to send it. The signer re-checks the row (status
// 3, the method's switch, the whitelist and its hold, the wallet's funds), signs, stores the
// signed transaction and its hash on the row, then broadcasts (signer/server/service.ts). Its answers
// move the row, each move a compare-and-set with its withdrawal.* event (moveWithdrawal):
//   sent / pending  -> 5 Awaiting Blockchain Confirmation;
//   done (mined)    -> 1 Completed, once the method's confirmations are on top of its block;
//   failed          -> 6 Unsuccessful, `reverted` (mined and failed: nothing can be mined now);
//   refused         -> 6 Unsuccessful with the signer's reason (nothing was signed), or
//                      `signer_refused` when the signer could not trust the row (counted);
//   waiting         -> stays (another transaction of the wallet in flight, chain unreachable, a
//                      settings hold); `held_for_approval` (beyond the app's daily cap, until
//                      the operator decides on the signer's host) is recorded on the row, which
//                      the gateway shows as its waiting_reason.
// Rows at 3 and 5 are asked again on each pass: the signer follows them (broadcasts a dropped
// one again, replaces a slow one at its nonce), so a process killed at any point resumes.
//
// Completed is not final: a reorg can still take its block away. A completed withdrawal is asked
// about on each pass until its block is final (final_at set): on a chain with a `finalized`
// block tag (Ethereum), at or below that block; elsewhere FINAL_DEPTH times the method's
// confirmations deep (its confirmations again on top of those it completed at). The signer reads
// its receipt again (signer/server/pipeline.ts recheckMined). Gone, or back in a block short of
// its confirmations, or another transaction of its nonce mined instead: it moves back to 5 with
// `withdrawal.reorged` (a compare-and-set from 1), the signer sends the same signed bytes again
// (the same nonce: it can be mined only once, never paid twice), and it completes again, with
// `withdrawal.completed` again for the same withdrawal. Refund sends are followed the same way.

const BATCH = 20;
/** Where a chain has no `finalized` tag: final at this many times the method's confirmations. */
export const FINAL_DEPTH = 2;

export interface SendingDeps {
  db: Db;
  signer: SignerClient;
  /** The head block of a chain (the deposit watchers' adapters). */
  head(chainId: number): Promise<number>;
  /** The chain's `finalized` block; null (or absent) where the chain has no such tag. */
  finalized?(chainId: number): Promise<number | null>;
  /** Counts a signer_refused answer (the signer_refusals_total metric). */
  signerRefused?(request: 'withdrawal' | 'sweep'): void;
}

export interface SendingResult {
  sent: number;
  completed: number;
  failed: number;
  /** Completed ones a reorg set back to 5. */
  reorged: number;
}

/**
 * One pass over the gateway's withdrawals in 2, 3 and 5 on EVM chains; with `chainId`, that
 * chain's only (each chain's job its own: a hanging chain holds up no other).
 */
export async function sendWithdrawals(
  deps: SendingDeps,
  now: Date,
  chainId?: SpecChainId,
): Promise<SendingResult> {
  const { db } = deps;
  const result: SendingResult = { sent: 0, completed: 0, failed: 0, reorged: 0 };
  const rows = await db
    .selectFrom('send_transactions')
    .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
    .select([
      'send_transactions.id',
      'send_transactions.status',
      'send_transactions.waiting_reason',
      'send_transactions.waiting_message',
      'payment_methods.chain_id',
      'payment_methods.confirmations',
    ])
    .where('send_transactions.status', 'in', [
      WITHDRAWAL_STATUS.queued,
      WITHDRAWAL_STATUS.processing,
      WITHDRAWAL_STATUS.awaitingConfirmation,
    ])
    .where('send_transactions.amount_raw', 'is not', null)
    .where('payment_methods.network_type', '=', 'EVM')
    .$call((q) => (chainId === undefined ? q : q.where('payment_methods.chain_id', '=', chainId)))
    .orderBy('send_transactions.created_at', 'asc')
    // Requested at the same instant: one order every pass, whatever plan the engine picks.
    .orderBy('send_transactions.id', 'asc')
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    let status: SendStatus = row.status;
    if (status === WITHDRAWAL_STATUS.queued) {
      if (!(await move(db, row.id, [status], WITHDRAWAL_STATUS.processing, now))) continue;
      status = WITHDRAWAL_STATUS.processing;
    }
    const answer = await deps.signer.request({ op: 'sendWithdrawal', withdrawalId: row.id });
    if (status === WITHDRAWAL_STATUS.processing) await noteWait(db, row, answer);
    const outcome = await settle(deps, { ...row, status }, answer, now);
    if (outcome) result[outcome] += 1;
  }
  await followCompleted(deps, now, result, chainId);
  return result;
}

/**
 * Completed withdrawals not final yet, longest completed first: each is asked about again, and
 * marked final, or set back to 5 when a reorg took its block (see the header).
 */
async function followCompleted(
  deps: SendingDeps,
  now: Date,
  result: SendingResult,
  chainId?: SpecChainId,
): Promise<void> {
  const { db } = deps;
  const rows = await db
    .selectFrom('send_transactions')
    .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
    .select([
      'send_transactions.id',
      'send_transactions.tx_hash',
      'payment_methods.chain_id',
      'payment_methods.confirmations',
    ])
    .where('send_transactions.status', '=', WITHDRAWAL_STATUS.completed)
    .where('send_transactions.final_at', 'is', null)
    .where('send_transactions.amount_raw', 'is not', null)
    .where('send_transactions.tx_hash', 'is not', null)
    .where('payment_methods.network_type', '=', 'EVM')
    .$call((q) => (chainId === undefined ? q : q.where('payment_methods.chain_id', '=', chainId)))
    .orderBy('send_transactions.updated_at', 'asc')
    .orderBy('send_transactions.id', 'asc')
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    const answer = await deps.signer.request({ op: 'sendWithdrawal', withdrawalId: row.id });
    // Chain unreachable, another transaction of the wallet in flight: asked again next pass.
    if (answer.state === 'waiting' || answer.state === 'refused') continue;
    if (answer.state === 'done' && answer.txHash === row.tx_hash) {
      const block = await minedBlock(db, answer.txHash);
      // No block recorded (its chain_txs row gone): nothing says it moved; asked again.
      if (block === null) continue;
      if (await deep(deps, row, block)) {
        if (await final(deps, row, block)) {
          await db
            .updateTable('send_transactions')
            .set({ final_at: now.toISOString() })
            .where('id', '=', row.id)
            .where('status', '=', WITHDRAWAL_STATUS.completed)
            .where('final_at', 'is', null)
            .execute();
        }
        continue;
      }
    }
    // Its block is gone (or it is back short of its confirmations, or another transaction of its
    // nonce was mined instead): not completed any more.
    const moved = await move(
      db,
      row.id,
      [WITHDRAWAL_STATUS.completed],
      WITHDRAWAL_STATUS.awaitingConfirmation,
      now,
      undefined,
      'withdrawal.reorged',
    );
    if (!moved) continue;
    result.reorged += 1;
    const outcome = await settle(
      deps,
      { ...row, status: WITHDRAWAL_STATUS.awaitingConfirmation },
      answer,
      now,
    );
    if (outcome) result[outcome] += 1;
  }
}

/** The block chain_txs has for a mined transaction (the signer records it from the receipt). */
export async function minedBlock(db: Db, txHash: string | null): Promise<number | null> {
  if (!txHash) return null;
  const mined = await db
    .selectFrom('chain_txs')
    .select('block_number')
    .where('tx_hash', '=', txHash)
    .executeTakeFirst();
  return mined?.block_number ?? null;
}

/** Whether the method's confirmations are on top of `block` (its own included). */
export async function deep(
  deps: Pick<SendingDeps, 'head'>,
  row: { chain_id: number; confirmations: number },
  block: number,
): Promise<boolean> {
  return block <= (await deps.head(row.chain_id)) - row.confirmations + 1;
}

/** Whether `block` is final: the chain's `finalized` block, or FINAL_DEPTH confirmations deep. */
export async function final(
  deps: Pick<SendingDeps, 'head' | 'finalized'>,
  row: { chain_id: number; confirmations: number },
  block: number,
): Promise<boolean> {
  const finalized = (await deps.finalized?.(row.chain_id)) ?? null;
  if (finalized !== null) return block <= finalized;
  return block <= (await deps.head(row.chain_id)) - FINAL_DEPTH * row.confirmations + 1;
}

type Outcome = keyof SendingResult | null;

/** Moves one withdrawal as the signer's answer says. */
async function settle(
  deps: SendingDeps,
  row: { id: string; status: SendStatus; chain_id: number; confirmations: number },
  answer: SignerAnswer,
  now: Date,
): Promise<Outcome> {
  const { db } = deps;
  const inFlight = [WITHDRAWAL_STATUS.processing, WITHDRAWAL_STATUS.awaitingConfirmation];
  switch (answer.state) {
    case 'sent':
    case 'pending':
      if (row.status !== WITHDRAWAL_STATUS.processing) return null;
      return (await move(db, row.id, [row.status], WITHDRAWAL_STATUS.awaitingConfirmation, now))
        ? 'sent'
        : null;
    case 'done': {
      const block = await minedBlock(db, answer.txHash);
      if (block === null || !(await deep(deps, row, block))) {
        if (row.status !== WITHDRAWAL_STATUS.processing) return null;
        await move(db, row.id, [row.status], WITHDRAWAL_STATUS.awaitingConfirmation, now);
        return 'sent';
      }
      const set = { tx_hash: answer.txHash, failure_reason: null };
      return (await move(db, row.id, inFlight, WITHDRAWAL_STATUS.completed, now, set))
        ? 'completed'
        : null;
    }
    case 'failed':
    case 'refused': {
      const untrusted = answer.state === 'refused' && answer.code === SIGNER_REFUSED;
      if (untrusted) deps.signerRefused?.('withdrawal');
      const reason =
        answer.state === 'failed' ? FAILED_ON_CHAIN : untrusted ? SIGNER_REFUSED : answer.reason;
      const set =
        answer.state === 'failed'
          ? { tx_hash: answer.txHash, failure_reason: reason }
          : { failure_reason: reason };
      return (await move(db, row.id, inFlight, WITHDRAWAL_STATUS.unsuccessful, now, set))
        ? 'failed'
        : null;
    }
    default:
      return null;
  }
}

/**
 * Records on a withdrawal in 3 the wait a person ends (held for the operator's approval), and
 * clears it when the signer answers otherwise; writes only a change.
 */
async function noteWait(
  db: Db,
  row: { id: string; waiting_reason: string | null; waiting_message: string | null },
  answer: SignerAnswer,
): Promise<void> {
  const held = answer.state === 'waiting' && answer.code === HELD_FOR_APPROVAL ? answer : null;
  const code = held?.code ?? null;
  const message = held?.reason ?? null;
  if (row.waiting_reason === code && row.waiting_message === message) return;
  await db
    .updateTable('send_transactions')
    .set({ waiting_reason: code, waiting_message: message })
    .where('id', '=', row.id)
    .where('status', '=', WITHDRAWAL_STATUS.processing)
    .execute();
}

function move(
  db: Db,
  id: string,
  from: readonly SendStatus[],
  to: SendStatus,
  now: Date,
  set?: { tx_hash?: string | null; failure_reason?: string | null },
  event?: 'withdrawal.reorged',
): Promise<boolean> {
  return db.transaction().execute((trx) => moveWithdrawal(trx, { id, from, to, set, now, event }));
}
