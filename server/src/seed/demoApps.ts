import { createHash } from 'node:crypto';
import type { Db } from '../db/connection';
import { demoUserWithout } from './demoUser';
import { tronAddressFromEvm } from '../domain/chain/addresses';
import { newApiKey } from '../domain/apps/apiKeys';
import {
  LocalChainAdapter,
  mineLocalBlocks,
  recordLocalTransfer,
} from '../domain/chain/localAdapter';
import { openAccount, type GatewayAccount } from '../domain/payments/accounts';
import { watchDeposits } from '../domain/payments/deposits';
import { decimalToMicro } from '../domain/money';
import type { Clock } from '../domain/time';
import type { RateDeps } from '../domain/rates/rates';
import { seedDemoInvoices } from './demoInvoices';
import { seedDemoTestMode } from './demoTestMode';
import {
  queuePayoutRegistration,
  queuePlanRegistration,
  queueWhitelistRegistration,
} from '../domain/apps/signerRegistration';
import { currentSubscription } from '../domain/billing/subscriptions';
import { NO_PLAN, type RequestSigner } from '../signer/client/requestMac';

// The demo merchant's app, so that the app detail screen shows data on first start. Its settings
// are rows (two payment methods in use, whose operational wallets the gas job provisions at
// start-up; an API key). Everything that happened is made by the gateway's own code paths:
// customers' deposit accounts opened through the domain (within the demo plan, bought by
// seedDemoMoney before), payments recorded on the local chain, blocks mined and the deposit
// watcher run over them as it would have run then. So the Transaction lists, Usage, Daily Logs
// and the dashboard agree, as they do for any merchant. Four days of credited deposits and one
// below the minimum (Failed); nothing left on its way, so the running watcher finds nothing
// more to do. No API Logs and no IPN Logs: nobody has called the gateway yet, and deliveries
// are only ever real ones.
// Withdrawals come with the withdrawals issue. Amounts and times are derived from fixed labels
// and the clock, so every fresh database shows the same figures (transaction hashes are the
// local chain's own). Created once, never overwritten.

/** The demo customers pay in USDT on BNB Smart Chain (and some hold a Tron account). */
const USDT_METHOD = 'USDT-BEP20';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Deterministic hex from a label (fake but well-formed hashes and addresses). */
function hex(label: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i += 1) {
    out += createHash('sha256').update(`${label}:${i}`).digest('hex');
  }
  return out.slice(0, bytes * 2);
}

const tronAddress = (label: string) => tronAddressFromEvm(hex(label, 20));

/** Small deterministic number in [0, 1) from a label. */
function unit(label: string): number {
  return parseInt(hex(label, 4), 16) / 2 ** 32;
}

/** A USDT payment between 5 and 480, to 4 decimals, in micro-USDT. */
function usdtMicro(label: string): bigint {
  return decimalToMicro((5 + unit(label) * 475).toFixed(4));
}

const DEMO_WEBHOOK_URL = 'https://store.example.com/webhooks/cryptosafelock';
const USDT_ACCOUNTS = 4;
const TRX_ACCOUNTS = 1;
const DEPOSIT_DAYS = 4;

/** What the demo's gateway history needs from the configuration (runtime.ts). */
export interface DemoGateway {
  /** The extended public key deposit accounts derive from (domain/chain/walletKey.ts). */
  xpub: string;
  /** Deposits are watched on the local chain (no CHAIN_RPC_URL): the demo's payments go there. */
  localChain: boolean;
  /** Where the demo invoices' checkout pages are (`<origin>/pay/<id>`). */
  origin: string;
  /** The rate sources the demo invoices are priced with. */
  rates: RateDeps['config'];
  /** Seals the demo refund's claim link for the merchant's reads (SECRET_KEY). */
  serverKey: string;
  /** Test mode's BNB Smart Chain Testnet runs on the local chain (no CHAIN_RPC_URLS for 97). */
  testLocalChain: boolean;
}

