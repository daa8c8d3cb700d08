import { parseUnits } from 'viem';
import type { Db } from '../../db/connection';
import { gasWallets } from '../apps/paymentMethods';
import { ownedApp } from '../apps/apps';
import { localBalance, recordLocalChainBlock, type LocalTransfer } from '../chain/localAdapter';
import { specNativeDecimals, specNativeName, type SpecChainId } from '../chain/specChains';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { unitsToDecimal } from '../money';
import type { LocalChains } from '../payments/testDeposits';
import { codedMessages } from '../messageCodes';

// Test mode's faucet, one click away: a test app's operational wallet is topped up on its test
// network's local chain, so test withdrawals and refunds run through the real signer with the
// token to send and the fee to pay. It tops up to a fixed balance and never beyond, so repeated
// clicks mint nothing more.

/** What a funded test wallet holds, in whole coins: the token, and the network's coin for fees. */
export const TEST_WALLET_TOKENS = 10_000;
export const TEST_WALLET_COINS = 10;

export const FUNDING_MSG = codedMessages('funding', {
  liveApp: 'Operational wallets are funded in test mode only: real money is never minted.',
  noWallet: 'The operational wallet is still being created: try again in a moment.',
  publicTestnet: (network: string) =>
    `${network} runs on a public test network here: fund the wallet from its faucet.`,
  full: (holdings: string) => `The operational wallet already holds the test funds: ${holdings}.`,
  sent: 'Test funds sent',
} as const);

export interface Funded {
  nativeAmount: string;
  tokenAmount: string | null;
  blockNumber: number;
}

/**
 * Tops up the operational wallet of test app `appId`'s method `paymentMethodId` to
 * TEST_WALLET_TOKENS of its token (token methods) and TEST_WALLET_COINS of its network's coin,
 * in one block of the test network's local chain.
 */
export async function fundTestWallet(
  db: Db,
  local: LocalChains,
  userId: string,
  input: { appId: string; paymentMethodId: string; now: Date },
): Promise<Funded> {
  const app = await ownedApp(db, userId, input.appId);
  if (app.livemode !== 0) throw new ForbiddenError(FUNDING_MSG.liveApp);
  const wallet = await gasWallets(db, app.id)
    .where('app_payment_methods.payment_method_id', '=', input.paymentMethodId)
    .executeTakeFirst();
  if (!wallet) throw new NotFoundError();
  if (!wallet.gas_address) throw new ConflictError(FUNDING_MSG.noWallet);
  const chain = local.get(wallet.chain_id);
  if (!chain) throw new ConflictError(FUNDING_MSG.publicTestnet(wallet.network_name));
  const chainId = wallet.chain_id as SpecChainId;
  const gasAddress = wallet.gas_address;

  const coinDecimals = wallet.is_token === 1 ? specNativeDecimals(chainId) : wallet.decimals;
  const coinTarget = parseUnits(String(TEST_WALLET_COINS), coinDecimals);
  const coinLack = coinTarget - (await localBalance(db, chainId, null, gasAddress));
  const token =
    wallet.is_token === 1 && wallet.token_contract_address
      ? chain.tokenContract(wallet.token_contract_address)
      : null;
  const tokenTarget = parseUnits(String(TEST_WALLET_TOKENS), wallet.decimals);
  const tokenLack =
    token === null ? 0n : tokenTarget - (await localBalance(db, chainId, token, gasAddress));

  const transfers: Omit<LocalTransfer, 'chainId'>[] = [];
  const createdAt = input.now.toISOString();
  if (coinLack > 0n) transfers.push({ token: null, to: gasAddress, amount: coinLack, createdAt });
  if (token !== null && tokenLack > 0n) {
    transfers.push({ token, to: gasAddress, amount: tokenLack, createdAt });
  }
  if (transfers.length === 0) {
    const coin = `${TEST_WALLET_COINS} ${specNativeName(chainId)}`;
    const tokens = TEST_WALLET_TOKENS.toLocaleString('en-US');
    const holdings = token === null ? coin : `${tokens} ${wallet.code} and ${coin}`;
    throw new ConflictError(FUNDING_MSG.full(holdings));
  }
  const [first] = await recordLocalChainBlock(db, chainId, transfers);
  if (!first) throw new Error('No funding transfer recorded');
  return {
    nativeAmount: unitsToDecimal(coinLack > 0n ? coinLack : 0n, coinDecimals),
    tokenAmount:
      token === null ? null : unitsToDecimal(tokenLack > 0n ? tokenLack : 0n, wallet.decimals),
    blockNumber: first.blockNumber,
  };
}
