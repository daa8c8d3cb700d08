import path from 'node:path';
import { useDevWalletMaker } from '../src/domain/chain/walletKey';
import { ensureDevSeed } from '../src/signer/server/seed';

// Run from source, no signer bundle sits beside the web process's code to make the development
// wallet (dist/server/signer.cjs --dev-wallet): the tests hand in the signer's own function.
useDevWalletMaker((dataDir) => {
  ensureDevSeed(dataDir);
});

// Every test file starts with its modules anew: the contracts' parses are kept on disk between
// files instead (server/src/openapi/diskParses.ts), named by what they were made from.
process.env.OPENAPI_PARSE_CACHE ??= path.resolve(
  __dirname,
  '../../node_modules/.cache/openapi-parses',
);
