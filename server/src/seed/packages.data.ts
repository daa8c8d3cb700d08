import type { Insertable } from 'kysely';
import type { PackagesTable } from '../db/schema';

// Subscription packages (spec: "prices, limits and fee values: not shown", so ours):
//   Starter     19 USDT / 30 days, fee 1.00 %,  1 000 tnx (100/day),      1 app
//   Business    49 USDT / 30 days, fee 0.75 %, 10 000 tnx (1 000/day),    5 apps
//   Enterprise 149 USDT / 30 days, fee 0.50 %, 100 000 tnx (10 000/day), 20 apps
// Prices are micro-USDT (10^-6).
export const PACKAGES: readonly Insertable<PackagesTable>[] = [
  {
    id: 'pkg_starter',
    name: 'Starter',
    price_micro: 19_000_000,
    duration_days: 30,
    fees: 1,
    tnx_limit: 1_000,
    daily_tnx_limit: 100,
    app_count: 1,
    sort_order: 1,
    is_active: 1,
  },
  {
    id: 'pkg_business',
    name: 'Business',
    price_micro: 49_000_000,
    duration_days: 30,
    fees: 0.75,
    tnx_limit: 10_000,
    daily_tnx_limit: 1_000,
    app_count: 5,
    sort_order: 2,
    is_active: 1,
  },
  {
    id: 'pkg_enterprise',
    name: 'Enterprise',
    price_micro: 149_000_000,
    duration_days: 30,
    fees: 0.5,
    tnx_limit: 100_000,
    daily_tnx_limit: 10_000,
    app_count: 20,
    sort_order: 3,
    is_active: 1,
  },
];
