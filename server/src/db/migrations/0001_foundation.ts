import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../columns';

// Migrations take Kysely<unknown>: they must not depend on the current schema types.

export async function up(db: Kysely<unknown>): Promise<void> {
  const col = columnTypes(db);
  await db.schema
    .createTable('countries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('calling_code', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('auth_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('mpin')
        .check(sql`auth_type in ('mpin', 'authenticator', 'otp')`),
    )
    .addColumn('sponsor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('male', 'female', 'others')`))
    .addColumn('dob', col.date)
    .addColumn('phone', 'text')
    .addColumn('country', 'text', (c) => c.references('countries.id'))
    .addColumn('landmark', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('pincode', 'text')
    .addColumn('address_line1', 'text')
    .addColumn('address_line2', 'text')
    .addColumn('avatar', 'text')
    .addColumn('status_kyc', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_profile_complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('last_login_at', col.time)
    .addColumn('previous_login_at', col.time)
    .execute();
  // Case-insensitive uniqueness: 'Demo' and 'demo' are the same account.
  await db.schema
    .createIndex('users_username_lower_uq')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema
    .createIndex('users_email_lower_uq')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', col.time, (c) => c.notNull())
    .addColumn('last_seen_at', col.time, (c) => c.notNull())
    .addColumn('revoked_at', col.time)
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_micro', col.micro, (c) => c.notNull())
    .addColumn('duration_days', 'integer', (c) => c.notNull())
    .addColumn('fees', col.real, (c) => c.notNull())
    .addColumn('tnx_limit', 'integer', (c) => c.notNull())
    .addColumn('daily_tnx_limit', 'integer', (c) => c.notNull())
    .addColumn('app_count', 'integer', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('document_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_names', col.json, (c) => c.notNull())
    .addColumn('front_required', 'integer', (c) => c.notNull())
    .addColumn('back_required', 'integer', (c) => c.notNull())
    .addColumn('number_required', 'integer', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('network_name', 'text', (c) => c.notNull())
    .addColumn('network_type', 'text', (c) =>
      c.notNull().check(sql`network_type in ('EVM', 'TRON')`),
    )
    .addColumn('logo', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'integer', (c) => c.notNull())
    .addColumn('is_token', 'integer', (c) => c.notNull())
    .addColumn('token_contract_address', 'text')
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tnx', 'text', (c) => c.notNull())
    .addColumn('amount_micro', col.micro, (c) => c.notNull().check(sql`amount_micro > 0`))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('credit', 'debit')`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', col.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_user_created_idx')
    .on('ledger_entries')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'ledger_entries',
    'payment_methods',
    'document_types',
    'packages',
    'sessions',
    'users',
    'countries',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
