// Bundles the API server (server/src) into dist/server/{main,admin,signer}.cjs with esbuild, renders
// the gateway's reference page into dist/gateway-docs (build-gateway-docs.mjs) and builds the
// checkout page's script and style sheet into dist/checkout (build-checkout.mjs).
// Dependencies stay external (node_modules at run time; Node >= 20.19 require()s the ESM-only
// ones) but for the few with many modules (BUNDLED below).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCheckout, checkoutIsStale } from './build-checkout.mjs';
import { buildGatewayDocs, gatewayDocsAreStale } from './build-gateway-docs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(root, 'server', 'src');
// DIST_DIR keeps parallel builds apart (see webpack.config.ts); default dist/.
export const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
export const outDir = path.join(distDir, 'server');
export const entries = {
  main: 'server/src/main.ts',
  admin: 'server/src/admin.ts',
  signer: 'server/src/signer/server/main.ts',
};

/** @param {string} dir @returns {number} */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when a bundle is missing or older than any file under server/src, or the page is stale. */
export function serverBuildIsStale() {
  if (gatewayDocsAreStale() || checkoutIsStale()) return true;
  const sources = newestMtime(srcDir);
  return Object.keys(entries).some((name) => {
    const out = path.join(outDir, `${name}.cjs`);
    return !existsSync(out) || statSync(out).mtimeMs < sources;
  });
}

/**
 * React's production build, bundled, wherever the server uses React (the checkout's pages drawn
 * on the server, qrcode.react among them), whatever NODE_ENV says at run time: the development
 * build checks every element, which made a page several times slower, and warns of nothing a
 * shopper or an operator could act on. One copy for all of them, so the renderer and the
 * components share React's internals.
 * @type {import('esbuild').Plugin}
 */
const reactInProduction = {
  name: 'react-in-production',
  setup(build) {
    /** @type {Record<string, string>} */
    const files = {
      react: 'react/cjs/react.production.js',
      'react/jsx-runtime': 'react/cjs/react-jsx-runtime.production.js',
      'react-dom': 'react-dom/cjs/react-dom.production.js',
      'react-dom/server': 'react-dom/cjs/react-dom-server-legacy.node.production.js',
      // Bundled too, so that its own `require('react')` comes here.
      'qrcode.react': 'qrcode.react/lib/index.js',
    };
    build.onResolve(
      { filter: /^(react(-dom)?(\/jsx-runtime|\/server)?|qrcode\.react)$/ },
      (args) => {
        const file = files[args.path];
        return file === undefined ? undefined : { path: path.join(root, 'node_modules', file) };
      },
    );
  },
};

/**
 * The packages bundled, with what they import: the chain's library and the query builder, pure
 * JavaScript whose hundreds of modules (viem's 389, kysely's 263) each cost a resolution, a read
 * and a compile at every start of a process, `npm run admin` included. Bundled, a process loads
 * what it uses of them from one file: an admin command's start took 0.56 s of CPU, not 0.97 s.
 * Every other package stays external (node_modules at run time): native addons, and packages that
 * load files or workers by path.
 */
const BUNDLED = /^(viem|kysely)(\/|$)/;

/** @type {import('esbuild').Plugin} */
const externalButBundled = {
  name: 'external-but-bundled',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (BUNDLED.test(args.path)) return undefined;
      // What a bundled package imports comes with it: the versions it was installed with.
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * esbuild's options for the server's bundles, written to `outdir`.
 * @param {string} outdir
 */
export function serverBundleOptions(outdir) {
  return /** @type {const} */ ({
    absWorkingDir: root,
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: /** @type {import('esbuild').Plugin[]} */ ([reactInProduction, externalButBundled]),
    // Maps for stack traces only: the sources' text (4.5 MB of main's 6.2) is not needed to name
    // a file and line, and each process read and parsed it at start (about 90 ms).
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });
}

export async function buildServer() {
  const { build } = await import('esbuild');
  await build(serverBundleOptions(outDir));
  console.log(
    `Built ${Object.keys(entries)
      .map((n) => path.relative(root, path.join(outDir, `${n}.cjs`)))
      .join(', ')}`,
  );
  buildGatewayDocs();
  await buildCheckout();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
