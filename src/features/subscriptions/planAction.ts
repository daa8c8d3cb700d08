import type { CurrentSubscription, Package, SubscriptionRow } from '../../api/subscriptions';
import type { StatusNames } from '../../components/StatusBadge';
import type { MessageKey, Translate } from '../../i18n/i18n';

/** A purchase's status: 0 Expired, 1 Active, 2 Canceled. */
export const subscriptionStatus = (t: Translate): StatusNames<SubscriptionRow['status']> => ({
  0: { label: t('subStatus.expired'), bg: 'secondary' },
  1: { label: t('subStatus.active'), bg: 'success' },
  2: { label: t('subStatus.canceled'), bg: 'danger' },
});

/** What a plan card's button does, relative to the subscription in force. */
export type PlanAction = 'choose' | 'upgrade' | 'downgrade' | 'cancel';

/** 'Choose Plan', 'Upgrade Plan', 'Downgrade Plan', 'Cancel Subscription'. */
export const PLAN_ACTION_LABEL: Record<PlanAction, MessageKey> = {
  choose: 'plans.choose',
  upgrade: 'plans.upgrade',
  downgrade: 'plans.downgrade',
  cancel: 'plans.cancel',
};

/**
 * The plan button: with no subscription or a canceled one, every plan is 'Choose Plan';
 * otherwise by price against the active plan: same price 'Cancel Subscription', higher
 * 'Upgrade Plan', lower 'Downgrade Plan'.
 */
export function planAction(price: number, current: CurrentSubscription | null): PlanAction {
  if (!current || current.status === 2) return 'choose';
  if (price === current.price) return 'cancel';
  return price > current.price ? 'upgrade' : 'downgrade';
}

/** 'Current Plan' marks the subscribed package, and only while it is not canceled. */
export function isCurrentPlan(plan: Package, current: CurrentSubscription | null): boolean {
  return current !== null && current.status !== 2 && current.package_id === plan.id;
}