export async function seedDemoApps(
  db: Db,
  clock: Clock,
  gateway: DemoGateway | undefined,
  sign: RequestSigner,
): Promise<void> {
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
        // The store's servers, and this machine, so the quick start (docs/gateway.md) runs as
        // written. Set with the app, it is its first whitelist: nothing is held.
        whitelist_ip: '203.0.113.10\n198.51.100.0/24\n127.0.0.1\n::1',
        // Set once its history is in (below).
        callback_url: null,
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

    // Registered with the signer as the portal's own calls register them: the first whitelist
    // and payout addresses, in effect at once, and the plan.
    const registered = new Date(now);
    const app = await trx
      .selectFrom('apps')
      .select('whitelist_ip')
      .where('id', '=', appId)
      .executeTakeFirstOrThrow();
    await queueWhitelistRegistration(trx, sign, {
      appId,
      whitelist: app.whitelist_ip,
      at: registered,
    });
    const methods = await trx
      .selectFrom('app_payment_methods')
      .select(['payment_method_id', 'collect_address'])
      .where('app_id', '=', appId)
      .execute();
    const plan = await currentSubscription(trx, userId, registered.toISOString());
    await queuePlanRegistration(trx, sign, {
      appId,
      packageId: plan?.package_id ?? NO_PLAN,
      until: plan?.end_date ?? null,
      at: registered,
    });
    for (const method of methods) {
      await queuePayoutRegistration(trx, sign, {
        appId,
        paymentMethodId: method.payment_method_id,
        address: method.collect_address,
        at: registered,
      });
    }

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
        last_used_at: null,
      })
      .execute();
  });

  if (gateway) await seedDemoGatewayHistory(db, gateway, appId, now, sign);
  await seedDemoTestMode(db, { userId, liveAppId: appId, gateway, now, sign });
  // The Webhook URl comes after the history: the deposits' events are in the outbox, but no
  // delivery was queued to an address that has never answered (store.example.com is a
  // placeholder), so IPN Logs starts empty instead of with days of retries.
  await db
    .updateTable('apps')
    .set({ callback_url: DEMO_WEBHOOK_URL })
    .where('id', '=', appId)
    .execute();
}

/**
 * The demo customers' accounts and payments, through the gateway's code: accounts opened (the
 * plan allowing), then per day the day's transfers on the local chain, the method's
 * confirmations mined and one watcher pass at that day's time.
 */
async function seedDemoGatewayHistory(
  db: Db,
  gateway: DemoGateway,
  appId: string,
  now: number,
  sign: RequestSigner,
): Promise<void> {
  const usdt: GatewayAccount[] = [];
  for (let i = 0; i < USDT_ACCOUNTS + TRX_ACCOUNTS; i += 1) {
    const tron = i >= USDT_ACCOUNTS;
    const { account } = await openAccount(db, gateway.xpub, {
      appId,
      uniqueId: `CUST-${1001 + (tron ? i - USDT_ACCOUNTS : i)}`,
      code: tron ? 'TRX-TRON' : USDT_METHOD,
      now: new Date(now - (DEPOSIT_DAYS + 2) * DAY + i * HOUR),
    });
    if (!tron) usdt.push(account);
  }
  if (!gateway.localChain) return;

  const method = await db
    .selectFrom('payment_methods')
    .select('confirmations')
    .where('code', '=', USDT_METHOD)
    .executeTakeFirstOrThrow();
  const chain = new LocalChainAdapter(db);
  let paid = 0;
  const pay = (amountMicro: bigint, time: number) => {
    const account = usdt[paid % usdt.length];
    paid += 1;
    if (!account) throw new Error('The demo has no USDT account to pay');
    return recordLocalTransfer(db, {
      to: account.address,
      amountMicro,
      createdAt: new Date(time).toISOString(),
    });
  };
  for (let day = DEPOSIT_DAYS; day >= 1; day -= 1) {
    const count = 3 + Math.floor(unit(`demo-day-${day}`) * 3);
    const first = now - day * DAY + 9 * HOUR;
    for (let k = 0; k < count; k += 1) {
      await pay(usdtMicro(`demo-dep-${day}-${k}`), first + k * 2 * HOUR);
    }
    await mineLocalBlocks(db, method.confirmations);
    await watchDeposits(db, chain, new Date(first + (count - 1) * 2 * HOUR + 10 * MINUTE));
  }
  await pay(decimalToMicro('0.5'), now - 3 * HOUR);
  await watchDeposits(db, chain, new Date(now));
  await seedDemoInvoices(db, gateway, appId, now, sign);
}
