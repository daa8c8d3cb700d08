import { createHash } from 'node:crypto';
import type { Db } from '../db/connection';
import { demoUserWithout } from './demoUser';
import type { DepositStatus, SendStatus } from '../db/schema';
import { tronAddressFromEvm } from '../domain/addresses';
import { newApiKey } from '../domain/apiKeys';
import { decimalToMicro, storedMicro } from '../domain/money';
import type { Clock } from '../domain/time';

// The demo merchant's app, so that every tab of the app detail screen shows data on first start:
// two payment methods in use (their operational wallets are provisioned by the gas job at
// start-up), an API key, generated accounts, deposits in every status 0-5, withdrawals in every
// status 0-7, API logs and two weeks of daily logs, enough rows to page through.
// Values are derived from a fixed seed so every fresh database looks the same; times are
// relative to the clock so the data always looks recent. Created once, never overwritten.

const DAY = 86_400_000;

/** Deterministic hex from a label (fake but well-formed hashes and addresses). */
function hex(label: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i += 1) {
    out += createHash('sha256').update(`${label}:${i}`).digest('hex');
  }
  return out.slice(0, bytes * 2);
}

const evmAddress = (label: string) => `0x${hex(label, 20)}`;
const tronAddress = (label: string) => tronAddressFromEvm(hex(label, 20));
const evmHash = (label: string) => `0x${hex(label, 32)}`;
const tronHash = (label: string) => hex(label, 32);

/** Small deterministic number in [0, 1) from a label. */
function unit(label: string): number {
  return parseInt(hex(label, 4), 16) / 2 ** 32;
}

interface DemoMethod {
  id: string;
  tron: boolean;
  /** Typical amount range of a payment in this coin. */
  min: number;
  max: number;
}

const USDT_BSC: DemoMethod = { id: 'pm_usdt_bsc', tron: false, min: 5, max: 480 };
const TRX: DemoMethod = { id: 'pm_trx', tron: true, min: 20, max: 3_000 };

function amount(label: string, method: DemoMethod): number {
  const value = method.min + unit(label) * (method.max - method.min);
  return storedMicro(decimalToMicro(value.toFixed(4)));
}

const DEPOSIT_STATUSES: readonly DepositStatus[] = [1, 1, 1, 0, 2, 3, 4, 5, 1, 5, 1, 2];
const SEND_STATUSES: readonly SendStatus[] = [1, 1, 0, 2, 3, 4, 5, 6, 7, 1, 3, 6];
const ROUTES = [
  ['POST', '/gateway/v1/addresses'],
  ['GET', '/gateway/v1/deposits'],
  ['POST', '/gateway/v1/withdrawals'],
  ['GET', '/gateway/v1/withdrawals'],
  ['GET', '/gateway/v1/balances'],
] as const;

