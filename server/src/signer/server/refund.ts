import { ChainUnavailableError, type TransferRef } from '../../domain/chain/adapter';
import { deriveEvmAddress } from '../../domain/chain/hdWallet';
import { addressKey } from '../../domain/chain/specChains';
import { INVOICE_BRANCH } from '../../domain/invoices/invoices';
import type { SignerAnswer } from '../client/protocol';
import type { SignerDeps } from './deps';
import type { Refusals } from './refusals';

// A refund's cap, checked by the signer before it signs: the refunds it has signed against one
// invoice address, this one included, never total more than the chain shows was paid to that
// address. Nothing of it is taken from a row of the shared database alone:
// - the address must be the one the signer itself derives for the invoice (its index on the
//   invoice branch): a row pointed at some rich address of another owner counts nothing;
// - each payment the database lists is read again from the chain (its receipt's log, or the
//   transaction's value), and only what the chain shows went to that address in the method's
//   token counts, each transfer once: a payment edited upward, or invented, counts for what the
//   chain says, or nothing;
// - what was refunded already is the signer's own record of what it signed (store.ts
//   refund_sources and signed), per address, whichever invoice row named it.
// The web process's MAC (requestMac.ts) binds the refund's amount, destination, invoice and
// address, so a row edited after it was accepted fails before this check is reached.

export interface RefundToCheck {
  /** The send that pays it (its signatures are recorded under this id). */
  sendId: string;
  refundId: string;
  appId: string;
  invoiceId: string;
  paymentMethodId: string;
  chainId: number;
  /** The invoice address it gives payments back from. */
  paidTo: string;
  /** The method's token on the served chain, or null for the chain's coin. */
  token: string | null;
  amount: bigint;
}

export class RefundCap {
  constructor(
    private readonly deps: SignerDeps,
    private readonly refusals: Refusals,
  ) {}

  /** null when the chain shows enough was paid; otherwise the refusal, or a wait. */
  async check(r: RefundToCheck): Promise<SignerAnswer | null> {
    const refuse = (reason: string) =>
      this.refusals.refuse({ request: 'refund', refId: r.sendId, appId: r.appId, reason });
    const invoice = await this.deps.db
      .selectFrom('invoices')
      .select(['derivation_index'])
      .where('id', '=', r.invoiceId)
      .executeTakeFirst();
    if (!invoice)
      return refuse(`Refund ${r.refundId} names invoice ${r.invoiceId}, which does not exist.`);
    const derived = deriveEvmAddress(
      this.deps.account.publicExtendedKey,
      invoice.derivation_index,
      [INVOICE_BRANCH],
    );
    if (addressKey(derived) !== addressKey(r.paidTo)) {
      return refuse(
        `Refund ${r.refundId} gives back payments to ${r.paidTo}, which is not the address of invoice ${r.invoiceId} (${derived}).`,
      );
    }
    const payments = await this.deps.db
      .selectFrom('invoice_payments')
      .select(['tx_hash', 'log_index'])
      .where('invoice_id', '=', r.invoiceId)
      .where('payment_method_id', '=', r.paymentMethodId)
      .execute();
    const reader = this.deps.transfersFor(r.chainId);
    const counted = new Set<string>();
    let paid = 0n;
    try {
      for (const p of payments) {
        const key = `${p.tx_hash.toLowerCase()}:${p.log_index}`;
        if (counted.has(key)) continue;
        counted.add(key);
        const ref: TransferRef = { txHash: p.tx_hash, logIndex: p.log_index, token: r.token };
        const transfer = await reader.transferNow(ref);
        if (!transfer || addressKey(transfer.to) !== addressKey(r.paidTo)) continue;
        const sameAsset =
          r.token === null
            ? transfer.token === null
            : transfer.token !== null && addressKey(transfer.token) === addressKey(r.token);
        if (sameAsset) paid += transfer.amount;
      }
    } catch (error) {
      if (!(error instanceof ChainUnavailableError)) throw error;
      return {
        state: 'waiting',
        reason: `The chain could not be read to check the refund against what was paid: ${error.message}`,
      };
    }
    const before = this.deps.store.refundedFrom(r.chainId, r.paidTo, r.sendId);
    if (before + r.amount > paid) {
      return refuse(
        `Refund ${r.refundId} of ${r.amount} base units would bring the refunds of payments to ${r.paidTo} to ${before + r.amount}, more than the ${paid} the chain shows was paid there.`,
      );
    }
    this.deps.store.recordRefundSource(r.sendId, r.chainId, r.paidTo);
    return null;
  }
}
