import { getAddress, isAddress, type Hex } from 'viem';
import { NATIVE_TRANSFER_GAS, TOKEN_TRANSFER_GAS } from '../../domain/chain/sender';
import { addressKey } from '../../domain/chain/specChains';
import { GAS_BRANCH } from '../../domain/payments/gasProvisioner';
import type { SignerAnswer } from '../client/protocol';
import { refundRequest, verifyRequestMac, withdrawalRequest } from '../client/requestMac';
import { refuse, type SignerDeps } from './deps';
import type { TxPipeline } from './pipeline';
import type { DailyCaps } from './limits';
import type { RefundCap } from './refund';
import type { Refusals } from './refusals';

// Withdrawals: the row's MAC is checked first (the web process made it when it accepted the
// withdrawal: an edited or inserted row has none that matches, and is refused as untrusted), then
// the row is re-checked (status 3, the method's switch, the wallet's funds) and the signer's own
// store asked about the app (a whitelist registered and not empty; no change of it, or of a
// payout address, still held: the withdrawal waits) and the app's daily cap (limits.ts: beyond it
// the withdrawal waits for the operator's approval) before the pipeline signs it.

export class WithdrawalSigner {
  constructor(
    private readonly deps: SignerDeps,
    private readonly pipeline: TxPipeline,
    private readonly refusals: Refusals,
    private readonly caps: DailyCaps,
    private readonly refundCap: RefundCap,
  ) {}

