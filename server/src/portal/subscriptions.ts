import { microToDecimal, microToString } from '../domain/money';
import { pageEnvelope } from '../../../src/shared/paging';
import {
  cancelSubscription,
  currentSubscription,
  HISTORY_PER_PAGE,
  listActivePackages,
  listPurchases,
  purchasePackage,
  quotePurchase,
  type PurchaseKind,
} from '../domain/billing/subscriptions';
import { idempotent } from '../domain/payments/idempotency';
import { conflict, fieldError, HttpError, notFound } from '../http/errors';
import { requireUser } from '../http/requestContext';
import { done } from './replies';
import type { HandlerModule, Reply, Schemas } from '../http/operationTypes';
import { DOWNGRADE_REASON_REQUIRED } from '../../../src/shared/money';
import { codedMessages } from '../domain/messageCodes';

export const DOWNGRADE_REASON_MESSAGE = DOWNGRADE_REASON_REQUIRED;

/** What the packages' purchase and the subscriptions' Cancel answer. */
const SUBSCRIPTION_REPLIES = codedMessages('subscriptionReplies', {
  purchased: 'Package purchased successfully',
  upgraded: 'Plan upgraded successfully',
  downgraded: 'Plan downgraded successfully',
  changed: 'Plan changed successfully',
  unknownPlan: 'The selected plan does not exist.',
  alreadySubscribed: 'You are already subscribed to this plan.',
  amountChanged: (due: string) =>
    `The amount due is now ${due} USDT. Please review it and pay again; nothing was charged.`,
  insufficientBalance: (plan: string, due: string, balance: string) =>
    `Insufficient balance: the ${plan} plan costs ${due} USDT now and your wallet holds ${balance} USDT. Please deposit USDT first.`,
  notFound: 'Subscription not found.',
  ended: 'This subscription has already ended.',
  alreadyCanceled: 'This subscription is already canceled.',
  canceled: 'Subscription canceled successfully',
} as const);

const PURCHASED: Record<PurchaseKind, string> = {
  new: SUBSCRIPTION_REPLIES.purchased,
  upgrade: SUBSCRIPTION_REPLIES.upgraded,
  downgrade: SUBSCRIPTION_REPLIES.downgraded,
  switch: SUBSCRIPTION_REPLIES.changed,
};

function purchaseRefusal(reason: 'unknown_package' | 'already_active'): HttpError {
  return reason === 'unknown_package'
    ? fieldError('package_id', SUBSCRIPTION_REPLIES.unknownPlan)
    : conflict(SUBSCRIPTION_REPLIES.alreadySubscribed);
}

