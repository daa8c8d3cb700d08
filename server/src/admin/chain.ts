import { isAddress } from 'viem';
import { chainAdapterFor } from '../domain/chain';
import { mineLocalBlocks, recordLocalTransfer } from '../domain/chain/localAdapter';
import { WATCHED_METHOD } from '../domain/gatewayDeposits';
import { microToString } from '../domain/money';
import { UsageError, type AdminCommand } from './command';
import { parseAmount } from './money';

// The local chain, driven by an operator or a test as payers and miners would drive a real one.

const NOT_LOCAL =
  'CHAIN_RPC_URL is set: that chain is real, and this command only drives the local one.';

const chainTransfer: AdminCommand = {
  name: 'chain transfer',
  usage: 'chain transfer <to-address> <amount> <method-code>',
  description: `A payer's transfer on the local chain in a new block (method ${WATCHED_METHOD}); prints the tx hash.`,
  async run(args, { db, config }, io) {
    const [to, amount, code, extra] = args;
    if (!to || !amount || !code || extra !== undefined) throw new UsageError('Wrong arguments.');
    if (!isAddress(to, { strict: false })) throw new UsageError(`'${to}' is not an EVM address.`);
    if (code !== WATCHED_METHOD) {
      throw new UsageError(`The local chain carries ${WATCHED_METHOD} only, not ${code}.`);
    }
    const amountMicro = parseAmount(amount);
    if (chainAdapterFor(config, db).kind !== 'local') {
      io.out(NOT_LOCAL);
      return 1;
    }
    const transfer = await recordLocalTransfer(db, {
      to,
      amountMicro,
      createdAt: new Date().toISOString(),
    });
    io.out(transfer.txHash);
    io.out(
      `Sent ${microToString(amountMicro)} ${code} to ${transfer.to} in block ${transfer.blockNumber}.`,
    );
    return 0;
  },
};

const chainMine: AdminCommand = {
  name: 'chain mine',
  usage: 'chain mine <n>',
  description: 'Mine <n> empty blocks on the local chain (confirmations for what it holds).',
  async run(args, { db, config }, io) {
    const [count, extra] = args;
    if (!count || extra !== undefined || !/^\d{1,6}$/.test(count) || Number(count) < 1) {
      throw new UsageError('Give the number of blocks, 1 to 999999.');
    }
    if (chainAdapterFor(config, db).kind !== 'local') {
      io.out(NOT_LOCAL);
      return 1;
    }
    const head = await mineLocalBlocks(db, Number(count));
    io.out(`Mined ${count} block${count === '1' ? '' : 's'}; the head is block ${head}.`);
    return 0;
  },
};

export const chainCommands: AdminCommand[] = [chainTransfer, chainMine];
