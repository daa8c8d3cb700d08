import { useDevWalletMaker } from '../src/domain/chain/walletKey';
import { ensureDevSeed } from '../src/signer/server/seed';

// Run from source, no signer bundle sits beside the web process's code to make the development
// wallet (dist/server/signer.cjs --dev-wallet): the tests hand in the signer's own function.
useDevWalletMaker((dataDir) => {
  ensureDevSeed(dataDir);
});