  async send(withdrawalId: string): Promise<SignerAnswer> {
    const db = this.deps.db;
    const w = await db
      .selectFrom('send_transactions')
      .innerJoin('payment_methods', 'payment_methods.id', 'send_transactions.payment_method_id')
      .innerJoin('apps', 'apps.id', 'send_transactions.app_id')
      .leftJoin('refunds', 'refunds.id', 'send_transactions.refund_id')
      .innerJoin('app_payment_methods', (join) =>
        join
          .onRef('app_payment_methods.app_id', '=', 'send_transactions.app_id')
          .onRef(
            'app_payment_methods.payment_method_id',
            '=',
            'send_transactions.payment_method_id',
          ),
      )
      .select([
        'send_transactions.id',
        'send_transactions.app_id',
        'send_transactions.payment_method_id',
        'send_transactions.unique_id',
        'send_transactions.request_mac',
        'send_transactions.status',
        'send_transactions.to_address',
        'send_transactions.amount_raw',
        'send_transactions.from_address',
        'send_transactions.signed_tx',
        'send_transactions.nonce',
        'send_transactions.refund_id',
        'refunds.invoice_id',
        'refunds.paid_to',
        'payment_methods.network_type',
        'payment_methods.chain_id',
        'payment_methods.is_token',
        'payment_methods.token_contract_address',
        'payment_methods.decimals',
        'payment_methods.code',
        'app_payment_methods.withdraw_status',
        'app_payment_methods.gas_address',
        'app_payment_methods.gas_index',
      ])
      .where('send_transactions.id', '=', withdrawalId)
      .executeTakeFirst();
    if (!w) return refuse(`No withdrawal ${withdrawalId}.`);
    // A refund's send is MACed as the refund (its invoice and the address it was paid to too).
    const refund =
      w.refund_id === null
        ? null
        : { id: w.refund_id, invoiceId: w.invoice_id ?? '', paidTo: w.paid_to ?? '' };
    const what = refund === null ? 'Withdrawal' : 'Refund';
    const request = refund
      ? refundRequest({
          id: refund.id,
          app_id: w.app_id,
          payment_method_id: w.payment_method_id,
          from_address: w.from_address ?? '',
          address: w.to_address,
          amount_raw: w.amount_raw ?? '',
          invoice_id: refund.invoiceId,
          paid_to: refund.paidTo,
        })
      : withdrawalRequest(w);
    if (!verifyRequestMac(this.deps.requestKey, request, w.request_mac)) {
      return this.refusals.refuse({
        request: refund ? 'refund' : 'withdrawal',
        refId: w.id,
        appId: w.app_id,
        reason:
          w.request_mac === null
            ? `${what} ${w.id} carries no MAC: the gateway never accepted it.`
            : `${what} ${w.id} does not match its MAC: its destination, amount, invoice or owner was changed after the gateway accepted it.`,
      });
    }
    if (w.network_type !== 'EVM')
      return refuse('Withdrawals are not supported on this network yet.');
    if (!w.gas_address || w.gas_index === null) {
      return refuse('The operational wallet is not provisioned yet.');
    }
    const chainId = w.chain_id;
    const sender = this.deps.senderFor(chainId);
    // A completed one is asked about until it is final: a reorg may have taken its block.
    await this.pipeline.recheckMined(sender, w.id, ['withdrawal']);
    // Mined and still there: done, whatever else the wallet has in flight (which would otherwise
    // answer `waiting`, and keep a busy wallet's completed withdrawals from being found final).
    const own = await this.pipeline.rows(w.id, 'withdrawal');
    const minedNow = own.find((r) => r.status === 'mined');
    if (minedNow && !own.some((r) => r.status === 'pending')) {
      return { state: 'done', txHash: minedNow.tx_hash };
    }
    // Only once: a transaction signed for its current attempt is followed, never signed anew.
    // A revert is the current attempt's while the row still holds that attempt's nonce (a
    // Re-initiate after a revert clears it).
    const followed = await this.pipeline.follow(
      sender,
      chainId,
      w.gas_address,
      ['withdrawal'],
      w.id,
      (row) => w.signed_tx !== null && w.nonce !== null && row.nonce === Number(w.nonce),
    );
    if (followed) return followed;
    const rows = await this.pipeline.rows(w.id, 'withdrawal');
    const mined = rows.find((r) => r.status === 'mined');
    if (mined) return { state: 'done', txHash: mined.tx_hash };
    // Its own record, not the shared database's, says whether it was paid: a row set back and
    // its transactions deleted there is not paid twice.
    for (const hash of this.deps.store.signedHashes(w.id, 'withdrawal')) {
      if ((await sender.receipt(hash as Hex))?.success) return { state: 'done', txHash: hash };
    }
    // Here nothing of it can be mined: no transaction signed, or the node rejected the one
    // signed (never broadcast), so a new one replaces it on the row.
    if (w.status !== 3) return refuse(`Withdrawal ${w.id} is in status ${w.status}, not 3.`);
    if (w.amount_raw === null) return refuse(`Withdrawal ${w.id} has no exact amount.`);
    // The For Withdraw switch is the withdrawals API's; a refund answers to refunds:write.
    if (refund === null && w.withdraw_status !== 1) {
      return refuse('Withdrawals of this method are switched off.');
    }
    // A refund goes where the shopper or the merchant said, within what was paid (refund.ts):
    // the whitelist and its hold guard the merchant's own payouts, not it.
    const app =
      refund === null
        ? this.deps.store.withdrawalHold(w.app_id, this.deps.clock().getTime())
        : { registered: true, empty: false, until: null };
    if (!app.registered) {
      return {
        state: 'waiting',
        reason: "The app's IP whitelist is not registered with the signer yet.",
      };
    }
    if (app.empty) return refuse('The app has no IP whitelist: withdrawals need one.');
    if (app.until !== null) {
      return {
        state: 'waiting',
        reason: `The app's settings changed: withdrawals are held until ${new Date(app.until).toISOString()}.`,
      };
    }
    if (!isAddress(w.to_address, { strict: false })) {
      return refuse(`${w.to_address} is not an address of this network.`);
    }
    if (w.from_address !== null && addressKey(w.from_address) !== addressKey(w.gas_address)) {
      return refuse(`Withdrawal ${w.id} was reserved in another wallet than ${w.gas_address}.`);
    }
    const token =
      w.is_token === 1 && w.token_contract_address
        ? this.pipeline.tokenOnChain(sender, w.token_contract_address)
        : null;
    const amount = BigInt(w.amount_raw);
    const price = await sender.gasPrice();
    const cost = (token === null ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS) * price;
    const native = await sender.balance(w.gas_address, null);
    const held = token === null ? native - cost : await sender.balance(w.gas_address, token);
    if (held < amount) {
      return refuse(
        `The operational wallet ${w.gas_address} holds ${held < 0n ? 0n : held} base units of ${w.code}, less than the ${amount} to send.`,
      );
    }
    if (native < cost + (token === null ? amount : 0n)) {
      return refuse(
        `The operational wallet ${w.gas_address} lacks the network fee: it holds ${native} wei of the native coin, the transfer costs up to ${cost} wei. Fund it, then Re-initiate.`,
      );
    }
    if (refund) {
      const over = await this.refundCap.check({
        sendId: w.id,
        refundId: refund.id,
        appId: w.app_id,
        invoiceId: refund.invoiceId,
        paymentMethodId: w.payment_method_id,
        chainId,
        paidTo: refund.paidTo,
        token,
        amount,
      });
      if (over) return over;
    }
    const capped = await this.caps.check({
      kind: 'withdrawal',
      refId: w.id,
      appId: w.app_id,
      paymentMethodId: w.payment_method_id,
      code: w.code ?? w.payment_method_id,
      destination: w.to_address,
      amount,
    });
    if (capped) return capped;
    return this.pipeline.sign(
      sender,
      {
        purpose: 'withdrawal',
        refId: w.id,
        appId: w.app_id,
        paymentMethodId: w.payment_method_id,
        chainId,
        keyPath: `${GAS_BRANCH}/0/${w.gas_index}`,
        from: w.gas_address,
        to: getAddress(w.to_address),
        token,
        amount,
        reason: `withdrawal ${w.id} of app ${w.app_id}`,
      },
      undefined,
      w.signed_tx,
    );
  }
}
