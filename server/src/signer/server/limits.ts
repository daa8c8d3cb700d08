import { newId } from '../../domain/ids';
import { unitsToDecimal } from '../../domain/money';
import { HELD_FOR_APPROVAL, type SignerAnswer } from '../client/protocol';
import { NO_PLAN } from '../client/requestMac';
import { methodDecimals, planCap } from './caps';
import { refuse, type SignerDeps } from './deps';
import type { Refusals } from './refusals';

// The limit the web process cannot lift: per app and method, what the signer signs in money out
// over the last 24 hours (its own record, store.ts) plus the request may not pass the app's cap
// (the operator's, else its plan's: caps.ts). Beyond it the request waits, held for the
// operator's approval, who is told once along with the merchant; `npm run signer -- approve <id>`
// lets that one request through, `reject <id>` refuses it. A compromised web process drains at
// most one cap's worth a day before people are told.

const DAY_MS = 86_400_000;

export interface MoneyOutRequest {
  kind: 'withdrawal' | 'refund';
  refId: string;
  appId: string;
  paymentMethodId: string;
  /** The method's code, for messages. */
  code: string;
  destination: string;
  amount: bigint;
}

export class DailyCaps {
  constructor(
    private readonly deps: SignerDeps,
    private readonly refusals: Refusals,
  ) {}

  /** The app's cap of a method now, in base units. */
  capOf(appId: string, paymentMethodId: string, now: number): bigint {
    const { store } = this.deps;
    return (
      store.operatorCap(appId, paymentMethodId) ??
      planCap(store.plan(appId, now) ?? NO_PLAN, paymentMethodId)
    );
  }

  /** null: within the cap, or approved; otherwise the answer (held for approval, or rejected). */
  async check(r: MoneyOutRequest): Promise<SignerAnswer | null> {
    const { store } = this.deps;
    const known = store.approvalOf(r.refId);
    if (known?.state === 'approved') return null;
    if (known?.state === 'rejected') {
      return refuse(
        `The operator rejected ${r.kind} ${r.refId} (${known.id}), held beyond the app's daily cap.`,
      );
    }
    const now = this.deps.clock().getTime();
    const cap = this.capOf(r.appId, r.paymentMethodId, now);
    const sent = store.moneyOutSince(r.appId, r.paymentMethodId, now - DAY_MS, r.refId);
    if (sent + r.amount <= cap) return null;
    const { approval, created } = store.requestApproval(
      {
        id: newId('apr'),
        kind: r.kind,
        refId: r.refId,
        appId: r.appId,
        paymentMethodId: r.paymentMethodId,
        amountRaw: r.amount.toString(),
        destination: r.destination,
      },
      now,
    );
    const decimals = methodDecimals(r.paymentMethodId) ?? 0;
    const show = (raw: bigint) => `${unitsToDecimal(raw, decimals)} ${r.code}`;
    const reason =
      `Beyond the app's daily cap of ${show(cap)} (${show(sent)} sent in the last 24 hours): ` +
      `this ${r.kind} of ${show(r.amount)} waits for the gateway operator's approval (${approval.id}).`;
    if (created) {
      this.deps.log({
        level: 'warn',
        msg: 'held for approval',
        ref: r.refId,
        approval: approval.id,
      });
      await this.refusals.mail(
        r.appId,
        `Approval needed: ${r.kind} ${r.refId} is beyond the daily cap`,
        [
          `The ${r.kind} ${r.refId} of app ${r.appId}, ${show(r.amount)} to ${r.destination}, is held:`,
          reason,
          '',
          `On the signer's host: npm run signer -- approve ${approval.id}  (or reject ${approval.id}).`,
          'If the merchant did not ask for it, reject it and look at the web server first.',
        ].join('\n'),
      );
    }
    return { state: 'waiting', code: HELD_FOR_APPROVAL, reason };
  }
}
