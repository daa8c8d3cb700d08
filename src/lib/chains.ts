/** Chain reference data: chain id -> native coin and block-explorer URL bases. */
export interface ChainInfo {
  name: string;
  nativeCoin: string;
  txUrl: string;
  addressUrl: string;
}

export const CHAINS: Readonly<Record<number, ChainInfo>> = {
  56: {
    name: 'BNB Smart Chain',
    nativeCoin: 'BNB',
    txUrl: 'https://bscscan.com/tx/',
    addressUrl: 'https://bscscan.com/address/',
  },
  137: {
    name: 'Polygon',
    nativeCoin: 'POL',
    txUrl: 'https://polygonscan.com/tx/',
    addressUrl: 'https://polygonscan.com/address/',
  },
  1: {
    name: 'Ethereum',
    nativeCoin: 'ETH',
    txUrl: 'https://etherscan.io/tx/',
    addressUrl: 'https://etherscan.io/address/',
  },
  42161: {
    name: 'Arbitrum One',
    nativeCoin: 'ETH',
    txUrl: 'https://arbiscan.io/tx/',
    addressUrl: 'https://arbiscan.io/address/',
  },
  250: {
    name: 'Fantom',
    nativeCoin: 'FTM',
    txUrl: 'https://ftmscan.com/tx/',
    addressUrl: 'https://ftmscan.com/address/',
  },
  10: {
    name: 'Optimism',
    nativeCoin: 'ETH',
    txUrl: 'https://optimistic.etherscan.io/tx/',
    addressUrl: 'https://optimistic.etherscan.io/address/',
  },
  97: {
    name: 'BNB Smart Chain Testnet',
    nativeCoin: 'BNB',
    txUrl: 'https://testnet.bscscan.com/tx/',
    addressUrl: 'https://testnet.bscscan.com/address/',
  },
  11155111: {
    name: 'Sepolia',
    nativeCoin: 'ETH',
    txUrl: 'https://sepolia.etherscan.io/tx/',
    addressUrl: 'https://sepolia.etherscan.io/address/',
  },
  80002: {
    name: 'Polygon Amoy',
    nativeCoin: 'POL',
    txUrl: 'https://amoy.polygonscan.com/tx/',
    addressUrl: 'https://amoy.polygonscan.com/address/',
  },
  [-1]: {
    name: 'Tron Nile',
    nativeCoin: 'TRX',
    txUrl: 'https://nile.tronscan.org/#/transaction/',
    addressUrl: 'https://nile.tronscan.org/#/address/',
  },
  0: {
    name: 'Tron',
    nativeCoin: 'TRX',
    txUrl: 'https://tronscan.org/#/transaction/',
    addressUrl: 'https://tronscan.org/#/address/',
  },
};

export function chainInfo(chainId: number): ChainInfo | undefined {
  return CHAINS[chainId];
}

export function explorerTxUrl(chainId: number, hash: string): string | undefined {
  const chain = chainInfo(chainId);
  return chain && `${chain.txUrl}${hash}`;
}

/**
 * Address page on the chain's explorer. The operational wallet view asks for 100 rows and
 * transaction type 2 (token transfers) as the spec says: `ps=100&tt=2`.
 */
export function explorerAddressUrl(
  chainId: number,
  address: string,
  filter?: { pageSize: number; txType: number },
): string | undefined {
  const chain = chainInfo(chainId);
  if (!chain) return undefined;
  const query = filter ? `?ps=${filter.pageSize}&tt=${filter.txType}` : '';
  return `${chain.addressUrl}${address}${query}`;
}
