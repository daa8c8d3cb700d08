import { sql, type Kysely } from 'kysely';

/**
 * What the gateway API says about a payment method (GET /gateway/v1/methods): a stable `code`
 * integrators put in their requests (`USDT-BEP20`), the confirmations a deposit needs before it
 * is credited, and the smallest deposit credited (in the token's units, a decimal string). The
 * seed fills them for the reference methods at every start, as it does the rest of the row.
 *
 * Deposit accounts get their chain (one account per customer and chain: methods of one chain
 * share the address) and the derivation index of their address (account/2/<index> of the
 * gateway's xpub, apart from the users' deposit addresses and the gas wallets).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_methods').addColumn('code', 'text').execute();
  await db.schema
    .alterTable('payment_methods')
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(15))
    .execute();
  await db.schema
    .alterTable('payment_methods')
    .addColumn('min_deposit', 'text', (c) => c.notNull().defaultTo('0'))
    .execute();
  await db.schema
    .createIndex('payment_methods_code')
    .on('payment_methods')
    .column('code')
    .unique()
    .execute();
  await accounts(db);
}

async function accounts(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_accounts').addColumn('chain_id', 'integer').execute();
  await db.schema.alterTable('app_accounts').addColumn('derivation_index', 'integer').execute();
  await sql`update app_accounts set chain_id = (select chain_id from payment_methods
    where payment_methods.id = app_accounts.payment_method_id)`.execute(db);
  await db.schema
    .createIndex('app_accounts_app_customer_chain')
    .on('app_accounts')
    .columns(['app_id', 'unique_id', 'chain_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('app_accounts_derivation_index')
    .on('app_accounts')
    .column('derivation_index')
    .unique()
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
