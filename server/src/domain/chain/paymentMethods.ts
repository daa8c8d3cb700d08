import type { Insertable } from 'kysely';
import type { PaymentMethodsTable } from '../../db/schema';

// EVM chain ids, with 0 standing for Tron. Token contracts are the public mainnet USDT
// contracts; decimals are the token's own (BEP20 USDT has 18, the others 6).
// Logos are PNGs in server/assets/logos/ (LOGOS_DIR, rendered from CC0 icon sets: source/README.md),
// served by getImage; ids and network names
// follow openapi.yaml's examples (pm_usdt_bsc, 'BNB Smart Chain'). Codes, confirmations and
// minimum deposits are the gateway's (server/openapi/gateway.yaml); confirmations follow common
// exchange practice per chain (BSC 15, Tron 19, Ethereum 12, Polygon 128).
const LIVE_METHODS: readonly Insertable<PaymentMethodsTable>[] = [
  {
    id: 'pm_usdt_bsc',
    code: 'USDT-BEP20',
    confirmations: 15,
    min_deposit: '1',
    name: 'USDT',
    network_name: 'BNB Smart Chain',
    network_type: 'EVM',
    logo: 'logo_usdt.png',
    chain_id: 56,
    is_token: 1,
    token_contract_address: '0x55d398326f99059fF775485246999027B3197955',
    decimals: 18,
    sort_order: 1,
    is_active: 1,
  },
  {
    id: 'pm_bnb',
    code: 'BNB-BSC',
    confirmations: 15,
    min_deposit: '0.001',
    name: 'BNB',
    network_name: 'BNB Smart Chain',
    network_type: 'EVM',
    logo: 'logo_bnb.png',
    chain_id: 56,
    is_token: 0,
    token_contract_address: null,
    decimals: 18,
    sort_order: 2,
    is_active: 1,
  },
  {
    id: 'pm_usdt_tron',
    code: 'USDT-TRC20',
    confirmations: 19,
    min_deposit: '1',
    name: 'USDT',
    network_name: 'Tron',
    network_type: 'TRON',
    logo: 'logo_usdt.png',
    chain_id: 0,
    is_token: 1,
    token_contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    decimals: 6,
    sort_order: 3,
    is_active: 1,
  },
  {
    id: 'pm_trx',
    code: 'TRX-TRON',
    confirmations: 19,
    min_deposit: '1',
    name: 'TRX',
    network_name: 'Tron',
    network_type: 'TRON',
    logo: 'logo_trx.png',
    chain_id: 0,
    is_token: 0,
    token_contract_address: null,
    decimals: 6,
    sort_order: 4,
    is_active: 1,
  },
  {
    id: 'pm_usdt_eth',
    code: 'USDT-ERC20',
    confirmations: 12,
    min_deposit: '1',
    name: 'USDT',
    network_name: 'Ethereum',
    network_type: 'EVM',
    logo: 'logo_usdt.png',
    chain_id: 1,
    is_token: 1,
    token_contract_address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    decimals: 6,
    sort_order: 5,
    is_active: 1,
  },
  {
    id: 'pm_eth',
    code: 'ETH-ETHEREUM',
    confirmations: 12,
    min_deposit: '0.001',
    name: 'ETH',
    network_name: 'Ethereum',
    network_type: 'EVM',
    logo: 'logo_eth.png',
    chain_id: 1,
    is_token: 0,
    token_contract_address: null,
    decimals: 18,
    sort_order: 6,
    is_active: 1,
  },
  {
    id: 'pm_usdt_polygon',
    code: 'USDT-POLYGON',
    confirmations: 128,
    min_deposit: '1',
    name: 'USDT',
    network_name: 'Polygon',
    network_type: 'EVM',
    logo: 'logo_usdt.png',
    chain_id: 137,
    is_token: 1,
    token_contract_address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    decimals: 6,
    sort_order: 7,
    is_active: 1,
  },
  {
    id: 'pm_pol',
    code: 'POL-POLYGON',
    confirmations: 128,
    min_deposit: '1',
    name: 'POL',
    network_name: 'Polygon',
    network_type: 'EVM',
    logo: 'logo_pol.png',
    chain_id: 137,
    is_token: 0,
    token_contract_address: null,
    decimals: 18,
    sort_order: 8,
    is_active: 1,
  },
];

/**
 * Test mode's network for each live chain id: the public test network an operator may point it
 * at (CHAIN_RPC_URLS), else the local chain under that id, apart from the live chain's blocks.
 * Tron has no EVM chain id (its mainnet is 0 here), so its test network is -1.
 */
export const TEST_CHAIN_OF: ReadonlyMap<number, number> = new Map([
  [56, 97], // BNB Smart Chain Testnet
  [1, 11155111], // Sepolia
  [137, 80002], // Polygon Amoy
  [0, -1], // Tron Nile
]);

const TEST_NETWORK_NAMES: ReadonlyMap<number, string> = new Map([
  [97, 'BNB Smart Chain Testnet'],
  [11155111, 'Sepolia'],
  [80002, 'Polygon Amoy'],
  [-1, 'Tron Nile'],
]);

/** The test method of a live method's id: every method exists in test mode, same code and rules. */
export function testMethodId(liveId: string): string {
  return `${liveId}_test`;
}

/** The live method of a test method's id (a live method's id is its own). */
export function liveMethodId(methodId: string): string {
  return methodId.endsWith('_test') ? methodId.slice(0, -'_test'.length) : methodId;
}

/**
 * Each live method's test twin: same code, decimals, confirmations and minimum, on the test
 * network of its chain. Its token contract is the live one's, which names the token on the local
 * chain.
 */
const TEST_METHODS: readonly Insertable<PaymentMethodsTable>[] = LIVE_METHODS.map((m) => {
  const chainId = TEST_CHAIN_OF.get(m.chain_id);
  if (chainId === undefined) throw new Error(`No test network for chain ${m.chain_id}`);
  return {
    ...m,
    id: testMethodId(m.id),
    chain_id: chainId as PaymentMethodsTable['chain_id'],
    network_name: TEST_NETWORK_NAMES.get(chainId) ?? `${m.network_name} (test)`,
    sort_order: m.sort_order + 100,
    livemode: 0,
  };
});

export const PAYMENT_METHODS: readonly Insertable<PaymentMethodsTable>[] = [
  ...LIVE_METHODS,
  ...TEST_METHODS,
];
