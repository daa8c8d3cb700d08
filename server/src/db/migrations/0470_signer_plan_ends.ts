/**
 * No schema change: plans registered with the signer carry their end from this version on (the
 * signer's caps fall to the smallest plan's when it passes). The start that applies this
 * migration registers every app's plan again, with its end (registerPlansAtUpgrade).
 */
export async function up(): Promise<void> {}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
