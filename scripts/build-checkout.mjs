// Builds the checkout page's browser script and style sheet (src/checkout/) into dist/checkout/:
// checkout.<hash>.js and checkout.<hash>.css with their .br and .gz twins, and manifest.json
// naming them, which the server reads at start (server/src/checkout/plugin.ts). esbuild, not
// the portal's webpack: the page loads none of the portal's bundle, and its script is small
// and framework-free. Part of `npm run build:server` (scripts/build-server.mjs).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCompressedTwins } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'src', 'checkout');
/** Where the server looks for the files (server/src/paths.ts CHECKOUT_DIR). */
export const checkoutDir = path.resolve(root, process.env.DIST_DIR ?? 'dist', 'checkout');

/** True when the manifest is missing or older than a source or this script. */
export function checkoutIsStale() {
  const manifest = path.join(checkoutDir, 'manifest.json');
  if (!existsSync(manifest)) return true;
  const built = statSync(manifest).mtimeMs;
  const sources = readdirSync(sourceDir).map((name) => path.join(sourceDir, name));
  return [...sources, fileURLToPath(import.meta.url)].some((p) => statSync(p).mtimeMs > built);
}

/** @param {Uint8Array} bytes @returns {string} */
const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

export async function buildCheckout() {
  const { build } = await import('esbuild');
  const common = /** @type {const} */ ({
    absWorkingDir: root,
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const [script, style] = await Promise.all([
    build({
      ...common,
      entryPoints: [path.join(sourceDir, 'checkout.ts')],
      format: 'iife',
      target: ['chrome100', 'firefox100', 'safari15'],
      outfile: 'checkout.js',
    }),
    build({
      ...common,
      entryPoints: [path.join(sourceDir, 'checkout.css')],
      target: ['chrome100', 'firefox100', 'safari15'],
      outfile: 'checkout.css',
    }),
  ]);
  const js = script.outputFiles[0]?.contents;
  const css = style.outputFiles[0]?.contents;
  if (!js || !css) throw new Error('build-checkout: esbuild wrote nothing');
  rmSync(checkoutDir, { recursive: true, force: true });
  mkdirSync(checkoutDir, { recursive: true });
  /** @type {Record<string, string>} */
  const manifest = {};
  for (const [kind, bytes] of /** @type {const} */ ([
    ['js', js],
    ['css', css],
  ])) {
    const name = `checkout.${hashOf(bytes)}.${kind}`;
    const file = path.join(checkoutDir, name);
    writeFileSync(file, bytes);
    writeCompressedTwins(file, Buffer.from(bytes));
    manifest[kind] = name;
  }
  writeFileSync(path.join(checkoutDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`Built ${path.relative(root, checkoutDir)}: ${manifest.js}, ${manifest.css}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildCheckout().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
