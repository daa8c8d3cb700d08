import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { entries, serverBundleOptions } from '../../scripts/build-server.mjs';

// The web process faces the internet: its bundle (dist/server/main.cjs) must hold no code that
// makes or reads a wallet seed. Only the signer's bundle does. Its stack traces name the
// TypeScript sources through a map that holds no sources' text.

let outdir: string;
beforeAll(async () => {
  outdir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
  await build(serverBundleOptions(outdir));
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

test("the web process's stack traces name the TypeScript file and line", () => {
  const map = JSON.parse(readFileSync(path.join(outdir, 'main.cjs.map'), 'utf8')) as {
    sourcesContent?: unknown;
  };
  expect(map.sourcesContent).toBeUndefined();
  // A refused setting stops the start with its stack trace on stderr.
  const run = spawnSync(process.execPath, ['--enable-source-maps', path.join(outdir, 'main.cjs')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      NODE_PATH: path.resolve(__dirname, '../../node_modules'),
      DATABASE_URL: 'mysql://db.test/portal',
    },
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('DATABASE_URL must be a postgres:// URL');
  expect(run.stderr).toMatch(/at loadConfig \(\S*server\/src\/config\.ts:\d+:\d+\)/);
});
