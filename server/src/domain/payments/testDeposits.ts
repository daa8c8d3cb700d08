import type { Db } from '../../db/connection';
import { specChainAdapters, type ChainConfig } from '../chain';
import type { ChainAdapter } from '../chain/adapter';
import { recordLocalChainTransfer } from '../chain/localAdapter';
import { ConflictError, fieldInvalid, NotFoundError } from '../errors';
import { gatewayMethods } from './accounts';
import { decimalToMicro, MICRO_DECIMALS, microToChainAmount } from '../money';

// Test mode for integrators: a payer's transfer to one of an app's deposit accounts, recorded on
// the embedded local chain. It is only a transfer: the deposit watcher finds it like any payment,
// so a test deposit walks the same statuses, totals and webhook events as a real one.

/** The most one test deposit may carry, in whole coins. */
const MAX_TEST_AMOUNT = 1_000_000n;
const MAX_TEST_MICRO = MAX_TEST_AMOUNT * 10n ** BigInt(MICRO_DECIMALS);

const MSG = {
  amount: `Enter an amount more than 0 and at most ${MAX_TEST_AMOUNT}.`,
  notEnabled: (code: string) => `The app has not enabled ${code} on this account's chain.`,
  realChain: (code: string) =>
    `${code} runs on a real chain: test deposits are only for methods on the local chain.`,
} as const;

/** The chains this server runs on the embedded local chain (no RPC configured), by chain id. */
export type LocalChains = ReadonlyMap<number, ChainAdapter>;

export function localChains(config: ChainConfig, db: Db): LocalChains {
  return new Map(
    specChainAdapters(config, db)
      .filter((adapter) => adapter.kind === 'local')
      .map((adapter) => [adapter.chainId, adapter]),
  );
}

/** For each chain id, the app's enabled method codes there that take a test deposit. */
export async function testMethodsByChain(
  db: Db,
  appId: string,
  local: LocalChains,
): Promise<Map<number, string[]>> {
  const byChain = new Map<number, string[]>();
  for (const method of await gatewayMethods(db, appId)) {
    if (!local.has(method.chainId)) continue;
    byChain.set(method.chainId, [...(byChain.get(method.chainId) ?? []), method.code]);
  }
  return byChain;
}

export async function sendTestDeposit(
  db: Db,
  local: LocalChains,
  userId: string,
  input: { accountId: string; method: string; amount: string; now: Date },
): Promise<{ thash: string; blockNumber: number }> {
  const account = await db
    .selectFrom('app_accounts')
    .innerJoin('apps', 'apps.id', 'app_accounts.app_id')
    .select(['app_accounts.app_id', 'app_accounts.address', 'app_accounts.chain_id'])
    .where('app_accounts.id', '=', input.accountId)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!account) throw new NotFoundError();
  const method = (await gatewayMethods(db, account.app_id)).find(
    (m) => m.code === input.method && m.chainId === account.chain_id,
  );
  if (!method) throw fieldInvalid('method', MSG.notEnabled(input.method));
  const chain = local.get(method.chainId);
  if (!chain) throw new ConflictError(MSG.realChain(method.code));
  // The contract's pattern already holds the shape; the range is the rule's.
  const amountMicro = decimalToMicro(input.amount);
  if (amountMicro <= 0n || amountMicro > MAX_TEST_MICRO) throw fieldInvalid('amount', MSG.amount);
  const transfer = await recordLocalChainTransfer(db, {
    chainId: chain.chainId,
    token: method.tokenContract === null ? null : chain.tokenContract(method.tokenContract),
    to: account.address,
    amount: microToChainAmount(amountMicro, method.decimals),
    createdAt: input.now.toISOString(),
  });
  return { thash: transfer.txHash, blockNumber: transfer.blockNumber };
}
