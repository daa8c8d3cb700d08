import type { Kysely } from 'kysely';

// The gateway API names its abilities `<resource>:<read|write>`; keys made before keep what they
// could do under the new names. (Frozen here: later renames must not change this migration.)
const RENAMED: Record<string, string> = {
  'address.create': 'accounts:write',
  'deposit.read': 'deposits:read',
  'withdraw.create': 'withdrawals:write',
  'withdraw.read': 'withdrawals:read',
  'balance.read': 'balances:read',
};

interface KeyRow {
  id: string;
  abilities: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const keys = db as unknown as Kysely<{ api_keys: KeyRow }>;
  const rows = await keys.selectFrom('api_keys').select(['id', 'abilities']).execute();
  for (const row of rows) {
    const parsed: unknown = JSON.parse(row.abilities);
    if (!Array.isArray(parsed)) continue;
    const renamed = parsed.map((a) => (typeof a === 'string' ? (RENAMED[a] ?? a) : a));
    await keys
      .updateTable('api_keys')
      .set({ abilities: JSON.stringify(renamed) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
