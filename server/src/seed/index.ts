import type { Db } from '../db/connection';
import { inLockedTransaction } from '../db/locks';
import { NEW_ACCOUNT_BLANKS } from '../domain/account/auth';
import { newId } from '../domain/ids';
import { hashSecret, verifySecret } from '../domain/account/passwords';
import { revokeUserSessions } from '../domain/account/sessions';
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../domain/time';
import { COUNTRIES } from './countries.data';
import { DOCUMENT_TYPES } from './documentTypes.data';
import { PACKAGES } from './packages.data';
import { PAYMENT_METHODS } from '../domain/chain/paymentMethods';
import { seedDemoApps, type DemoGateway } from './demoApps';
import { DEMO_TEST_KEY } from './demoTestMode';
import { hashApiKey } from '../domain/apps/apiKeys';
import { seedDemoPortal } from './demoPortal';
import { seedDemoMoney } from './demoMoney';
import { DEMO_USERNAME, findDemoUserId } from './demoUser';
import type { RequestSigner } from '../signer/client/requestMac';

export const DEMO_ACCOUNT = {
  username: DEMO_USERNAME,
  pin: '1234',
  password: 'Demo@12345',
  email: 'demo@example.com',
  name: 'Demo Merchant',
  country: 'IN',
} as const;

const CHUNK = 100; // stays under SQLite's bound-parameter limit

/** What a start seeds besides the reference data (runtime.ts). */
interface SeedOptions {
  /** The demo merchant (config.seedDemo): development and tests only. */
  demo: boolean;
  /** Where the demo is never seeded (config.seedDemo off): its published secrets are retired. */
  retireDemo?: boolean;
  clock?: Clock;
  /** Without it (no key to derive from) the demo app has no accounts or payments. */
  gateway?: DemoGateway;
  /** MACs the demo app's registrations with the signer (its whitelist, its payout addresses). */
  sign: RequestSigner;
}

/** Every server start runs the seed; processes starting together take turns (see below). */
const SEED_LOCK = 'seed';

// Idempotent: reference rows are upserted by id on every start, so editing a data file and
// restarting updates them; the demo account is created once and never overwritten. The whole
// seed is one transaction under SEED_LOCK: servers starting together on a fresh database wait
// for the first one's seed and find it done, and a failed seed leaves nothing half made.
export async function seed(db: Db, options: SeedOptions): Promise<void> {
  const clock = options.clock ?? systemClock;
  await inLockedTransaction(db, SEED_LOCK, async (trx) => {
    await seedReferenceData(trx);
    if (options.retireDemo) await retireDemoCredentials(trx, clock);
    if (!options.demo) return;
    await seedDemoAccount(trx, clock);
    await seedDemoPortal(trx, clock);
    // The plan before the app: its payments count against it.
    await seedDemoMoney(trx, clock, options.sign);
    await seedDemoApps(trx, clock, options.gateway, options.sign);
  });
}

/** Countries, packages, document types and payment methods: every database, production too. */
async function seedReferenceData(trx: Db): Promise<void> {
  for (let i = 0; i < COUNTRIES.length; i += CHUNK) {
    await trx
      .insertInto('countries')
      .values(COUNTRIES.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          name: (eb) => eb.ref('excluded.name'),
          calling_code: (eb) => eb.ref('excluded.calling_code'),
        }),
      )
      .execute();
  }
  for (const row of PACKAGES) {
    const { id: _id, ...rest } = row;
    await trx
      .insertInto('packages')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }
  for (const row of DOCUMENT_TYPES) {
    const { id: _id, ...rest } = row;
    await trx
      .insertInto('document_types')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }
  for (const row of PAYMENT_METHODS) {
    const { id: _id, ...rest } = row;
    await trx
      .insertInto('payment_methods')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }
}

/**
 * The demo's password, pin and test key are published (README, docs/gateway.md): where the demo
 * is not seeded (production), an account an earlier version seeded with them keeps its data but
 * can no longer sign in with them, nor call the gateway with the key. The password and pin are
 * replaced by random secrets nobody holds, its sessions end and the key is revoked; the operator
 * removes or reassigns the account (docs/operations.md).
 */
async function retireDemoCredentials(db: Db, clock: Clock): Promise<void> {
  // The demo's published test key (docs/gateway.md) stops working too.
  await db
    .updateTable('api_keys')
    .set({ revoked_at: clock().toISOString() })
    .where('token_hash', '=', hashApiKey(DEMO_TEST_KEY))
    .where('revoked_at', 'is', null)
    .execute();
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'pin_hash'])
    .where('username', '=', DEMO_ACCOUNT.username)
    .executeTakeFirst();
  if (!user) return;
  const [password, pin] = await Promise.all([
    verifySecret(user.password_hash, DEMO_ACCOUNT.password),
    verifySecret(user.pin_hash, DEMO_ACCOUNT.pin),
  ]);
  if (!password && !pin) return;
  const unknown = () => hashSecret(randomBytes(32).toString('base64url'));
  const [passwordHash, pinHash] = await Promise.all([unknown(), unknown()]);
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, pin_hash: pinHash })
    .where('id', '=', user.id)
    .execute();
  await revokeUserSessions(db, user.id, undefined, clock);
  console.warn(
    `The account '${DEMO_ACCOUNT.username}' signed in with the demo's published password and pin; ` +
      'both were replaced with random secrets. Remove or reassign it (docs/operations.md).',
  );
}

async function seedDemoAccount(db: Db, clock: Clock): Promise<void> {
  if (await findDemoUserId(db)) return;
  const [passwordHash, pinHash] = await Promise.all([
    hashSecret(DEMO_ACCOUNT.password),
    hashSecret(DEMO_ACCOUNT.pin),
  ]);
  await db
    .insertInto('users')
    .values({
      id: newId('usr'),
      username: DEMO_ACCOUNT.username,
      email: DEMO_ACCOUNT.email,
      name: DEMO_ACCOUNT.name,
      password_hash: passwordHash,
      pin_hash: pinHash,
      auth_type: 'mpin',
      sponsor_id: null,
      ...NEW_ACCOUNT_BLANKS,
      phone: null,
      country: DEMO_ACCOUNT.country,
      created_at: clock().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
