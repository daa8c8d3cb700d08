import { chainAdapterFor } from '../domain/chain';
import { recordLocalTransfer } from '../domain/chain/localAdapter';
import { resolveWalletXpub } from '../domain/chain/walletKey';
import { ensureTopUpAddress } from '../domain/billing/topUps';
import { InvalidError } from '../domain/errors';
import { decimalToMicro, MAX_AMOUNT_MICRO, microToString } from '../domain/money';
import { UsageError, userNamed, type AdminCommand } from './command';

export function parseAmount(text: string): bigint {
  let micro: bigint;
  try {
    micro = decimalToMicro(text);
  } catch {
    throw new UsageError(`'${text}' is not an amount of USDT (a number with up to 6 decimals).`);
  }
  if (micro <= 0n) throw new UsageError('The amount must be greater than 0.');
  if (micro > MAX_AMOUNT_MICRO) {
    throw new UsageError(
      `'${text}' is too large: the largest single amount is ${microToString(MAX_AMOUNT_MICRO)} USDT.`,
    );
  }
  return micro;
}

/**
 * Plays the payer on the local chain (no CHAIN_RPC_URL): a USDT transfer to the user's deposit
 * address, which the user's next Check Balance (balance-sync) finds and credits, as on BSC.
 */
const deposit: AdminCommand = {
  name: 'deposit',
  usage: 'deposit <username> <amount>',
  description:
    "Send <amount> USDT to the user's deposit address on the local chain (credited by Check Balance).",
  async run(args, { db, config }, io) {
    const [username, amount, extra] = args;
    if (!username || !amount || extra !== undefined) throw new UsageError('Wrong arguments.');
    const amountMicro = parseAmount(amount);
    const chain = chainAdapterFor(config, db);
    if (chain.kind !== 'local') {
      io.out('CHAIN_RPC_URL is set: deposits come from that chain. Send USDT (BEP20) there.');
      return 1;
    }
    const user = await userNamed(db, io, username);
    if (!user) return 1;
    const { address } = await ensureTopUpAddress(db, user.id, resolveWalletXpub(config), chain);
    let transfer;
    try {
      transfer = await recordLocalTransfer(
        db,
        { to: address, amountMicro, createdAt: new Date().toISOString() },
        { userId: user.id, username: user.username },
      );
    } catch (err) {
      if (!(err instanceof InvalidError)) throw err;
      io.out(err.message);
      return 1;
    }
    io.out(
      `Sent ${microToString(amountMicro)} USDT to ${user.username} (${address}) ` +
        `in block ${transfer.blockNumber}, tx ${transfer.txHash}.`,
    );
    io.out('It is credited when the user clicks Check Balance on the wallet page.');
    return 0;
  },
};

export const moneyCommands: AdminCommand[] = [deposit];
