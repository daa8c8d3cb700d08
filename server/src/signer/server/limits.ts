import { newId } from '../../domain/ids';
import { unitsToDecimal } from '../../domain/money';
import { HELD_FOR_APPROVAL, type SignerAnswer } from '../client/protocol';
import { NO_PLAN } from '../client/requestMac';
import { methodDecimals, planCap } from './caps';
import { refuse, type SignerDeps } from './deps';
import type { Refusals } from './refusals';
import type { Approval } from './store';

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

  /** null: within the cap, or approved; otherwise the answer (held for approval, or refused). */
  async check(r: MoneyOutRequest): Promise<SignerAnswer | null> {
    const { store } = this.deps;
    const now = this.deps.clock().getTime();
    const known = store.approvalOf(r.refId);
    if (known?.state === 'pending' && known.expiresAt <= now) {
      store.expireApproval(known.id, now);
      known.state = 'expired';
    }
    if (known && known.state !== 'pending') {
      await this.tellOutcome(known, r);
      if (known.state === 'approved') return null;
      return refuse(
        known.state === 'rejected'
          ? `The operator rejected ${r.kind} ${r.refId} (${known.id}), held beyond the app's daily cap.`
          : `The ${r.kind} ${r.refId}, held beyond the app's daily cap, was not approved by ${new Date(known.expiresAt).toISOString()} (${known.id}): the signer refuses it.`,
      );
    }
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
      now + this.deps.settings.signerApprovalHours * 3_600_000,
    );
    const reason =
      `Beyond the app's daily cap of ${this.show(r, cap)} (${this.show(r, sent)} sent in the last 24 hours): ` +
      `this ${r.kind} of ${this.show(r, r.amount)} waits for the gateway operator's approval (${approval.id}).`;
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
          `The ${r.kind} ${r.refId} of app ${r.appId}, ${this.show(r, r.amount)} to ${r.destination}, is held:`,
          reason,
          '',
          `On the signer's host: npm run signer -- approve ${approval.id}  (or reject ${approval.id}).`,
          `Unanswered by ${new Date(approval.expiresAt).toISOString()}, the signer refuses it.`,
          'If the merchant did not ask for it, reject it and look at the web server first.',
        ].join('\n'),
      );
    }
    return { state: 'waiting', code: HELD_FOR_APPROVAL, reason };
  }

  private show(r: MoneyOutRequest, raw: bigint): string {
    return `${unitsToDecimal(raw, methodDecimals(r.paymentMethodId) ?? 0)} ${r.code}`;
  }

  /**
   * Tells the merchant and the operator, once, what became of a request held for approval: the
   * operator decides on the signer's host, and the signer says so as the request next comes by.
   */
  private async tellOutcome(approval: Approval, r: MoneyOutRequest): Promise<void> {
    const now = this.deps.clock().getTime();
    if (approval.notifiedAt !== null || !this.deps.store.markNotified(approval.id, now)) return;
    const what = `The ${r.kind} ${r.refId} of app ${r.appId}, ${this.show(r, r.amount)} to ${r.destination}`;
    const [subject, outcome] =
      approval.state === 'approved'
        ? [
            `Approved: ${r.kind} ${r.refId} goes out`,
            "was approved by the gateway's operator beyond the app's daily cap: the signer sends it now.",
          ]
        : approval.state === 'rejected'
          ? [
              `Rejected: ${r.kind} ${r.refId} was not sent`,
              "was rejected by the gateway's operator: the signer refused it and sent nothing.",
            ]
          : [
              `Expired: ${r.kind} ${r.refId} was not sent`,
              `had no decision from the gateway's operator by ${new Date(approval.expiresAt).toISOString()}: the signer refused it and sent nothing.`,
            ];
    await this.refusals.mail(
      r.appId,
      subject,
      [
        `${what}, held beyond the daily cap (${approval.id}), ${outcome}`,
        '',
        approval.state === 'approved'
          ? 'Nothing for you to do.'
          : approval.state === 'rejected'
            ? "If you asked for it, ask the gateway's operator why. If you did not, someone else did: rotate the app's API keys."
            : "If it is still due, ask for it again, or ask the gateway's operator to raise the app's daily cap.",
      ].join('\n'),
    );
  }
}