export async function seedDemoApps(db: Db, clock: Clock): Promise<void> {
  const userId = await demoUserWithout(db, 'apps');
  if (!userId) return;

  const now = clock().getTime();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const appId = 'app_demo_store';

  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('apps')
      .values({
        id: appId,
        user_id: userId,
        app_name: 'Demo Store',
        info: 'Checkout payments for the demo web shop',
        project_url: 'https://store.example.com',
        whitelist_ip: '203.0.113.10\n198.51.100.0/24',
        callback_url: 'https://store.example.com/webhooks/cryptosafelock',
        status: 1,
        created_at: at(30 * DAY),
        updated_at: at(30 * DAY),
      })
      .execute();

    await trx
      .insertInto('app_payment_methods')
      .values([
        {
          id: 'upm_demo_usdt_bsc',
          app_id: appId,
          payment_method_id: 'pm_usdt_bsc',
          collect_address: '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db',
          gas_address: null,
          gas_index: null,
          deposit_status: 1,
          withdraw_status: 1,
          created_at: at(30 * DAY - 60_000),
        },
        {
          id: 'upm_demo_trx',
          app_id: appId,
          payment_method_id: 'pm_trx',
          collect_address: tronAddress('demo-trx-payout'),
          gas_address: null,
          gas_index: null,
          deposit_status: 1,
          withdraw_status: 0,
          created_at: at(29 * DAY),
        },
      ])
      .execute();

    const key = newApiKey(); // its plaintext is dropped: a seeded key can only be listed
    await trx
      .insertInto('api_keys')
      .values({
        id: 'key_demo_checkout',
        app_id: appId,
        token_name: 'Checkout server',
        token_hash: key.hash,
        token_prefix: key.prefix,
        abilities: JSON.stringify(['accounts:write', 'deposits:read', 'balances:read']),
        created_at: at(28 * DAY),
        revoked_at: null,
        last_used_at: at(DAY / 2),
      })
      .execute();

    // Two of three rows in USDT (BEP20), one in TRX.
    const method = (i: number) => (i % 3 === 2 ? TRX : USDT_BSC);

    await trx
      .insertInto('app_accounts')
      .values(
        Array.from({ length: 23 }, (_, i) => {
          const m = method(i);
          return {
            id: `acc_demo_${i}`,
            app_id: appId,
            payment_method_id: m.id,
            unique_id: `CUST-${1001 + i}`,
            address: m.tron ? tronAddress(`demo-acc-${i}`) : evmAddress(`demo-acc-${i}`),
            created_at: at((23 - i) * DAY + i * 3_600_000),
          };
        }),
      )
      .execute();

    await trx
      .insertInto('receive_transactions')
      .values(
        Array.from({ length: 27 }, (_, i) => {
          const m = method(i);
          const status = DEPOSIT_STATUSES[i % DEPOSIT_STATUSES.length] ?? 0;
          const created = (27 - i) * 12 * 3_600_000;
          const txHash = (label: string) => (m.tron ? tronHash(label) : evmHash(label));
          return {
            id: `dep_demo_${i}`,
            app_id: appId,
            payment_method_id: m.id,
            unique_id: `CUST-${1001 + (i % 23)}`,
            amount_micro: amount(`demo-dep-${i}`, m),
            deposit_status: status,
            thash: status === 0 ? null : txHash(`demo-dep-${i}`),
            gas_transfer_txid: status === 1 || status === 4 ? txHash(`demo-dep-gas-${i}`) : null,
            collect_txid: status === 1 ? txHash(`demo-dep-collect-${i}`) : null,
            process_datetime: status === 1 || status === 5 ? at(created - 95_000) : null,
            created_at: at(created),
          };
        }),
      )
      .execute();

    await trx
      .insertInto('send_transactions')
      .values(
        Array.from({ length: 18 }, (_, i) => {
          const m = USDT_BSC; // the TRX method has withdrawals switched off
          const status = SEND_STATUSES[i % SEND_STATUSES.length] ?? 0;
          const broadcast = ![0, 2, 7].includes(status);
          return {
            id: `wd_demo_${i}`,
            app_id: appId,
            payment_method_id: m.id,
            thash: broadcast ? evmHash(`demo-wd-${i}`) : null,
            amount_micro: amount(`demo-wd-${i}`, m),
            to_address: evmAddress(`demo-wd-to-${i % 5}`),
            status,
            created_at: at((18 - i) * 20 * 3_600_000),
          };
        }),
      )
      .execute();

    await trx
      .insertInto('api_logs')
      .values(
        Array.from({ length: 35 }, (_, i) => {
          const [verb, route] = ROUTES[i % ROUTES.length] ?? ROUTES[0];
          return {
            id: `log_demo_${i}`,
            app_id: appId,
            method: verb,
            route,
            ip: i % 4 === 0 ? '198.51.100.24' : '203.0.113.10',
            created_at: at((35 - i) * 9 * 3_600_000),
          };
        }),
      )
      .execute();

    await trx
      .insertInto('daily_logs')
      .values(
        Array.from({ length: 28 }, (_, i) => {
          const m = i % 2 === 0 ? USDT_BSC : TRX;
          const day = Math.floor(i / 2) + 1;
          const deposits = Math.floor(unit(`demo-day-d-${i}`) * 9);
          const withdrawals = m.tron ? 0 : Math.floor(unit(`demo-day-w-${i}`) * 4);
          return {
            id: `day_demo_${i}`,
            app_id: appId,
            payment_method_id: m.id,
            date: new Date(now - day * DAY).toISOString().slice(0, 10),
            deposit_count: deposits,
            deposit_volume_micro: deposits * amount(`demo-day-dv-${i}`, m),
            withdraw_count: withdrawals,
            withdraw_volume_micro: withdrawals * amount(`demo-day-wv-${i}`, m),
          };
        }),
      )
      .execute();
  });
}
