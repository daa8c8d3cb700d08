import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { entries, serverBundleOptions } from '../../scripts/build-server.mjs';

// The web process faces the internet: its bundle (dist/server/main.cjs) must hold no code that
// makes or reads a wallet seed. Only the signer's bundle does.

let outdir: string;
beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
  await build({ ...serverBundleOptions(outdir), sourcemap: false });
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const bundle = (name: string) => readFileSync(path.join(outdir, `${name}.cjs`), 'utf8');

test('the web process bundle has no seed-making code', () => {
  expect(Object.keys(entries)).toContain('main');
  const main = bundle('main');
  expect(main).toContain('function resolveWalletXpub');
  expect(main).not.toContain('generateMnemonic');
  expect(main).not.toContain('@scure/bip39');
  expect(main).not.toContain('function ensureDevSeed');
});

test("the signer's bundle has it (so the check above looks for the right names)", () => {
  const signer = bundle('signer');
  expect(signer).toContain('generateMnemonic');
  expect(signer).toContain('function ensureDevSeed');
});
