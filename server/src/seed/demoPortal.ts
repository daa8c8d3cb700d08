import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connection';
import { findDemoUserId } from './demoUser';
import { recomputeKycStatus } from '../domain/account/kyc';
import { postEntry } from '../domain/billing/ledger';
import { decimalToMicro, storedMicro } from '../domain/money';
import type { Clock } from '../domain/time';
import { DEMO_ASSETS_DIR } from '../domain/account/uploads';

// The demo merchant's wallet ledger and identity verification, so the dashboard's Recent
// Activity, the balance card and the KYC screen show real rows on first start: three confirmed
// USDT deposits (credited to the ledger, as the wallet sync would), and a PAN card scan an
// operator rejected, so the section shows its remarks and accepts a new upload. Times are
// relative to the clock; created once, never overwritten.

const HOUR = 3_600_000;
/** Shipped in server/assets/demo (DEMO_ASSETS_DIR): the seed has no file store to write to. */
export const DEMO_SCAN = 'demo-pan-card-front.png';

const DEPOSITS = [
  { label: 'demo-deposit-1', amount: '250', hoursAgo: 26 * 24 },
  { label: 'demo-deposit-2', amount: '120.5', hoursAgo: 9 * 24 + 5 },
  { label: 'demo-deposit-3', amount: '75.25', hoursAgo: 30 },
] as const;

const txHash = (label: string) => `0x${createHash('sha256').update(label).digest('hex')}`;

export async function seedDemoPortal(db: Db, clock: Clock): Promise<void> {
  const userId = await findDemoUserId(db);
  if (!userId) return;
  const now = clock().getTime();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();

  const [entry, upload] = await Promise.all([
    db.selectFrom('ledger_entries').select('id').where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('kyc_uploads').select('id').where('user_id', '=', userId).executeTakeFirst(),
  ]);

  await db.transaction().execute(async (trx) => {
    if (!entry) {
      for (const [i, deposit] of DEPOSITS.entries()) {
        const hash = txHash(deposit.label);
        const amountMicro = decimalToMicro(deposit.amount);
        await trx
          .insertInto('deposits')
          .values({
            id: `dep_demo_wallet_${i + 1}`,
            user_id: userId,
            tx_hash: hash,
            log_index: 0,
            amount_micro: storedMicro(amountMicro),
            status: 1,
            created_at: at(deposit.hoursAgo),
          })
          .execute();
        await postEntry(trx, {
          userId: userId,
          tnx: hash,
          amountMicro,
          type: 'credit',
          source: 'deposit',
          note: 'USDT (BEP20) deposit',
          createdAt: at(deposit.hoursAgo),
        });
      }
    }
    if (!upload) {
      const scan = path.join(DEMO_ASSETS_DIR, DEMO_SCAN);
      await trx
        .insertInto('files')
        .values({
          name: DEMO_SCAN,
          user_id: userId,
          kind: 'kyc',
          mime: 'image/png',
          size: existsSync(scan) ? statSync(scan).size : 0,
          created_at: at(50),
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .insertInto('kyc_uploads')
        .values({
          id: 'upl_demo_pan',
          user_id: userId,
          document_type_id: 'dt_pan',
          document_name: 'PAN Card',
          document_number: 'ABCDE1234F',
          front: DEMO_SCAN,
          back: null,
          status: 2,
          remarks: 'The scan is blurred; please upload a sharper picture.',
          created_at: at(50),
          reviewed_at: at(48),
        })
        .execute();
      await recomputeKycStatus(trx, userId);
    }
  });
}