// Operations tagged Subscriptions in openapi.yaml, keyed by operationId.
export const subscriptionsHandlers: HandlerModule = (ctx) => ({
  async listSubscriptions(request) {
    const user = requireUser(request);
    const page = request.query.page ?? 1;
    const { total, rows } = await listPurchases(ctx.db, user.id, page, ctx.clock().toISOString());
    return {
      status: true,
      data: pageEnvelope(
        rows.map((row): Schemas['SubscriptionRow'] => ({
          id: row.id,
          package: row.package,
          duration_days: row.durationDays,
          price: microToDecimal(BigInt(row.price_micro)),
          paid: microToDecimal(BigInt(row.paid_micro)),
          invoice_id: row.invoice_id,
          status: row.status,
          replaced_by: row.replaced_kind,
          credit: microToDecimal(BigInt(row.credit_micro)),
          created_at: row.created_at,
          name: row.name,
          username: row.username,
        })),
        total,
        page,
        HISTORY_PER_PAGE,
        // The route's own URL (with the /api prefix), so the path is not restated here.
        `${request.routeOptions.url}?page=1`,
      ),
    } satisfies Reply<'listSubscriptions'>;
  },

  async listPackages(request) {
    const user = requireUser(request);
    const packages = await listActivePackages(ctx.db);
    const current = await currentSubscription(ctx.db, user.id, ctx.clock().toISOString());
    return {
      status: true,
      data: packages.map((pkg): Schemas['Package'] => ({
        id: pkg.id,
        name: pkg.name,
        price: microToDecimal(BigInt(pkg.price_micro)),
        duration_days: pkg.duration_days,
        fees: pkg.fees,
        tnx_limit: pkg.tnx_limit,
        daily_tnx_limit: pkg.daily_tnx_limit,
        app_count: pkg.app_count,
      })),
      current_subscription: current
        ? {
            id: current.id,
            package_id: current.package_id,
            price: microToDecimal(BigInt(current.price_micro)),
            status: current.status,
            end_date: current.end_date,
          }
        : null,
    } satisfies Reply<'listPackages'>;
  },

  async getPurchaseQuote(request) {
    const user = requireUser(request);
    const outcome = await quotePurchase(ctx.db, {
      userId: user.id,
      packageId: request.query.package_id,
      now: ctx.clock(),
    });
    if (!outcome.ok) throw purchaseRefusal(outcome.reason);
    const { change, balanceMicro } = outcome;
    return {
      status: true,
      data: {
        package_id: request.query.package_id,
        kind: change.kind,
        price: microToDecimal(change.priceMicro),
        credit: microToDecimal(change.creditMicro),
        unused_days: change.unusedDays,
        replaced_package: change.replacedName,
        amount_due: microToDecimal(change.dueMicro),
        refund: microToDecimal(change.refundMicro),
        balance: microToDecimal(balanceMicro > 0n ? balanceMicro : 0n),
        payable: balanceMicro >= change.dueMicro,
      },
    } satisfies Reply<'getPurchaseQuote'>;
  },

  async purchasePackage(request) {
    const user = requireUser(request);
    const buy = async () => {
      const outcome = await purchasePackage(ctx.db, {
        userId: user.id,
        packageId: request.body.package_id,
        remarks: request.body.remarks,
        amountDue: request.body.amount_due,
        now: ctx.clock(),
        sign: ctx.sign,
      });
      if (outcome.ok) {
        return {
          status: 200,
          body: { status: true, msg: PURCHASED[outcome.kind] } satisfies Reply<'purchasePackage'>,
        };
      }
      switch (outcome.reason) {
        case 'unknown_package':
        case 'already_active':
          throw purchaseRefusal(outcome.reason);
        case 'remarks_required':
          throw fieldError('remarks', DOWNGRADE_REASON_MESSAGE);
        case 'amount_changed':
          throw conflict(SUBSCRIPTION_REPLIES.amountChanged(microToString(outcome.dueMicro, 2)));
        case 'insufficient_balance':
          throw new HttpError(
            422,
            SUBSCRIPTION_REPLIES.insufficientBalance(
              outcome.packageName,
              microToString(outcome.dueMicro, 2),
              microToString(outcome.balanceMicro, 2),
            ),
          );
      }
    };
    // The contract's schema has refused a repeated header (an array) before this point.
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return (await buy()).body;
    const answer = await idempotent(
      ctx.db,
      { scope: `purchase:${user.id}`, key, request: request.body, now: ctx.clock().getTime() },
      buy,
    );
    return answer.body;
  },

  async cancelSubscription(request) {
    const user = requireUser(request);
    const outcome = await cancelSubscription(ctx.db, {
      userId: user.id,
      subscriptionId: request.params.id,
      nowIso: ctx.clock().toISOString(),
    });
    switch (outcome) {
      case 'not_found':
        throw notFound(SUBSCRIPTION_REPLIES.notFound);
      case 'ended':
        throw conflict(SUBSCRIPTION_REPLIES.ended);
      case 'already_canceled':
        throw conflict(SUBSCRIPTION_REPLIES.alreadyCanceled);
      case 'canceled':
        return done(SUBSCRIPTION_REPLIES.canceled) satisfies Reply<'cancelSubscription'>;
    }
  },
});
