import type { Kysely } from 'kysely';
import { columnTypes } from '../columns';

/**
 * Every feature table, decided up front so that the feature slices build on one schema.
 * Ids are text; money and coin amounts are integers of 10^-6 units (micro); times are ISO-8601
 * (columns.ts gives each its type per engine).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const col = columnTypes(db);
  await db.schema
    .alterTable('users')
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('locked_until', col.time).execute();
  await db.schema.alterTable('users').addColumn('totp_secret_enc', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema.alterTable('users').addColumn('deposit_index', 'integer').execute();
  await db.schema.alterTable('users').addColumn('deposit_address', 'text').execute();
  await db.schema
    .createIndex('users_deposit_address')
    .unique()
    .on('users')
    .column('deposit_address')
    .execute();

  // Step tokens are single-use: the id of each one spent on a sign-in.
  await db.schema
    .createTable('spent_step_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spent_at', col.time, (c) => c.notNull())
    .execute();

  // One-time codes mailed to users whose auth_type is otp (sign-in, method switch).
  await db.schema
    .createTable('otp_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', col.time, (c) => c.notNull())
    .addColumn('used_at', col.time)
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('otp_codes_user')
    .on('otp_codes')
    .columns(['user_id', 'purpose'])
    .execute();

  // Every stored picture: random 128-bit name, owner, and whether anyone may fetch it by name.
  await db.schema
    .createTable('files')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull()) // avatar | kyc
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('kyc_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('document_type_id', 'text', (c) => c.notNull().references('document_types.id'))
    .addColumn('document_name', 'text', (c) => c.notNull())
    .addColumn('document_number', 'text')
    .addColumn('front', 'text')
    .addColumn('back', 'text')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0)) // 0 pending, 1 approved, 2 rejected
    .addColumn('remarks', 'text')
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('reviewed_at', col.time)
    .execute();
  await db.schema
    .createIndex('kyc_uploads_user')
    .on('kyc_uploads')
    .columns(['user_id', 'document_type_id', 'created_at'])
    .execute();

  // Transfers seen on the chain (or recorded by the local adapter) to users' deposit addresses.
  await db.schema
    .createTable('chain_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('amount_raw', col.rawAmount, (c) => c.notNull()) // token base units (18 decimals for BEP20 USDT)
    .addColumn('block_number', col.bigint, (c) => c.notNull())
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chain_transfers_tx')
    .unique()
    .on('chain_transfers')
    .columns(['tx_hash', 'log_index'])
    .execute();
  await db.schema
    .createIndex('chain_transfers_to')
    .on('chain_transfers')
    .column('to_address')
    .execute();

  // Credited deposits: one per (tx_hash, log_index), so a sync credits each exactly once.
  await db.schema
    .createTable('deposits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_micro', col.micro, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull()) // 1 confirmed, 0 pending
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deposits_tx')
    .unique()
    .on('deposits')
    .columns(['tx_hash', 'log_index'])
    .execute();
  await db.schema
    .createIndex('deposits_user')
    .on('deposits')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull().references('packages.id'))
    .addColumn('price_micro', col.micro, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull()) // 1 active, 2 canceled; expired = end_date passed
    .addColumn('invoice_id', 'text', (c) => c.notNull().unique())
    .addColumn('remarks', 'text')
    .addColumn('start_date', col.time, (c) => c.notNull())
    .addColumn('end_date', col.time, (c) => c.notNull())
    .addColumn('canceled_at', col.time)
    .addColumn('replaced_at', col.time)
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_user')
    .on('subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_name', 'text', (c) => c.notNull())
    .addColumn('info', 'text')
    .addColumn('project_url', 'text', (c) => c.notNull())
    .addColumn('whitelist_ip', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1)) // as last sent by update-app
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('updated_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apps_user').on('apps').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('app_payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('collect_address', 'text', (c) => c.notNull())
    .addColumn('gas_address', 'text') // provisioned by a background job after the method is enabled
    .addColumn('gas_index', 'integer')
    .addColumn('deposit_status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('withdraw_status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('app_payment_methods_unique')
    .unique()
    .on('app_payment_methods')
    .columns(['app_id', 'payment_method_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('token_name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('abilities', col.json, (c) => c.notNull()) // JSON array of permission values
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('revoked_at', col.time)
    .addColumn('last_used_at', col.time)
    .execute();
  await db.schema
    .createIndex('api_keys_app')
    .on('api_keys')
    .columns(['app_id', 'created_at'])
    .execute();

  // Gateway-side tables, written by the gateway (its API, deposit watcher and withdrawals); the
  // portal reads them.
  await db.schema
    .createTable('app_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('payment_method_id', 'text', (c) => c.references('payment_methods.id'))
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('app_accounts_app')
    .on('app_accounts')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('receive_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('amount_micro', col.micro, (c) => c.notNull())
    .addColumn('deposit_status', 'integer', (c) => c.notNull()) // 0-5, DepositStatus in db/schema/
    .addColumn('thash', 'text')
    .addColumn('gas_transfer_txid', 'text')
    .addColumn('collect_txid', 'text')
    .addColumn('process_datetime', col.time)
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('receive_transactions_app')
    .on('receive_transactions')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('send_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('thash', 'text')
    .addColumn('amount_micro', col.micro, (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull()) // 0-7, SendStatus in db/schema/
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('send_transactions_app')
    .on('send_transactions')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('api_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('api_logs_app')
    .on('api_logs')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('ipn_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('data', col.json, (c) => c.notNull()) // JSON text of the webhook payload
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ipn_logs_app')
    .on('ipn_logs')
    .columns(['app_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('daily_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('payment_method_id', 'text', (c) => c.notNull().references('payment_methods.id'))
    .addColumn('date', col.date, (c) => c.notNull()) // YYYY-MM-DD
    .addColumn('deposit_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deposit_volume_micro', col.micro, (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('withdraw_volume_micro', col.micro, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('daily_logs_unique')
    .unique()
    .on('daily_logs')
    .columns(['app_id', 'payment_method_id', 'date'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
