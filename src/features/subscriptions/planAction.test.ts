import { BUSINESS, ENTERPRISE, makeCurrent, STARTER } from '../../../test/factories/subscriptions';
import { t } from '../../i18n/i18n';
import { isCurrentPlan, PLAN_ACTION_LABEL, planAction } from './planAction';

describe('the plan button rule', () => {
  const active = makeCurrent({ package_id: BUSINESS.id, price: BUSINESS.price, status: 1 });
  const canceled = makeCurrent({ package_id: BUSINESS.id, price: BUSINESS.price, status: 2 });

  test.each([
    ['no subscription, cheaper', STARTER.price, null, 'Choose Plan'],
    ['no subscription, same', BUSINESS.price, null, 'Choose Plan'],
    ['no subscription, dearer', ENTERPRISE.price, null, 'Choose Plan'],
    ['canceled, cheaper', STARTER.price, canceled, 'Choose Plan'],
    ['canceled, same price', BUSINESS.price, canceled, 'Choose Plan'],
    ['canceled, dearer', ENTERPRISE.price, canceled, 'Choose Plan'],
    ['active, same price', BUSINESS.price, active, 'Cancel Subscription'],
    ['active, higher price', ENTERPRISE.price, active, 'Upgrade Plan'],
    ['active, lower price', STARTER.price, active, 'Downgrade Plan'],
  ])('%s: %s', (_case, price, current, label) => {
    expect(t(PLAN_ACTION_LABEL[planAction(price, current)])).toBe(label);
  });

  test('another package at the active price also offers Cancel Subscription', () => {
    expect(planAction(49, active)).toBe('cancel');
  });

  test('Current Plan marks the subscribed package only while it is not canceled', () => {
    expect(isCurrentPlan(BUSINESS, active)).toBe(true);
    expect(isCurrentPlan(STARTER, active)).toBe(false);
    expect(isCurrentPlan(BUSINESS, canceled)).toBe(false);
    expect(isCurrentPlan(BUSINESS, null)).toBe(false);
  });
});
