import type { CurrentSubscription, Package, SubscriptionRow } from '../../api/subscriptions';
import type { StatusNames } from '../../components/StatusBadge';

/** A purchase's status: 0 Expired, 1 Active, 2 Canceled. */
export const SUBSCRIPTION_STATUS: StatusNames<SubscriptionRow['status']> = {
  0: { label: 'Expired', bg: 'secondary' },
  1: { label: 'Active', bg: 'success' },
  2: { label: 'Canceled', bg: 'danger' },
};

/** What a plan card's button does, relative to the subscription in force. */
export type PlanAction = 'choose' | 'upgrade' | 'downgrade' | 'cancel';

export const PLAN_ACTION_LABEL: Record<PlanAction, string> = {
  choose: 'Choose Plan',
  upgrade: 'Upgrade Plan',
  downgrade: 'Downgrade Plan',
  cancel: 'Cancel Subscription',
};

export const NO_PLAN_SELECTED = 'Please select your plan first';

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
