import { isAddress } from 'viem';
import { chainAdapterFor } from '../domain/chain';
import {
  localBalance,
  mineLocalBlocks,
  recordLocalChainTransfer,
} from '../domain/chain/localAdapter';
import { SPEC_CHAIN_IDS, type SpecChainId } from '../domain/chain/specChains';
import { isTronAddress } from '../domain/chain/addresses';
import { microToChainAmount, microToString, unitsToDecimal } from '../domain/money';
import type { Db } from '../db/connection';
import type { Runtime } from '../runtime';
import { UsageError, type AdminCommand, type CommandIo } from './command';
import { parseAmount } from './money';

// The local chain, driven by an operator or a test as payers and miners would drive a real one:
// every chain id of the spec that no RPC serves, native coins and tokens alike.

const notLocal = (chainId: number) =>
  `Chain ${chainId} is served over JSON-RPC: that chain is real, and this command only drives the local one.`;

/**
 * A payment method by its code (the live method), or by its id (a test network's too, e.g.
 * pm_usdt_bsc_test), and `address` checked for its network.
 */
async function methodFor(db: Db, code: string, address: string) {
  const method = await db
    .selectFrom('payment_methods')
    .select(['chain_id', 'network_type', 'is_token', 'token_contract_address', 'decimals'])
    .where((eb) =>
      eb.or([eb.and([eb('code', '=', code), eb('livemode', '=', 1)]), eb('id', '=', code)]),
    )
    .executeTakeFirst();
  if (!method) {
    const codes = await db
      .selectFrom('payment_methods')
      .select('code')
      .where('code', 'is not', null)
      .where('livemode', '=', 1)
      .orderBy('sort_order')
      .execute();
    throw new UsageError(
      `No payment method ${code}; the codes are ${codes.map((c) => c.code).join(', ')}.`,
    );
  }
  const evm = method.network_type === 'EVM';
  if (evm ? !isAddress(address, { strict: false }) : !isTronAddress(address)) {
    throw new UsageError(`'${address}' is not ${evm ? 'an EVM' : 'a Tron'} address.`);
  }
  return method;
}

/**
 * What `code` moves on the local chain for `address`: the method, and its token's contract there
 * (null: the native coin). Null, said why, when the chain is a real one or the token has no
 * contract.
 */
async function localAsset(
  { db, config }: Runtime,
  io: CommandIo,
  code: string,
  address: string,
  doing: string,
) {
  const method = await methodFor(db, code, address);
  const chain = chainAdapterFor(config, db, method.chain_id);
  if (chain.kind !== 'local') {
    io.out(notLocal(method.chain_id));
    return null;
  }
  const contract = method.token_contract_address;
  if (method.is_token === 1 && !contract) {
    io.out(`${code} has no token contract: nothing to ${doing}.`);
    return null;
  }
  return {
    method,
    token: method.is_token === 1 && contract ? chain.tokenContract(contract) : null,
  };
}

const chainTransfer: AdminCommand = {
  name: 'chain transfer',
  usage: 'chain transfer <to-address> <amount> <method-code>',
  description:
    "A payer's transfer of any payment method (USDT-BEP20, BNB-BSC, USDT-TRC20, ...) on the local chain in a new block; prints the tx hash.",
  async run(args, runtime, io) {
    const [to, amount, code, extra] = args;
    if (!to || !amount || !code || extra !== undefined) throw new UsageError('Wrong arguments.');
    const amountMicro = parseAmount(amount);
    const asset = await localAsset(runtime, io, code, to, 'transfer');
    if (!asset) return 1;
    const { method, token } = asset;
    const transfer = await recordLocalChainTransfer(runtime.db, {
      chainId: method.chain_id,
      token,
      to,
      amount: microToChainAmount(amountMicro, method.decimals),
      createdAt: new Date().toISOString(),
    });
    io.out(transfer.txHash);
    io.out(
      `Sent ${microToString(amountMicro)} ${code} to ${transfer.to} in block ` +
        `${transfer.blockNumber} of chain ${method.chain_id}.`,
    );
    return 0;
  },
};

const chainMine: AdminCommand = {
  name: 'chain mine',
  usage: 'chain mine <n> [chain-id]',
  description:
    'Mine <n> empty blocks on the local chain (confirmations for what it holds): on every chain id it serves, or on one.',
  async run(args, { db, config }, io) {
    const [count, only, extra] = args;
    if (!count || extra !== undefined || !/^\d{1,6}$/.test(count) || Number(count) < 1) {
      throw new UsageError('Give the number of blocks, 1 to 999999, and optionally a chain id.');
    }
    const chainIds = SPEC_CHAIN_IDS.filter((id) => only === undefined || String(id) === only);
    if (chainIds.length === 0) {
      throw new UsageError(`No chain ${only}; the chain ids are ${SPEC_CHAIN_IDS.join(', ')}.`);
    }
    const local: SpecChainId[] = chainIds.filter(
      (id) => chainAdapterFor(config, db, id).kind === 'local',
    );
    if (local.length === 0) {
      io.out(notLocal(chainIds[0] ?? 56));
      return 1;
    }
    const blocks = `${count} block${count === '1' ? '' : 's'}`;
    for (const chainId of local) {
      const head = await mineLocalBlocks(db, Number(count), chainId);
      io.out(`Mined ${blocks} on chain ${chainId}; the head is block ${head}.`);
    }
    return 0;
  },
};

const chainBalance: AdminCommand = {
  name: 'chain balance',
  usage: 'chain balance <address> <method-code>',
  description:
    "What an address holds on the local chain in a method's coin or token (USDT-BEP20, BNB-BSC, ...): prints the exact amount.",
  async run(args, runtime, io) {
    const [address, code, extra] = args;
    if (!address || !code || extra !== undefined) throw new UsageError('Wrong arguments.');
    const asset = await localAsset(runtime, io, code, address, 'read');
    if (!asset) return 1;
    const { method, token } = asset;
    const raw = await localBalance(runtime.db, method.chain_id, token, address);
    io.out(unitsToDecimal(raw, method.decimals));
    io.out(
      `${address} holds ${unitsToDecimal(raw, method.decimals)} ${code} on chain ${method.chain_id}.`,
    );
    return 0;
  },
};

export const chainCommands: AdminCommand[] = [chainTransfer, chainBalance, chainMine];
