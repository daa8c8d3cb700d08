import type { Db } from '../../db/connection';
import { gasWallets } from '../apps/paymentMethods';
import { ChainUnavailableError } from '../chain/adapter';
import { ChainNotServedError, type GasBalanceReader, type Units } from '../chain/balances';
import { specNativeName } from '../chain/specChains';
import { unitsToDecimal } from '../money';
import { codedMessages } from '../messageCodes';

// The app's operational wallets (one per method it has enabled, made by gasProvisioner.ts), with
// what each holds now, exact: what the gateway's GET /operational-wallets answers, read as the
// portal's Operational Wallet modal reads it (chain/balances.ts). A wallet whose balances cannot
// be read is listed with the reason instead of figures.

export interface OperationalWallet {
  methodCode: string;
  chainId: number;
  /** null while the wallet is being created. */
  address: string | null;
  /** Exact decimal text in the method's token; null for a native-coin method. */
  tokenBalance: string | null;
  /** Exact decimal text in the chain's own coin. */
  nativeBalance: string | null;
  nativeCoin: string;
  /** Why the balances are null; null when they were read. */
  unavailableReason: string | null;
}

export const WALLET_MSG = codedMessages('operationalWallet', {
  notReady: 'The operational wallet is still being created: try again in a few seconds.',
  unreachable: (network: string) =>
    `Balances on ${network} could not be read now: the chain's node did not answer. Try again later.`,
} as const);

const exact = (units: Units | null) =>
  units === null ? null : unitsToDecimal(units.raw, units.decimals);

/** The app's operational wallets, in the order of its methods (the portal's). */
export async function operationalWallets(
  db: Db,
  reader: GasBalanceReader,
  appId: string,
): Promise<OperationalWallet[]> {
  const rows = await gasWallets(db, appId)
    .where('payment_methods.code', 'is not', null)
    .orderBy('payment_methods.sort_order')
    .execute();
  // One chain read after another: an app has a handful of methods, and a node is not flooded.
  const wallets: OperationalWallet[] = [];
  for (const row of rows) {
    const wallet = {
      methodCode: row.code ?? '',
      chainId: row.chain_id,
      address: row.gas_address,
      nativeCoin: specNativeName(row.chain_id),
    };
    const unread = (reason: string) => ({
      ...wallet,
      tokenBalance: null,
      nativeBalance: null,
      unavailableReason: reason,
    });
    if (!row.gas_address) {
      wallets.push(unread(WALLET_MSG.notReady));
      continue;
    }
    try {
      const { exact: read } = await reader.read(row, row.gas_address);
      wallets.push({
        ...wallet,
        tokenBalance: exact(read.token),
        nativeBalance: exact(read.native),
        unavailableReason: null,
      });
    } catch (error) {
      if (error instanceof ChainNotServedError) wallets.push(unread(error.message));
      else if (error instanceof ChainUnavailableError) {
        wallets.push(unread(WALLET_MSG.unreachable(row.network_name)));
      } else throw error;
    }
  }
  return wallets;
}
