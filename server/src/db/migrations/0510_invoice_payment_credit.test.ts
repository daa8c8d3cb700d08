import { parseUnits } from 'viem';
import type { Kysely } from 'kysely';
import { addUser } from '../../../test/accounts';
import { insertApp, insertAppMethod, insertSubscription } from '../../../test/appRows';
import { testAppPerBlock } from '../../../test/withTestApp';
import { chainAdapterFor } from '../../domain/chain';
import { mineLocalBlocks, recordLocalChainTransfer } from '../../domain/chain/localAdapter';
import { specUsdt } from '../../domain/chain/specChains';
import { resolveWalletXpub } from '../../domain/chain/walletKey';
import { createInvoice } from '../../domain/invoices/invoices';
import { watchDeposits } from '../../domain/payments/deposits';
import { RateBook } from '../../domain/rates/rates';
import { markSettledCredits } from './0510_invoice_payment_credit';

// Migration 0510 on rows already there: the payments a settled invoice's credit took are marked
// taken by it; an unsettled invoice's, and a payment it did not offer, stay for a refund's credit.

describe('migration 0510: which credit took each invoice payment', () => {
  const t = testAppPerBlock();

  it('marks a settled invoice’s counted payments with its credit, and nothing else', async () => {
    const userId = await addUser(t, 'm0510_owner');
    await insertSubscription(t, userId);
    await insertApp(t, { id: 'app_m0510', user_id: userId, created_at: t.clock().toISOString() });
    await insertAppMethod(t, { id: 'apm_m0510', app_id: 'app_m0510' });
    const chain = chainAdapterFor(t.config, t.db, 56);
    const invoiceOf = async () =>
      (
        await createInvoice(
          t.db,
          new RateBook({ db: t.db, config: t.config }),
          resolveWalletXpub(t.config),
          {
            appId: 'app_m0510',
            amount: '50.00',
            currency: 'USD',
            checkoutOrigin: 'https://pay.example.com',
            now: t.clock(),
            tokenOnChain: (_chainId, listed) => chain.tokenContract(listed),
          },
        )
      ).payment_options[0]?.address ?? '';
    const pay = (chainId: 1 | 56, to: string, amount: bigint) =>
      recordLocalChainTransfer(t.db, {
        chainId,
        token: chainAdapterFor(t.config, t.db, chainId).tokenContract(
          specUsdt(chainId)?.contract ?? '',
        ),
        to,
        amount,
        createdAt: t.clock().toISOString(),
      });
    const settled = await invoiceOf();
    const partial = await invoiceOf();
    await pay(56, settled, parseUnits('50', 18));
    await pay(56, partial, parseUnits('20', 18));
    await pay(1, settled, parseUnits('3', 6)); // flagged, not accepted
    await mineLocalBlocks(t.db, 20);
    await mineLocalBlocks(t.db, 20, 1);
    for (const chainId of [56, 1, 56, 1] as const) {
      await watchDeposits(t.db, chainAdapterFor(t.config, t.db, chainId), t.clock());
    }
    // One order for both sides: the engines' collations order mixed-case addresses differently.
    const inOrder = (a: { address: string; chain_id: number }, b: typeof a) =>
      a.address.localeCompare(b.address) || a.chain_id - b.chain_id;
    const marks = async () =>
      (
        await t.db
          .selectFrom('invoice_payments as p')
          .innerJoin('invoice_payment_options as o', (j) =>
            j.onRef('o.invoice_id', '=', 'p.invoice_id').on('o.chain_id', '=', 56),
          )
          .select(['o.address', 'p.chain_id', 'p.credit_id'])
          .where('p.app_id', '=', 'app_m0510')
          .execute()
      ).sort(inOrder);
    const credit = await t.db
      .selectFrom('receive_transactions')
      .select('id')
      .where('address', '=', settled)
      .executeTakeFirstOrThrow();
    const expected = [
      { address: settled, chain_id: 1, credit_id: null },
      { address: settled, chain_id: 56, credit_id: credit.id },
      { address: partial, chain_id: 56, credit_id: null },
    ].sort(inOrder);
    // As the settlement wrote them, and as the migration finds them from the credits alone.
    expect(await marks()).toEqual(expected);
    await t.db
      .updateTable('invoice_payments')
      .set({ credit_id: null })
      .where('app_id', '=', 'app_m0510')
      .execute();
    await markSettledCredits(t.db as unknown as Kysely<unknown>);
    expect(await marks()).toEqual(expected);
  });
});
